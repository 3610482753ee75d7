import { createRequire } from 'node:module';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    // type-graphql and Apollo load graphql's CommonJS build; our sources must share that one
    // instance, not the ESM build vite would pick (graphql refuses types from "another realm").
    alias: [
      { find: /^graphql$/, replacement: require.resolve('graphql') },
      // Their ESM builds import graphql/index.mjs (the other realm); its CommonJS build shares ours.
      { find: /^graphql-query-complexity$/, replacement: require.resolve('graphql-query-complexity') },
      { find: /^graphql-scalars$/, replacement: require.resolve('graphql-scalars') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

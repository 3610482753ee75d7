import { bench, describe } from 'vitest';
import { createApiKey, createWorkspace } from '../test/helpers/fixtures';
import { buildTestApp, type TestApp } from '../test/helpers/test-app';

/**
 * What an API key costs per request. The same read (GET /workspace/config) is sent with a session
 * token (the baseline: one statement reads the user and the workspace), with a key served from
 * the lookup cache (the default), and with the cache off (a lookup on every request). Read the
 * means side by side: the cached key should cost no more than the session.
 */

/** Benchmark files take no beforeAll: the fixtures are built once, on first use. */
const fixture = (async () => {
  const cached = await buildTestApp();
  const uncached = await buildTestApp({}, { sharedDatabase: cached.db, apiKeyCacheTtlMs: 0 });
  const ws = await createWorkspace(cached);
  const { key } = await createApiKey(cached, ws);
  return { cached, uncached, token: ws.token, key };
})();

async function read(app: (f: Awaited<typeof fixture>) => TestApp, auth: (f: Awaited<typeof fixture>) => { token?: string; apiKey?: string }) {
  const f = await fixture;
  const res = await app(f).request({ method: 'GET', url: '/api/v1/workspace/config', ...auth(f) });
  if (res.statusCode !== 200) throw new Error(`expected 200, got ${res.statusCode}: ${res.body}`);
}

describe('authenticating a request: session token vs API key', () => {
  const options = { iterations: 400, time: 0, warmupIterations: 20 };
  bench('baseline: session token', () => read((f) => f.cached, (f) => ({ token: f.token })), options);
  bench('API key, cached lookup (default)', () => read((f) => f.cached, (f) => ({ apiKey: f.key })), options);
  bench('API key, lookup on every request (cache off)', () => read((f) => f.uncached, (f) => ({ apiKey: f.key })), {
    ...options,
    teardown: async (_task, mode) => {
      if (mode !== 'run') return;
      const f = await fixture;
      await f.uncached.close();
      await f.cached.close();
    },
  });
});

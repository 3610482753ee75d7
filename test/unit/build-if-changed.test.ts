import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * scripts/build.cjs --if-changed (what `npm start` runs before the service): it may skip swc only
 * when dist/ is the build of exactly the current sources. Each case runs the real script and swc
 * on a small project in a temporary folder.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const BUILD = path.join(ROOT, 'scripts/build.cjs');
const MARK = '// left by the test: still here means swc did not run\n';

describe('build --if-changed', () => {
  let project: string;
  const file = (relative: string) => path.join(project, relative);
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(file(relative)), { recursive: true });
    writeFileSync(file(relative), text);
  };
  const build = (...args: string[]) => run(process.execPath, [BUILD, ...args], { cwd: project });
  /** Builds, then marks an output so the next run shows whether it compiled again. */
  const buildAndMark = async () => {
    await build('--if-changed');
    writeFileSync(file('dist/src/a.js'), MARK);
  };
  const compiledAgain = () => readFileSync(file('dist/src/a.js'), 'utf8') !== MARK;

  beforeEach(() => {
    project = mkdtempSync(path.join(os.tmpdir(), 'sd-build-'));
    symlinkSync(path.join(ROOT, 'node_modules'), file('node_modules'), 'dir');
    copyFileSync(path.join(ROOT, '.swcrc'), file('.swcrc'));
    write('package.json', '{ "private": true }\n');
    write('src/a.ts', 'export const a: number = 1;\n');
    write('rest-shim/b.ts', 'export const b = 2;\n');
    write('jobs/c.ts', 'export const c = 3;\n');
    write('scripts/d.ts', 'export const d = 4;\n');
    write('mikro-orm.config.ts', 'export default {};\n');
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it('compiles a project that has no dist/', async () => {
    await build('--if-changed');
    expect(readFileSync(file('dist/src/a.js'), 'utf8')).toContain('a = 1');
    expect(existsSync(file('dist/rest-shim/b.js'))).toBe(true);
  });

  it('skips swc when no source changed', async () => {
    await buildAndMark();
    await build('--if-changed');
    expect(compiledAgain()).toBe(false);
  });

  it('compiles again after a source changed, even when its modification time went back', async () => {
    await buildAndMark();
    write('src/a.ts', 'export const a: number = 42;\n');
    const past = new Date('2000-01-01T00:00:00Z');
    utimesSync(file('src/a.ts'), past, past);
    await build('--if-changed');
    expect(readFileSync(file('dist/src/a.js'), 'utf8')).toContain('a = 42');
  });

  it('compiles again when a source file is added or removed', async () => {
    await buildAndMark();
    write('jobs/d.ts', 'export const d = 4;\n');
    await build('--if-changed');
    expect(compiledAgain()).toBe(true);
    expect(existsSync(file('dist/jobs/d.js'))).toBe(true);

    writeFileSync(file('dist/src/a.js'), MARK);
    rmSync(file('jobs/d.ts'));
    await build('--if-changed');
    expect(compiledAgain()).toBe(true);
  });

  it('compiles again when an output or the whole dist/ is gone', async () => {
    await buildAndMark();
    rmSync(file('dist/rest-shim/b.js'));
    await build('--if-changed');
    expect(compiledAgain()).toBe(true);
    expect(existsSync(file('dist/rest-shim/b.js'))).toBe(true);

    rmSync(file('dist'), { recursive: true });
    await build('--if-changed');
    expect(existsSync(file('dist/src/a.js'))).toBe(true);
  });

  it('compiles again when the swc configuration changed', async () => {
    await buildAndMark();
    const swcrc = JSON.parse(readFileSync(file('.swcrc'), 'utf8'));
    swcrc.sourceMaps = false;
    writeFileSync(file('.swcrc'), JSON.stringify(swcrc));
    await build('--if-changed');
    expect(compiledAgain()).toBe(true);
  });

  it('never takes a failed build for a complete one', async () => {
    await buildAndMark();
    write('src/a.ts', 'export const a: number = ;\n');
    await expect(build('--if-changed')).rejects.toThrow();
    // The sources are back to those of the last good build, but what dist/ holds is unknown now.
    write('src/a.ts', 'export const a: number = 1;\n');
    await build('--if-changed');
    expect(compiledAgain()).toBe(true);
  });

  it('always compiles without --if-changed (npm run build)', async () => {
    await buildAndMark();
    await build();
    expect(compiledAgain()).toBe(true);
  });
});

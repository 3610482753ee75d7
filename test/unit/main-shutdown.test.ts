import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/db/embedded-postgres';

/**
 * `npm start`'s process (dist/src/main.js) with its embedded PostgreSQL stops in order on SIGTERM,
 * whenever the signal comes: embedded-postgres's own exit hooks, which stop the database at once
 * under connected clients, must never be the ones that answer it.
 */

const MAIN_JS = path.resolve(__dirname, '../../dist/src/main.js');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-main-shutdown-'));
chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts the service, sends SIGTERM once its output shows `when`, and resolves to its exit and output. */
async function stopWhen(when: RegExp): Promise<{ code: number | null; output: string }> {
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [MAIN_JS], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let signalled = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (!signalled && when.test(output)) {
      signalled = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code, output };
}

describe('stopping the service with its embedded PostgreSQL', () => {
  it('stops in order on a SIGTERM after start-up: exit 0, the database shut down', async () => {
    const { code, output } = await stopWhen(/Job worker: running/);
    expect(output).toContain('SIGTERM received: stopping');
    expect(output).not.toMatch(/Connection terminated|terminating connection|Unhandled|error handlers|Shutdown failed|Start-up failed/);
    expect(code, output).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('finishes starting, then stops in order, on a SIGTERM that comes while the database starts', async () => {
    const { code, output } = await stopWhen(/starting the embedded PostgreSQL/);
    expect(output).toContain('SIGTERM received: stopping');
    expect(output).not.toMatch(/Connection terminated|terminating connection|Unhandled|error handlers|Shutdown failed|Start-up failed/);
    expect(code, output).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});

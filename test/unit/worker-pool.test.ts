import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openWorkerPool } from '../../jobs/worker-pool';
import { quietWorkerLogger } from '../../jobs/quiet-logger';
import { createEmptyDatabase, type TestDatabase } from '../helpers/database';

/** graphile-worker's pool: closed only once its connections are, and never without error listeners. */
describe('openWorkerPool', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createEmptyDatabase();
  });
  afterAll(async () => db.drop());

  it('close() resolves once every connection has ended, not as soon as the pool stops taking requests', async () => {
    const pool = openWorkerPool(db.url, 3, quietWorkerLogger());
    const ended = new Map<Client, boolean>();
    pool.pgPool.on('connect', (client) => {
      ended.set(client as Client, false);
      client.once('end', () => ended.set(client as Client, true));
    });
    const clients = await Promise.all([pool.pgPool.connect(), pool.pgPool.connect(), pool.pgPool.connect()]);
    for (const client of clients) client.release();
    await pool.close();
    expect(ended.size).toBe(3);
    expect([...ended.values()]).toEqual([true, true, true]);
  });

  it('logs, and survives, a connection the server terminates, idle or checked out', async () => {
    const logger = quietWorkerLogger();
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const pool = openWorkerPool(db.url, 3, logger);
    const [active, idle, admin] = await Promise.all([pool.pgPool.connect(), pool.pgPool.connect(), pool.pgPool.connect()]);
    const idlePid = (await idle.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    const activePid = (await active.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    idle.release();
    const idleGone = new Promise((resolve) => pool.pgPool.once('remove', resolve));
    const activeErrored = new Promise((resolve) => active.once('error', resolve));
    await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [[idlePid, activePid]]);
    admin.release();
    await Promise.all([idleGone, activeErrored]);
    expect(error.mock.calls.map(([message]) => message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^PostgreSQL idle client generated error: terminating connection/), expect.stringMatching(/^PostgreSQL active client generated error: terminating connection/)]),
    );
    active.release(true);
    await pool.close();
  });
});

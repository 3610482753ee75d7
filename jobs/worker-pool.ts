import type { Logger } from 'graphile-worker';
import { Pool, type PoolClient } from 'pg';

/** A connection pool for graphile-worker, and the one way to close it. */
export interface WorkerPool {
  pgPool: Pool;
  /** Ends the pool and resolves once every one of its connections is closed. */
  close(): Promise<void>;
}

/**
 * A pool we give graphile-worker rather than let it make one. Its own pool is ended without
 * waiting when the worker stops, and its error listeners are taken off first; and even an awaited
 * `Pool.end()` resolves while its connections are still closing. A database stopped right after
 * (as `npm start` stops its embedded one) then terminated a connection that had no listener left,
 * and the process crashed. Here the listeners stay for the pool's whole life, and `close()` waits
 * for the last connection's end.
 */
export function openWorkerPool(connectionString: string, max: number, logger: Logger): WorkerPool {
  const pgPool = new Pool({ connectionString, max });
  const open = new Set<PoolClient>();
  let lastClosed: (() => void) | undefined;
  // graphile-worker installs the same two listeners on a pool it makes; given ours, it relies on them.
  pgPool.on('error', (error) => logger.error(`PostgreSQL idle client generated error: ${error.message}`, { error }));
  pgPool.on('connect', (client) => {
    open.add(client);
    client.on('error', (error) => logger.error(`PostgreSQL active client generated error: ${error.message}`, { error }));
  });
  pgPool.on('remove', (client) => {
    open.delete(client);
    if (open.size === 0) lastClosed?.();
  });
  return {
    pgPool,
    async close() {
      const allClosed = new Promise<void>((resolve) => (lastClosed = resolve));
      await pgPool.end();
      if (open.size > 0) await allClosed;
    },
  };
}

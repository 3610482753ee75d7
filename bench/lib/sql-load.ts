import type { Pool } from 'pg';
import type { LoadResult } from './http-load';
import type { Statement } from './sql-capture';
import { percentile } from './stats';

/**
 * The raw baseline of a load run: `concurrency` loops for `seconds`, each sending the statements of
 * one captured request (`next()`) through `pool`, one after another, as the service would — with
 * no HTTP and no ORM. A captured transaction runs on one checked-out connection.
 */
export async function sqlLoad(options: { pool: Pool; concurrency: number; seconds: number; next: () => Statement[] }): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        await replay(options.pool, options.next());
        latencies.push(performance.now() - started);
      } catch {
        failures += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
}

/** Sends one captured request's statements through `pool`, in order; a transaction on one connection. */
export async function replay(pool: Pool, statements: Statement[]): Promise<void> {
  if (!statements.some((s) => /^\s*begin\b/i.test(s.text))) {
    for (const s of statements) await pool.query(s.text, s.values);
    return;
  }
  const client = await pool.connect();
  try {
    for (const s of statements) await client.query(s.text, s.values);
  } finally {
    client.release();
  }
}

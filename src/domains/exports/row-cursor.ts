import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, raw, sql } from '../../db/tenant-sql';
import type { RowsQuery } from './export-source';

/** Rows fetched per round trip. */
export const BATCH_SIZE = 1_000;

/** How many rows a query has (counted on its `count`, which has as many as its `from`). */
export async function countRows(em: EntityManager, query: RowsQuery): Promise<number> {
  const [row] = await executeSql<{ count: number }>(em, sql`select count(*)::int as count from ${query.count}`);
  return row.count;
}

/**
 * Reads a query's rows through a server-side cursor, `batchSize` at a time, in one read-only
 * snapshot, handing each batch over before the next is fetched: memory holds one batch whatever
 * the row count. Returns the number of rows read.
 */
export async function forEachBatch(
  em: EntityManager,
  query: RowsQuery,
  onBatch: (rows: Record<string, unknown>[]) => Promise<void>,
  batchSize = BATCH_SIZE,
): Promise<number> {
  return em.transactional(
    async (tx) => {
      // A backstop for a holder that never comes back (the writer gives up on stalled clients first).
      await tx.execute(`set local idle_in_transaction_session_timeout = '5min'`);
      await executeSql(tx, sql`declare export_rows no scroll cursor for select ${raw(query.select)} from ${query.from} order by ${raw(query.orderBy)}`);
      let read = 0;
      for (;;) {
        const rows = await tx.execute<Record<string, unknown>[]>(`fetch ${batchSize} from export_rows`);
        if (rows.length === 0) break;
        read += rows.length;
        await onBatch(rows);
        if (rows.length < batchSize) break;
      }
      return read;
    },
    { readOnly: true, isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}

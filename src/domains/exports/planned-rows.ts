import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExportFilters, ExportRow, ExportSource, FilterScope } from './export-source';
import { BATCH_SIZE, countRows, forEachBatch } from './row-cursor';

/** The rows of a planned export: how many there are, and a reading of them a batch at a time. */
export interface PlannedRows {
  total: number;
  /** Title lines the rows' computation adds after the filters' (none for queried kinds). */
  lines: string[];
  /** Hands each batch over before the next is read; returns the number of rows read. */
  forEachBatch(em: EntityManager, onBatch: (rows: ExportRow[]) => Promise<void>, batchSize?: number): Promise<number>;
}

/** Hands computed rows over in batches, as a cursor would. */
async function inBatches(rows: ExportRow[], onBatch: (rows: ExportRow[]) => Promise<void>, batchSize: number): Promise<number> {
  for (let at = 0; at < rows.length; at += batchSize) await onBatch(rows.slice(at, at + batchSize));
  return rows.length;
}

/**
 * The rows of an export with checked filters: a queried kind is counted now and read by cursor when
 * written; a computed kind's rows are computed now, once, and written as computed.
 */
export async function plannedRows(scope: FilterScope, source: ExportSource, filters: ExportFilters): Promise<PlannedRows> {
  if ('computedRows' in source) {
    const { rows, lines = [] } = await source.computedRows(scope, filters);
    return { total: rows.length, lines, forEachBatch: (_em, onBatch, batchSize = BATCH_SIZE) => inBatches(rows, onBatch, batchSize) };
  }
  const query = source.rows(scope.organizationId, filters);
  return { total: await countRows(scope.em, query), lines: [], forEachBatch: (em, onBatch, batchSize) => forEachBatch(em, query, onBatch, batchSize) };
}

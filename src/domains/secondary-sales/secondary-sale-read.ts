import type { EntityManager } from '@mikro-orm/postgresql';
import { findRows, type Row } from '../../db/entity-rows';
import { SecondarySale, SecondarySaleLine } from './secondary-sale.entity';

/** A secondary sale as REST and GraphQL show it: its row and its lines' rows. */
export interface SecondarySaleRead {
  sale: Row<SecondarySale>;
  lines: Array<Row<SecondarySaleLine>>;
}

/** The reads of secondary sale rows: their lines in one tenant-filtered statement. */
export async function readSecondarySales(em: EntityManager, sales: ReadonlyArray<Row<SecondarySale>>): Promise<SecondarySaleRead[]> {
  if (sales.length === 0) return [];
  const lines = await findRows(em, SecondarySaleLine, { sale: { $in: sales.map((s) => s.id) } }, { orderBy: { id: 'asc' } });
  const bySale = new Map<number, Array<Row<SecondarySaleLine>>>();
  for (const line of lines) {
    const list = bySale.get(line.sale) ?? [];
    list.push(line);
    bySale.set(line.sale, list);
  }
  return sales.map((sale) => ({ sale, lines: bySale.get(sale.id) ?? [] }));
}

/** The read of one secondary sale by id (tenant-filtered), or null. */
export async function secondarySaleReadOf(em: EntityManager, id: number): Promise<SecondarySaleRead | null> {
  const [sale] = await findRows(em, SecondarySale, { id });
  if (!sale) return null;
  const [read] = await readSecondarySales(em, [sale]);
  return read;
}

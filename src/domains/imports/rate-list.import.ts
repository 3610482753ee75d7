import type { EntityManager } from '@mikro-orm/postgresql';
import * as rules from '../../validation/rules';
import { checkNotPast } from '../products/price.service';
import { PriceSource } from '../products/variant-price.entity';
import { resolveSkusOnDays, writePrices, type NewPrice } from '../products/variant-prices';
import { workspaceToday } from '../workspace/local-day';
import { CellReader } from './cells';
import { defineImportKind, repeatedKeys, ruleError, type ImportRunContext, type NumberedRow, type RowFailure } from './import-kind';

/** A rate-list row: a SKU's new selling price (and MRP) from a day. */
export interface RateRow {
  sku: string;
  sp: number;
  /** null: the MRP in force on the day stays. */
  mrp: number | null;
  /** null: today in the workspace's time zone. */
  effectiveFrom: string | null;
}

/** Rule field → column. */
const FIELDS: Record<string, string> = { sp: 'price', price: 'price', mrp: 'mrp', effectiveFrom: 'effective_from', sku: 'sku' };

/** What writing a row does: a new version, one superseding a version of the same day, or nothing. */
type Outcome = 'inserted' | 'updated' | 'unchanged';

interface Planned {
  rowNumber: number;
  price: NewPrice | null;
  outcome: Outcome;
  failure?: { field: string; message: string };
}

/**
 * Plans the rows against the history (one statement): the variant of each SKU, the MRP of the
 * row (given, or the one in force on its day), the products' money rules (price at most MRP), and
 * what writing it changes. A row equal to the price in force on its day changes no answer for any
 * day and writes nothing (so a re-upload of the same file writes nothing); a row for a day that
 * already has a version with other prices appends a version that supersedes it (the history is
 * append-only: the latest written version of a day is the one in force).
 */
async function plan(em: EntityManager, ctx: ImportRunContext, rows: ReadonlyArray<NumberedRow<RateRow>>, today: string): Promise<Planned[]> {
  const days = rows.map((r) => r.row.effectiveFrom ?? today);
  const resolved = await resolveSkusOnDays(em, ctx.organizationId, rows.map((r, i) => ({ sku: r.row.sku, day: days[i] })));
  const planned: Planned[] = rows.map(({ rowNumber }) => ({ rowNumber, price: null, outcome: 'unchanged' }));
  // A variant's rows in day order: an earlier row of the file is in force on a later row's day
  // unless the history has a version that begins after it.
  const order = rows.map((_, i) => i).sort((a, b) => (days[a] < days[b] ? -1 : days[a] > days[b] ? 1 : a - b));
  const lastOfVariant = new Map<number, { day: string; sp: number; mrp: number }>();
  for (const i of order) {
    const { rowNumber, row } = rows[i];
    const found = resolved[i];
    const fail = (field: string, message: string) => (planned[i] = { rowNumber, price: null, outcome: 'unchanged', failure: { field, message } });
    if (found.variantId === null) {
      fail('sku', `${row.sku} is not a SKU code of this workspace`);
      continue;
    }
    const earlier = lastOfVariant.get(found.variantId);
    const inForce = earlier && (found.effectiveFrom === null || earlier.day >= found.effectiveFrom) ? { ...earlier, effectiveFrom: earlier.day } : found;
    const mrp = row.mrp ?? inForce.mrp;
    if (mrp === null) {
      fail('mrp', `is required: ${row.sku} has no price in force on ${days[i]}`);
      continue;
    }
    if (row.sp > mrp) {
      fail('price', `must not exceed mrp (${mrp})`);
      continue;
    }
    const price = { variantId: found.variantId, sp: row.sp, mrp, effectiveFrom: days[i] };
    lastOfVariant.set(found.variantId, { day: days[i], sp: row.sp, mrp });
    if (inForce.sp === row.sp && inForce.mrp === mrp) planned[i] = { rowNumber, price, outcome: 'unchanged' };
    else planned[i] = { rowNumber, price, outcome: inForce.effectiveFrom === days[i] ? 'updated' : 'inserted' };
  }
  return planned;
}

/**
 * The rate list: new prices per SKU from a day (effective_from, default today in the workspace's
 * time zone; a past day is refused, since past days' prices are what their orders were placed
 * at). Keyed by (sku, effective_from): a key repeated within the file fails. Each row appends a
 * version to the SKU's price history; one in force today also changes the variant's price now,
 * a later one when its day comes (the apply_due_prices cron task). Orders already placed keep
 * their line prices.
 */
export const rateListImport = defineImportKind<RateRow>({
  kind: 'rate-list',
  title: 'Rate list',
  keyDescription: 'sku and effective_from',
  columns: [
    { header: 'sku', required: true, example: 'TM-500', description: 'An item_sku_code of the workspace', width: 16 },
    { header: 'price', required: true, example: 29.5, description: 'Selling price from effective_from: >= 0, two decimals, at most the MRP', width: 10 },
    { header: 'mrp', required: false, example: 32, description: 'Maximum retail price from effective_from; empty: the MRP in force on that day stays', width: 10 },
    { header: 'effective_from', required: false, example: '2026-12-01', description: "YYYY-MM-DD, today or later; empty: today (the workspace's time zone)", width: 14 },
  ],

  parse(values) {
    const c = new CellReader(values);
    const price = c.number('price');
    const mrpCell = c.number('mrp');
    if (c.errors.length > 0) return c.errors;
    try {
      const sku = rules.requiredText('sku', values.sku, 64);
      const sp = rules.money('price', price!);
      const mrp = mrpCell === undefined ? null : rules.money('mrp', mrpCell);
      if (mrp !== null && sp > mrp) return [{ field: 'price', message: 'must not exceed mrp' }];
      const effectiveFrom = values.effective_from ? rules.calendarDate('effective_from', values.effective_from) : null;
      return { sku, sp, mrp, effectiveFrom };
    } catch (err) {
      return [ruleError(err, FIELDS)];
    }
  },

  async check(em, ctx, rows) {
    const today = await workspaceToday(em, ctx.organizationId);
    const failures: RowFailure[] = repeatedKeys(rows, (r) => `${r.sku} from ${r.effectiveFrom ?? today}`, 'sku');
    const current: Array<NumberedRow<RateRow>> = [];
    for (const r of rows) {
      try {
        if (r.row.effectiveFrom !== null) checkNotPast('effective_from', r.row.effectiveFrom, today);
        current.push(r);
      } catch (err) {
        failures.push({ rowNumber: r.rowNumber, ...ruleError(err, FIELDS) });
      }
    }
    for (const p of await plan(em, ctx, current, today)) if (p.failure) failures.push({ rowNumber: p.rowNumber, ...p.failure });
    return failures;
  },

  async write(tx, ctx, rows) {
    const today = await workspaceToday(tx, ctx.organizationId);
    const planned = await plan(tx, ctx, rows, today);
    const changes = planned.filter((p) => p.price !== null && p.outcome !== 'unchanged');
    await writePrices(tx, ctx, changes.map((p) => p.price!), PriceSource.IMPORT, today, ctx.importJobId ?? null);
    const count = (o: Outcome) => planned.filter((p) => p.outcome === o).length;
    return { inserted: count('inserted'), updated: count('updated'), unchanged: count('unchanged') };
  },
});

import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, joinSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { executeBound } from '../imports/bound-sql';
import type { Paginated } from '../../lists/page-request';
import type { ResolvedSort } from '../../lists/sort';
import { pickedOrder } from '../../lists/sql-sort';
import { searchTermsOf } from '../../lists/search';
import { shiftDay } from '../workspace/local-day';
import { PriceSource } from './variant-price.entity';

/*
 * The statements of the price history (variant_price). The price in force on day D is the
 * variant's row with the latest effective_from ≤ D, the latest written (highest id) of a day's
 * rows. product_variant.sp/mrp copy today's: every write of a version in force today updates the
 * variant in its transaction (syncVariants), and the cron task apply_due_prices copies versions
 * that came due since they were written.
 */

/** Who writes a version: the workspace and the caller (a RequestContext is one). */
export interface PriceWriter {
  readonly organizationId: number;
  readonly userId: number | null;
  readonly apiKeyId: number | null;
}

/** A version to write. */
export interface NewPrice {
  variantId: number;
  sp: number;
  mrp: number;
  /** YYYY-MM-DD, the workspace's local day. */
  effectiveFrom: string;
}

/** How far back the cron task looks for versions that came due (missed runs of up to a week are caught up). */
export const DUE_LOOKBACK_DAYS = 7;

const ints = (values: readonly number[]) => `{${values.join(',')}}`;

/** Locks the variants' rows (in id order, so concurrent writers queue instead of deadlocking). */
export async function lockVariants(tx: EntityManager, organizationId: number, variantIds: readonly number[]): Promise<void> {
  if (variantIds.length === 0) return;
  const t = tenantSql(organizationId, 'v');
  await executeBound(tx, sql`select v.id from product_variant v where ${t.owns()} and v.id = any(${ints(variantIds)}::int[]) order by v.id for update`);
}

/**
 * Appends versions (one statement whatever their number), then brings the variants' own prices to
 * today's price in force. Call inside a transaction; the variants are locked first. Their ids in order.
 */
export async function writePrices(
  tx: EntityManager,
  writer: PriceWriter,
  prices: readonly NewPrice[],
  source: PriceSource,
  today: string,
  importId: number | null = null,
): Promise<number[]> {
  if (prices.length === 0) return [];
  const organizationId = writer.organizationId;
  const variantIds = [...new Set(prices.map((p) => p.variantId))];
  await lockVariants(tx, organizationId, variantIds);
  const inserted = await executeBound<{ id: number }>(
    tx,
    sql`insert into variant_price (organization_id, variant_id, sp, mrp, effective_from, source, import_id, created_by_user_id, created_by_api_key_id)
        select ${organizationId}, r.variant_id, r.sp, r.mrp, r.day, ${source}, ${importId}::int, ${writer.userId}::int, ${writer.apiKeyId}::int
          from unnest(${ints(prices.map((p) => p.variantId))}::int[], ${`{${prices.map((p) => p.sp).join(',')}}`}::numeric[],
                      ${`{${prices.map((p) => p.mrp).join(',')}}`}::numeric[], ${`{${prices.map((p) => p.effectiveFrom).join(',')}}`}::date[])
               with ordinality as r(variant_id, sp, mrp, day, n)
         order by r.n
        returning id`,
  );
  const dueNow = [...new Set(prices.filter((p) => p.effectiveFrom <= today).map((p) => p.variantId))];
  await syncVariants(tx, organizationId, dueNow, today);
  return inserted.map((r) => r.id);
}

/**
 * Sets the variants' sp and mrp to their price in force on `today` where they differ; the ids of
 * the variants changed. Idempotent.
 */
export async function syncVariants(em: EntityManager, organizationId: number, variantIds: readonly number[], today: string): Promise<number[]> {
  if (variantIds.length === 0) return [];
  const t = tenantSql(organizationId, 'p');
  const changed = await executeBound<{ id: number }>(
    em,
    // One index probe per variant (the in-force index walked backwards), whatever the table's statistics say.
    sql`update product_variant v set sp = f.sp, mrp = f.mrp, updated_at = now()
          from (select w.id, p.sp, p.mrp
                  from product_variant w
                  cross join lateral (
                    select p.sp, p.mrp from variant_price p
                     where p.organization_id = w.organization_id and p.variant_id = w.id and p.effective_from <= ${today}::date
                     order by p.effective_from desc, p.id desc limit 1) p
                 where ${t.owns('w')} and w.id = any(${ints(variantIds)}::int[])) f
         where v.organization_id = ${organizationId} and v.id = f.id and (v.sp, v.mrp) is distinct from (f.sp, f.mrp)
        returning v.id`,
  );
  return changed.map((r) => r.id);
}

/**
 * The variants with a version that came due after it was written (effective_from later than the
 * local day it was written on, and ≤ today), looking back DUE_LOOKBACK_DAYS.
 */
async function variantsDue(em: EntityManager, organizationId: number, today: string, timeZone: string): Promise<number[]> {
  const t = tenantSql(organizationId, 'p');
  const rows = await executeSql<{ variant_id: number }>(
    em,
    sql`select distinct p.variant_id from variant_price p
         where ${t.owns()} and p.effective_from <= ${today}::date and p.effective_from > ${shiftDay(today, -DUE_LOOKBACK_DAYS)}::date
           and p.effective_from > (p.created_at at time zone ${timeZone})::date`,
  );
  return rows.map((r) => r.variant_id);
}

/** Applies the due versions of one workspace on its local day `today`, under the variants' locks; the variants changed. */
export async function applyDuePrices(em: EntityManager, organizationId: number, today: string, timeZone: string): Promise<number[]> {
  return em.transactional(async (tx) => {
    const due = await variantsDue(tx, organizationId, today, timeZone);
    await lockVariants(tx, organizationId, due);
    return syncVariants(tx, organizationId, due, today);
  });
}

/**
 * The cron task's work: for every workspace with versions that came due in the last
 * DUE_LOOKBACK_DAYS of its local calendar, copies today's prices in force onto the variants.
 * Idempotent: a second run finds nothing to change. How many variants changed.
 */
export async function applyDuePricesEverywhere(em: EntityManager): Promise<number> {
  const workspaces = await em.execute<Array<{ organizationId: number; today: string; timeZone: string }>>(
    `select c.organization_id as "organizationId", to_char((now() at time zone c.time_zone)::date, 'YYYY-MM-DD') as today, c.time_zone as "timeZone"
       from workspace_config c
      where exists (select 1 from variant_price p where p.organization_id = c.organization_id
                       and p.effective_from <= (now() at time zone c.time_zone)::date
                       and p.effective_from > (now() at time zone c.time_zone)::date - ${DUE_LOOKBACK_DAYS}
                       and p.effective_from > (p.created_at at time zone c.time_zone)::date)
      order by c.organization_id`,
  );
  let changed = 0;
  for (const w of workspaces) changed += (await applyDuePrices(em, w.organizationId, w.today, w.timeZone)).length;
  return changed;
}

/** One variant's price in force on a day, as the rate list shows it. */
export interface RateListEntry {
  variantId: number;
  productId: number;
  productName: string;
  variantName: string;
  itemSkuCode: string;
  variantStatus: number;
  sp: number;
  mrp: number;
  effectiveFrom: string;
  priceId: number;
  source: PriceSource;
}

/** Filters of the rate list. */
export interface RateListConditions {
  date: string;
  /** Matches the SKU code, the variant name or the product name. */
  search?: string;
  /** The variant's status. */
  status?: number;
  productId?: number;
}

interface EntryRow {
  variant_id: number;
  product_id: number;
  product_name: string;
  variant_name: string;
  item_sku_code: string;
  variant_status: number;
  sp: string | number;
  mrp: string | number;
  effective_from: string;
  price_id: number;
  source: number;
}

/**
 * A page of the prices in force on `date`: one row per variant that had a version by then (a
 * variant created later has none), in the order `page.sort` gives (SQL columns of RATE_LIST_SORT).
 */
export async function findRateListPage(
  em: EntityManager,
  organizationId: number,
  c: RateListConditions,
  page: { page: number; limit: number; offset: number; sort: ResolvedSort<string> },
): Promise<Paginated<RateListEntry>> {
  const t = tenantSql(organizationId, 'v');
  const where: Sql[] = [sql`true`];
  if (c.status !== undefined) where.push(sql`v.status = ${c.status}`);
  if (c.productId !== undefined) where.push(sql`v.product_id = ${c.productId}`);
  for (const term of searchTermsOf(c.search)) {
    where.push(sql`(lower(v.item_sku_code) like lower(${term.pattern}) or lower(v.variant_name) like lower(${term.pattern}) or lower(pr.name) like lower(${term.pattern}))`);
  }
  const ordered = pickedOrder(page.sort);
  const [row] = await executeSql<{ count: number; entries: EntryRow[] | null }>(
    em,
    // Driven by the variants, one index probe each for its version in force (the in-force index
    // walked backwards): a `distinct on` over the history had to sort all of it, and with stale
    // statistics after a large import was planned as a rescan per variant.
    sql`with b as materialized (
          select v.id as variant_id, v.product_id, pr.name as product_name, v.variant_name, v.item_sku_code, v.status as variant_status,
                 f.sp, f.mrp, to_char(f.effective_from, 'YYYY-MM-DD') as effective_from, f.price_id, f.source
            from product_variant v ${t.join('product', 'pr', 'pr.id = v.product_id')}
            cross join lateral (
              select p.id as price_id, p.sp, p.mrp, p.effective_from, p.source from variant_price p
               where p.organization_id = v.organization_id and p.variant_id = v.id and p.effective_from <= ${c.date}::date
               order by p.effective_from desc, p.id desc limit 1) f
           where ${t.owns()} and ${joinSql(where, ' and ')}),
        picked as (select b.*, ${raw(ordered.keys)} from b order by ${raw(ordered.orderBy)} limit ${page.limit} offset ${page.offset})
        select (select count(*)::int from b) as count,
               (select json_agg(json_build_object('variant_id', picked.variant_id, 'product_id', picked.product_id, 'product_name', picked.product_name,
                  'variant_name', picked.variant_name, 'item_sku_code', picked.item_sku_code, 'variant_status', picked.variant_status,
                  'sp', picked.sp, 'mrp', picked.mrp, 'effective_from', picked.effective_from, 'price_id', picked.price_id, 'source', picked.source)
                  order by ${raw(ordered.pickedOrderBy)}) from picked) as entries`,
  );
  const items = (row.entries ?? []).map(
    (e): RateListEntry => ({
      variantId: e.variant_id,
      productId: e.product_id,
      productName: e.product_name,
      variantName: e.variant_name,
      itemSkuCode: e.item_sku_code,
      variantStatus: e.variant_status,
      sp: Number(e.sp),
      mrp: Number(e.mrp),
      effectiveFrom: e.effective_from,
      priceId: e.price_id,
      source: e.source as PriceSource,
    }),
  );
  return { items, total: row.count, page: page.page, limit: page.limit };
}

/** One variant's MRP in force on `day` (null when it had no version by then). */
export async function mrpInForce(em: EntityManager, organizationId: number, variantId: number, day: string): Promise<number | null> {
  const t = tenantSql(organizationId, 'p');
  const [row] = await executeSql<{ mrp: string }>(
    em,
    sql`select p.mrp from variant_price p where ${t.owns()} and p.variant_id = ${variantId} and p.effective_from <= ${day}::date
         order by p.effective_from desc, p.id desc limit 1`,
  );
  return row ? Number(row.mrp) : null;
}

/** A rate-list row to resolve: a SKU and the day its price starts. */
export interface PricedSku {
  sku: string;
  day: string;
}

/** What the history says of a SKU on a day: its variant, and its price in force then and since when. */
export interface ResolvedSku {
  variantId: number | null;
  /** The version in force on the day (null: the variant had none by then, or is unknown). */
  sp: number | null;
  mrp: number | null;
  /** The day the version in force began (YYYY-MM-DD; null with no version). */
  effectiveFrom: string | null;
}

/**
 * Resolves SKUs on days in one statement (two index probes per row): the workspace's variant of
 * each SKU, and its price in force on the day with the day that version began. In input order.
 */
export async function resolveSkusOnDays(em: EntityManager, organizationId: number, rows: readonly PricedSku[]): Promise<ResolvedSku[]> {
  if (rows.length === 0) return [];
  const t = tenantSql(organizationId, 'v');
  const found = await executeBound<{ n: number; variant_id: number | null; sp: string | null; mrp: string | null; effective_from: string | null }>(
    em,
    sql`select r.n, v.id as variant_id, f.sp, f.mrp, to_char(f.effective_from, 'YYYY-MM-DD') as effective_from
          from (select x.n, x.e->>0 as sku, (x.e->>1)::date as day
                  from jsonb_array_elements(${JSON.stringify(rows.map((r) => [r.sku, r.day]))}::jsonb) with ordinality as x(e, n)) r
          left join product_variant v on ${t.owns()} and v.item_sku_code = r.sku
          left join lateral (
            select p.sp, p.mrp, p.effective_from from variant_price p
             where p.organization_id = v.organization_id and p.variant_id = v.id and p.effective_from <= r.day
             order by p.effective_from desc, p.id desc limit 1) f on true
         order by r.n`,
  );
  return found.map((r) => ({
    variantId: r.variant_id,
    sp: r.sp === null ? null : Number(r.sp),
    mrp: r.mrp === null ? null : Number(r.mrp),
    effectiveFrom: r.effective_from,
  }));
}

/**
 * Records, as versions in force from `today`, the current prices of the variants of `skus` whose
 * prices differ from their price in force today (or that have none): what a write that sets
 * product_variant prices directly (the product-variants import) calls after it. One statement.
 */
export async function recordCurrentPrices(tx: EntityManager, writer: PriceWriter, skus: readonly string[], source: PriceSource, today: string, importId: number | null = null): Promise<number> {
  if (skus.length === 0) return 0;
  const t = tenantSql(writer.organizationId, 'v');
  const written = await executeBound<{ id: number }>(
    tx,
    sql`insert into variant_price (organization_id, variant_id, sp, mrp, effective_from, source, import_id, created_by_user_id, created_by_api_key_id)
        select v.organization_id, v.id, v.sp, v.mrp, ${today}::date, ${source}, ${importId}::int, ${writer.userId}::int, ${writer.apiKeyId}::int
          from product_variant v
          left join lateral (
            select p.sp, p.mrp from variant_price p
             where p.organization_id = v.organization_id and p.variant_id = v.id and p.effective_from <= ${today}::date
             order by p.effective_from desc, p.id desc limit 1) f on true
         where ${t.owns()} and v.item_sku_code in (select jsonb_array_elements_text(${JSON.stringify(skus)}::jsonb))
           and (f.sp is null or (f.sp, f.mrp) is distinct from (v.sp, v.mrp))
         order by v.id
        returning id`,
  );
  return written.length;
}

/**
 * The prices in force on `day` of the given variants (one index probe each), for readers that
 * price by day (subscriptions: "the price in force that day"). A variant with no version by then
 * is absent.
 */
export async function pricesInForce(em: EntityManager, organizationId: number, variantIds: readonly number[], day: string): Promise<Map<number, { sp: number; mrp: number; priceId: number }>> {
  if (variantIds.length === 0) return new Map();
  const t = tenantSql(organizationId, 'v');
  const rows = await executeBound<{ variant_id: number; sp: string; mrp: string; price_id: number }>(
    em,
    sql`select v.id as variant_id, f.sp, f.mrp, f.id as price_id
          from product_variant v
          cross join lateral (
            select p.id, p.sp, p.mrp from variant_price p
             where p.organization_id = v.organization_id and p.variant_id = v.id and p.effective_from <= ${day}::date
             order by p.effective_from desc, p.id desc limit 1) f
         where ${t.owns()} and v.id = any(${ints(variantIds)}::int[])`,
  );
  return new Map(rows.map((r) => [r.variant_id, { sp: Number(r.sp), mrp: Number(r.mrp), priceId: r.price_id }]));
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { findRows, type Row } from '../../db/entity-rows';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import { resolvePage, type PageRequest, type Paginated } from '../../lists/page-request';
import { resolveSort, sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { workspaceToday } from '../workspace/local-day';
import { ProductVariant } from './product-variant.entity';
import { PriceSource, VariantPrice } from './variant-price.entity';
import { findRateListPage, mrpInForce, writePrices, type PriceWriter, type RateListEntry } from './variant-prices';

/** A variant's price history: latest effective day first, a day's latest version first. */
export const VARIANT_PRICE_SORT = sortable<keyof VariantPrice & string>({
  name: 'VariantPrice',
  fields: { effective_from: 'effectiveFrom', created_at: 'createdAt', sp: 'sp', mrp: 'mrp', id: 'id' },
  default: '-effective_from,-id',
});
const VARIANT_PRICE_LIST = entityList({ entity: VariantPrice, sort: VARIANT_PRICE_SORT });

/** The rate list (prices in force on a day): by SKU code unless sorted. SQL columns of its statement. */
export const RATE_LIST_SORT = sortable({
  name: 'RateList',
  fields: {
    item_sku_code: 'b.item_sku_code',
    product_name: 'lower(b.product_name)',
    variant_name: 'lower(b.variant_name)',
    sp: 'b.sp',
    mrp: 'b.mrp',
    effective_from: 'b.effective_from',
    variant_id: 'b.variant_id',
    id: 'b.variant_id',
  },
  default: 'item_sku_code',
});

/** Filters of the rate list. */
export interface RateListFilter {
  /** YYYY-MM-DD; default today in the workspace's time zone. */
  date?: string;
  search?: string;
  status?: number;
  productId?: number;
}

/** A price change of one variant. */
export interface PriceChangeInput {
  sp: number;
  /** Default: the MRP in force on the effective day. */
  mrp?: number | null;
  /** YYYY-MM-DD, today or later in the workspace's time zone; default today. */
  effectiveFrom?: string | null;
}

/** A day given by a caller: a real date, 400 naming `field` otherwise. */
export function dayOf(field: string, value: string): string {
  return rules.calendarDate(field, value);
}

/**
 * A day a new version may start on: today or later. A past day's prices are what its orders were
 * placed at (order lines keep their prices), so the history of past days is never rewritten.
 */
export function checkNotPast(field: string, day: string, today: string): string {
  if (day < today) throw new ValidationError(field, `must be today (${today}) or later in the workspace's time zone: past prices are not rewritten`);
  return day;
}

/** Price history and the rate list of the caller's workspace (the prices of products.service's variants). */
export class PriceService {
  /** A variant's versions, latest effective first; 404 for another workspace's variant. */
  async history(ctx: RequestContext, variantId: number, pageRequest: PageRequest): Promise<Paginated<Row<VariantPrice>>> {
    ctx.requirePrincipal();
    await this.variant(ctx.em, variantId);
    return readPage(ctx.em, VARIANT_PRICE_LIST, { variant: variantId }, pageRequest);
  }

  /** The price in force of every variant on a day (default today), by SKU code unless sorted. */
  async rateList(ctx: RequestContext, filter: RateListFilter, pageRequest: PageRequest): Promise<Paginated<RateListEntry> & { date: string }> {
    ctx.requirePrincipal();
    const page = resolvePage(pageRequest);
    const sort = resolveSort(RATE_LIST_SORT, pageRequest.sort);
    const date = filter.date == null ? await workspaceToday(ctx.em, ctx.organizationId) : dayOf('date', filter.date);
    const found = await findRateListPage(ctx.em, ctx.organizationId, { date, search: filter.search, status: filter.status, productId: filter.productId }, { ...page, sort });
    return { ...found, date };
  }

  /**
   * Admin only. Appends a version of one variant's prices from a day (today or later). In force
   * today: the variant's own prices change in the same transaction; later: the cron task
   * apply_due_prices applies it when the day comes. Orders already placed keep their line prices.
   */
  async change(ctx: RequestContext, variantId: number, input: PriceChangeInput): Promise<Row<VariantPrice>> {
    ctx.requireAdminOrKey();
    // Another workspace's variant is "not found" whatever the body says.
    await this.variant(ctx.em, variantId);
    const sp = rules.money('sp', input.sp);
    const givenMrp = input.mrp == null ? null : rules.money('mrp', input.mrp);
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const effectiveFrom = input.effectiveFrom == null ? today : checkNotPast('effectiveFrom', dayOf('effectiveFrom', input.effectiveFrom), today);
    const id = await ctx.em.transactional(async (tx) => {
      const variant = await this.variant(tx, variantId);
      const mrp = givenMrp ?? (await mrpInForce(tx, ctx.organizationId, variantId, effectiveFrom)) ?? variant.mrp;
      if (sp > mrp) throw new ValidationError('sp', `must not exceed mrp (${mrp})`);
      const [written] = await writePrices(tx, ctx, [{ variantId, sp, mrp, effectiveFrom }], PriceSource.MANUAL, today);
      return written;
    });
    const [row] = await findRows(ctx.em, VariantPrice, { id });
    return row;
  }

  private async variant(em: EntityManager, id: number): Promise<ProductVariant> {
    const variant = await em.findOne(ProductVariant, { id });
    if (!variant) throw new NotFoundError('ProductVariant', id);
    return variant;
  }
}

/**
 * Records the versions of a product or variant edit (manual, in force today) in the edit's
 * transaction: call after the variants are flushed with their new prices.
 */
export async function recordManualPrices(tx: EntityManager, writer: PriceWriter, variants: ReadonlyArray<Pick<ProductVariant, 'id' | 'sp' | 'mrp'>>): Promise<void> {
  if (variants.length === 0) return;
  const today = await workspaceToday(tx, writer.organizationId);
  await writePrices(tx, writer, variants.map((v) => ({ variantId: v.id, sp: v.sp, mrp: v.mrp, effectiveFrom: today })), PriceSource.MANUAL, today);
}

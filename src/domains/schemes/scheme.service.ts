import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { rowOf, type Row } from '../../db/entity-rows';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { isCustomer, requireStaff } from '../auth/permissions';
import { priceLines, validateLines, type OrderLineInput } from '../orders/order-pricing';
import { ProductVariant } from '../products/product-variant.entity';
import { User, UserType } from '../users/user.entity';
import { workspaceToday } from '../workspace/local-day';
import { evaluateCart } from './scheme-apply';
import { checkScheme, type SchemeInput } from './scheme-rules';
import { Scheme, SCHEME_KINDS, SCHEME_STATUSES, SCHEME_TARGETS, SchemeBudgetKind, SchemeStatus, type SlabData } from './scheme.entity';

/** Filters of the scheme list. */
export interface SchemeFilter {
  status?: number | null;
  kind?: number | null;
  targetKind?: number | null;
  targetId?: number | null;
  /** Active (status 1) with this local day within its validity. */
  activeOn?: string | null;
  search?: string | null;
}

/** Derived state: disabled, scheduled (starts later), expired (ended), spent (budget used up), active. */
export type SchemeState = 'active' | 'scheduled' | 'expired' | 'disabled' | 'spent';

/** A scheme as REST and GraphQL show it: its row, what its budget has used, and its state today. */
export interface SchemeRead {
  scheme: Row<Scheme>;
  budgetUsed: number | null;
  budgetLeft: number | null;
  state: SchemeState;
}

export const SCHEME_SORT = sortable<keyof Scheme & string>({
  name: 'Scheme',
  fields: { name: 'name', code: 'code', priority: 'priority', valid_from: 'validFrom', valid_to: 'validTo', created_at: 'createdAt', id: 'id' },
  default: '-priority,code',
});
const SCHEME_LIST = entityList({ entity: Scheme, sort: SCHEME_SORT, searchIn: ['name', 'code'] });

/** A cart to preview. */
export interface PreviewInput {
  customerId?: number | null;
  items: OrderLineInput[];
  date?: string | null;
}

export interface PreviewSlab {
  minQty: number;
  discountPercent: number | null;
  discountAmount: number | null;
  freeQty: number | null;
  freeVariantId: number | null;
  recursive: boolean;
}

export interface Preview {
  customerId: number;
  date: string;
  lines: Array<{ productVariantId: number; quantity: number; unitPrice: number; grossAmount: number; discountAmount: number; amount: number; schemeIds: number[] }>;
  freeLines: Array<{ productVariantId: number; quantity: number; unitPrice: number; amount: number; schemeId: number }>;
  grossTotal: number;
  discountTotal: number;
  total: number;
  schemes: Array<{
    schemeId: number; code: string; name: string; applied: boolean; reason: string; explanation: string; quantity: number;
    slab: PreviewSlab | null; discountAmount: number; freeUnits: number;
    next: { addQuantity: number; minQty: number; message: string } | null;
  }>;
}

export const slabOut = (s: SlabData): PreviewSlab => ({
  minQty: s.min_qty, discountPercent: s.discount_percent, discountAmount: s.discount_amount, freeQty: s.free_qty, freeVariantId: s.free_variant_id, recursive: s.recursive,
});

/**
 * Trade schemes. Admins (and API keys) write them; staff read them; customers get 403 on them but
 * may preview their own cart. A scheme is never deleted (orders and the budget ledger refer to it):
 * it is disabled.
 */
export class SchemeService {
  async create(ctx: RequestContext, input: SchemeInput): Promise<SchemeRead> {
    ctx.requireAdminOrKey();
    const checked = await checkScheme(ctx.em, input);
    await this.assertCodeFree(ctx.em, checked.code, null);
    const scheme = ctx.em.create(Scheme, { organizationId: ctx.organizationId, ...checked });
    await this.flushUnique(ctx.em, checked.code);
    return (await this.reads(ctx, [rowOf(ctx.em, Scheme, scheme)]))[0];
  }

  /** Changes the fields given; the result is checked as a whole. */
  async update(ctx: RequestContext, id: number, patch: Partial<SchemeInput>): Promise<SchemeRead> {
    ctx.requireAdminOrKey();
    const scheme = await ctx.em.findOne(Scheme, { id });
    if (!scheme) throw new NotFoundError('Scheme', id);
    const current: SchemeInput = { ...scheme, slabs: scheme.slabs.map(slabOut) };
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const checked = await checkScheme(ctx.em, { ...current, ...defined });
    await this.assertCodeFree(ctx.em, checked.code, id);
    ctx.em.assign(scheme, checked);
    await this.flushUnique(ctx.em, checked.code);
    return (await this.reads(ctx, [rowOf(ctx.em, Scheme, scheme)]))[0];
  }

  async get(ctx: RequestContext, id: number): Promise<SchemeRead> {
    requireStaff(ctx);
    const scheme = await ctx.em.findOne(Scheme, { id });
    if (!scheme) throw new NotFoundError('Scheme', id);
    return (await this.reads(ctx, [rowOf(ctx.em, Scheme, scheme)]))[0];
  }

  async list(ctx: RequestContext, filter: SchemeFilter, pageRequest: PageRequest): Promise<Paginated<SchemeRead>> {
    requireStaff(ctx);
    const where: Array<FilterQuery<Scheme>> = [];
    if (filter.status != null) where.push({ status: rules.oneOf('status', filter.status, SCHEME_STATUSES) });
    if (filter.kind != null) where.push({ kind: rules.oneOf('kind', filter.kind, SCHEME_KINDS) });
    if (filter.targetKind != null) where.push({ targetKind: rules.oneOf('targetKind', filter.targetKind, SCHEME_TARGETS) });
    if (filter.targetId != null) {
      if (filter.targetKind == null) throw new ValidationError('targetId', 'needs targetKind');
      where.push({ targetId: filter.targetId });
    }
    if (filter.activeOn != null) {
      const day = rules.calendarDate('activeOn', filter.activeOn);
      where.push({ status: SchemeStatus.ACTIVE, validFrom: { $lte: day } }, { $or: [{ validTo: null }, { validTo: { $gte: day } }] });
    }
    const page = await readPage(ctx.em, SCHEME_LIST, { $and: where }, { ...pageRequest, search: filter.search ?? undefined });
    return { ...page, items: await this.reads(ctx, page.items) };
  }

  /**
   * What the schemes would do to a cart: the very evaluation an order of it runs (evaluateCart), without
   * writing anything. Staff and keys name any customer; a customer previews their own cart only.
   */
  async preview(ctx: RequestContext, input: PreviewInput): Promise<Preview> {
    let customerId = input.customerId ?? null;
    if (isCustomer(ctx)) {
      if (customerId !== null && customerId !== ctx.userId) throw new ValidationError('customerId', 'must be your own user id: customers preview their own cart');
      customerId = ctx.userId!;
    }
    if (customerId === null) throw new ValidationError('customerId', 'is required');
    validateLines(input.items);
    const day = input.date == null ? await workspaceToday(ctx.em, ctx.organizationId) : rules.calendarDate('date', input.date);
    const customer = await ctx.em.findOne(User, { id: customerId, userType: { $in: [UserType.DISTRIBUTOR, UserType.RETAILER] }, status: ActiveStatus.ACTIVE });
    if (!customer) throw new ValidationError('customerId', 'must be an active distributor or retailer of this workspace');
    const variants = await ctx.em.find(ProductVariant, { id: { $in: input.items.map((l) => l.productVariantId) } }, { populate: ['product'] });
    const priced = priceLines(input.items, new Map(variants.map((v) => [v.id, v])));
    const { evaluation: e } = await evaluateCart(ctx.em, ctx.organizationId, { customer, day, lines: priced.lines }, { everyState: true, lock: false });
    const unitOf = new Map(priced.lines.map((l) => [l.variant.id, l.unitPrice]));
    return {
      customerId,
      date: day,
      lines: e.lines.map((l) => ({
        productVariantId: l.variantId, quantity: l.quantity, unitPrice: unitOf.get(l.variantId)!, grossAmount: l.grossPaise / 100,
        discountAmount: l.discountPaise / 100, amount: l.amountPaise / 100, schemeIds: l.schemeIds,
      })),
      freeLines: e.free.map((f) => ({ productVariantId: f.variantId, quantity: f.quantity, unitPrice: 0, amount: 0, schemeId: f.schemeId })),
      grossTotal: e.grossPaise / 100,
      discountTotal: e.discountPaise / 100,
      total: e.totalPaise / 100,
      schemes: e.schemes.map((s) => ({
        schemeId: s.schemeId, code: s.code, name: s.name, applied: s.applied, reason: s.reason, explanation: s.explanation, quantity: s.quantity,
        slab: s.slab ? slabOut(s.slab) : null, discountAmount: s.discountPaise / 100, freeUnits: s.freeUnits, next: s.next,
      })),
    };
  }

  private async assertCodeFree(em: EntityManager, code: string, id: number | null): Promise<void> {
    const other = await em.findOne(Scheme, { code });
    if (other && other.id !== id) throw new ConflictError(`Scheme code ${code} is taken by scheme ${other.id}`);
  }

  private async flushUnique(em: EntityManager, code: string): Promise<void> {
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw new ConflictError(`Scheme code ${code} is taken`);
      throw err;
    }
  }

  /** Reads of scheme rows: their budgets' use (one statement) and their state on the workspace's today. */
  private async reads(ctx: RequestContext, rows: ReadonlyArray<Row<Scheme>>): Promise<SchemeRead[]> {
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const budgeted = rows.filter((r) => r.budgetKind !== null).map((r) => r.id);
    const used = new Map<number, { amount: number; units: number }>();
    if (budgeted.length > 0) {
      const t = tenantSql(ctx.organizationId, 'u');
      const found = await executeSql<{ scheme_id: number; amount: string; units: string }>(
        ctx.em,
        sql`select u.scheme_id, sum(u.amount) as amount, sum(u.units) as units from scheme_use u
             where ${t.owns()} and u.scheme_id = any(${`{${budgeted.join(',')}}`}::int[]) group by u.scheme_id`,
      );
      for (const r of found) used.set(r.scheme_id, { amount: Number(r.amount), units: Number(r.units) });
    }
    return rows.map((scheme) => {
      const u = used.get(scheme.id) ?? { amount: 0, units: 0 };
      const budgetUsed = scheme.budgetKind === null ? null : scheme.budgetKind === SchemeBudgetKind.UNITS ? u.units : u.amount;
      const budgetLeft = scheme.budget === null || budgetUsed === null ? null : Math.round((scheme.budget - budgetUsed) * 100) / 100;
      const state: SchemeState =
        scheme.status !== SchemeStatus.ACTIVE ? 'disabled'
        : today < scheme.validFrom ? 'scheduled'
        : scheme.validTo !== null && today > scheme.validTo ? 'expired'
        : budgetLeft !== null && budgetLeft <= 0 ? 'spent'
        : 'active';
      return { scheme, budgetUsed, budgetLeft, state };
    });
  }
}

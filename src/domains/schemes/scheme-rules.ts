import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { ProductClass } from '../masters/product-class.entity';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { User, UserType } from '../users/user.entity';
import {
  SCHEME_BUDGET_KINDS, SCHEME_KINDS, SCHEME_SCOPES, SCHEME_STATUSES, SCHEME_TARGETS,
  SchemeBudgetKind, SchemeKind, SchemeScope, SchemeStatus, SchemeTarget, type SlabData,
} from './scheme.entity';

/** A slab as the API takes it. */
export interface SlabInput {
  minQty: number;
  discountPercent?: number | null;
  discountAmount?: number | null;
  freeQty?: number | null;
  freeVariantId?: number | null;
  recursive?: boolean | null;
}

/** A scheme as the API takes it (every field on create; any on update). */
export interface SchemeInput {
  name: string;
  code: string;
  kind: number;
  targetKind: number;
  targetId: number;
  scope?: number | null;
  scopeIds?: number[] | null;
  validFrom: string;
  validTo?: string | null;
  priority?: number | null;
  stackable?: boolean | null;
  budgetKind?: number | null;
  budget?: number | null;
  status?: number | null;
  slabs: SlabInput[];
}

export const MAX_SLABS = 20;
export const MAX_SCOPE_IDS = 500;
export const MAX_PRIORITY = 1000;
const MAX_QTY = 1_000_000;

/** A checked scheme, ready to write. */
export interface CheckedScheme {
  name: string;
  code: string;
  kind: SchemeKind;
  targetKind: SchemeTarget;
  targetId: number;
  scope: SchemeScope;
  scopeIds: number[];
  validFrom: string;
  validTo: string | null;
  priority: number;
  stackable: boolean;
  budgetKind: SchemeBudgetKind | null;
  budget: number | null;
  status: SchemeStatus;
  slabs: SlabData[];
}

const wholeIn = (field: string, v: unknown, min: number, max: number): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new ValidationError(field, `must be an integer from ${min} to ${max}`);
  return v;
};

/** Checks every field of a scheme against the workspace's records; 400 naming the first bad field. */
export async function checkScheme(em: EntityManager, input: SchemeInput): Promise<CheckedScheme> {
  const name = rules.requiredText('name', input.name, 120);
  const code = rules.requiredText('code', input.code, 40);
  if (!/^[A-Za-z0-9_-]+$/.test(code)) throw new ValidationError('code', 'may hold only letters, digits, - and _');
  const kind = rules.oneOf('kind', input.kind, SCHEME_KINDS) as SchemeKind;
  const targetKind = rules.oneOf('targetKind', input.targetKind, SCHEME_TARGETS) as SchemeTarget;
  const targetId = wholeIn('targetId', input.targetId, 1, 2_147_483_647);
  const target = targetKind === SchemeTarget.VARIANT ? ProductVariant : targetKind === SchemeTarget.PRODUCT ? Product : ProductClass;
  if (!(await em.findOne(target as typeof Product, { id: targetId }))) throw new ValidationError('targetId', 'does not name a record of this workspace of the kind targetKind says');
  const scope = rules.oneOf('scope', input.scope ?? SchemeScope.ALL, SCHEME_SCOPES) as SchemeScope;
  const scopeIds = await checkScopeIds(em, scope, input.scopeIds ?? []);
  if (typeof input.validFrom !== 'string') throw new ValidationError('validFrom', 'is required: a date in the form YYYY-MM-DD');
  if (input.validTo != null && typeof input.validTo !== 'string') throw new ValidationError('validTo', 'must be a date in the form YYYY-MM-DD');
  const validFrom = rules.calendarDate('validFrom', input.validFrom);
  const validTo = input.validTo == null ? null : rules.calendarDate('validTo', input.validTo);
  if (validTo !== null && validTo < validFrom) throw new ValidationError('validTo', 'must not be before validFrom');
  const priority = wholeIn('priority', input.priority ?? 0, 0, MAX_PRIORITY);
  const stackable = input.stackable ?? false;
  if (typeof stackable !== 'boolean') throw new ValidationError('stackable', 'must be true or false');
  const status = rules.oneOf('status', input.status ?? SchemeStatus.ACTIVE, SCHEME_STATUSES) as SchemeStatus;
  let budgetKind: SchemeBudgetKind | null = null;
  let budget: number | null = null;
  if (input.budgetKind != null || input.budget != null) {
    if (input.budgetKind == null) throw new ValidationError('budgetKind', 'is required with budget');
    if (input.budget == null) throw new ValidationError('budget', 'is required with budgetKind');
    budgetKind = rules.oneOf('budgetKind', input.budgetKind, SCHEME_BUDGET_KINDS) as SchemeBudgetKind;
    if (budgetKind === SchemeBudgetKind.UNITS) {
      if (kind !== SchemeKind.FREE_GOODS) throw new ValidationError('budgetKind', 'a budget of free units (2) needs a free goods scheme; give a discount an amount budget (1)');
      budget = wholeIn('budget', input.budget, 1, MAX_QTY * 1000);
    } else {
      budget = rules.money('budget', input.budget);
      if (budget <= 0) throw new ValidationError('budget', 'must be > 0');
    }
  }
  const slabs = await checkSlabs(em, kind, targetKind === SchemeTarget.VARIANT ? targetId : null, input.slabs);
  return { name, code, kind, targetKind, targetId, scope, scopeIds, validFrom, validTo, priority, stackable, budgetKind, budget, status, slabs };
}

async function checkScopeIds(em: EntityManager, scope: SchemeScope, given: number[]): Promise<number[]> {
  if (!Array.isArray(given)) throw new ValidationError('scopeIds', 'must be a list of ids');
  if (given.length > MAX_SCOPE_IDS) throw new ValidationError('scopeIds', `must have at most ${MAX_SCOPE_IDS} ids`);
  given.forEach((id, i) => wholeIn(`scopeIds[${i}]`, id, 0, 2_147_483_647));
  const ids = [...new Set(given)].sort((a, b) => a - b);
  if (scope === SchemeScope.ALL) {
    if (ids.length > 0) throw new ValidationError('scopeIds', 'must be empty when scope is 1 (all customers)');
    return [];
  }
  if (ids.length === 0) throw new ValidationError('scopeIds', 'must name at least one id for this scope');
  let found: number;
  if (scope === SchemeScope.USER_TYPE) {
    const bad = ids.find((t) => t !== UserType.DISTRIBUTOR && t !== UserType.RETAILER);
    if (bad !== undefined) throw new ValidationError('scopeIds', `user types must be ${UserType.DISTRIBUTOR} (distributor) or ${UserType.RETAILER} (retailer)`);
    return ids;
  }
  if (scope === SchemeScope.TOWN) found = await em.count(Town, { id: { $in: ids } });
  else if (scope === SchemeScope.ROUTE) found = await em.count(Route, { id: { $in: ids } });
  else found = await em.count(User, { id: { $in: ids }, userType: { $in: [UserType.DISTRIBUTOR, UserType.RETAILER] } });
  if (found !== ids.length) throw new ValidationError('scopeIds', `must name ${scope === SchemeScope.TOWN ? 'towns' : scope === SchemeScope.ROUTE ? 'routes' : 'distributors or retailers'} of this workspace`);
  return ids;
}

async function checkSlabs(em: EntityManager, kind: SchemeKind, targetVariant: number | null, slabs: SlabInput[]): Promise<SlabData[]> {
  if (!Array.isArray(slabs) || slabs.length === 0) throw new ValidationError('slabs', 'must have at least 1 slab');
  if (slabs.length > MAX_SLABS) throw new ValidationError('slabs', `must have at most ${MAX_SLABS} slabs`);
  const out: SlabData[] = [];
  for (const [i, s] of slabs.entries()) {
    const f = (name: string) => `slabs[${i}].${name}`;
    if (s === null || typeof s !== 'object') throw new ValidationError(`slabs[${i}]`, 'must be a slab object');
    const minQty = wholeIn(f('minQty'), s.minQty, 1, MAX_QTY);
    if (i > 0 && minQty <= out[i - 1].min_qty) throw new ValidationError(f('minQty'), 'must be greater than the previous slab’s: slabs ascend');
    const recursive = s.recursive ?? false;
    if (kind === SchemeKind.DISCOUNT) {
      if (s.freeQty != null) throw new ValidationError(f('freeQty'), 'is for free goods schemes (kind 2)');
      if (s.freeVariantId != null) throw new ValidationError(f('freeVariantId'), 'is for free goods schemes (kind 2)');
      if (recursive) throw new ValidationError(f('recursive'), 'is for free goods schemes (kind 2)');
      if ((s.discountPercent == null) === (s.discountAmount == null)) throw new ValidationError(f('discountPercent'), 'give exactly one of discountPercent and discountAmount');
      let pct: number | null = null;
      let amt: number | null = null;
      if (s.discountPercent != null) {
        pct = rules.money(f('discountPercent'), s.discountPercent);
        if (pct <= 0 || pct > 100) throw new ValidationError(f('discountPercent'), 'must be > 0 and at most 100');
      } else {
        amt = rules.money(f('discountAmount'), s.discountAmount!);
        if (amt <= 0) throw new ValidationError(f('discountAmount'), 'must be > 0');
      }
      out.push({ min_qty: minQty, discount_percent: pct, discount_amount: amt, free_qty: null, free_variant_id: null, recursive: false });
    } else {
      if (s.discountPercent != null) throw new ValidationError(f('discountPercent'), 'is for discount schemes (kind 1)');
      if (s.discountAmount != null) throw new ValidationError(f('discountAmount'), 'is for discount schemes (kind 1)');
      const freeQty = wholeIn(f('freeQty'), s.freeQty, 1, MAX_QTY);
      const freeVariantId = s.freeVariantId ?? targetVariant;
      if (freeVariantId == null) throw new ValidationError(f('freeVariantId'), 'is required unless the scheme targets a variant (then it defaults to it)');
      wholeIn(f('freeVariantId'), freeVariantId, 1, 2_147_483_647);
      const v = await em.findOne(ProductVariant, { id: freeVariantId, status: ActiveStatus.ACTIVE });
      if (!v) throw new ValidationError(f('freeVariantId'), 'does not name an active product variant of this workspace');
      if (typeof recursive !== 'boolean') throw new ValidationError(f('recursive'), 'must be true or false');
      out.push({ min_qty: minQty, discount_percent: null, discount_amount: null, free_qty: freeQty, free_variant_id: freeVariantId, recursive });
    }
  }
  return out;
}

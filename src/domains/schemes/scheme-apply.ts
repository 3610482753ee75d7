import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, raw, sql, tenantSql } from '../../db/tenant-sql';
import type { PricedLine } from '../orders/order-pricing';
import { ProductVariant } from '../products/product-variant.entity';
import type { User } from '../users/user.entity';
import { evaluate, inScope, type Buyer, type CartLine, type Evaluation, type FreeVariant, type SchemeRule } from './scheme-engine';
import { SchemeBudgetKind, SchemeKind, SchemeScope, SchemeStatus, SchemeTarget, type SlabData } from './scheme.entity';

/*
 * Where schemes meet orders. `evaluateCart` loads the schemes a cart may meet and runs the one
 * evaluation (scheme-engine.ts); POST /schemes/preview calls it as it is, and order creation and
 * line replacement call `applySchemes` (the same, in their transaction, with the budgeted schemes
 * locked first) and then `postSchemeUse`. A cancel and a line replacement post reversal rows
 * (`reverseSchemeUse`), giving the budget back.
 */

const intArray = (ids: Iterable<number>) => `{${[...new Set(ids)].join(',')}}`;

/** The order line the order domain writes: paid lines discounted, free lines at 0 with their scheme. */
export interface SchemedLine {
  variant: ProductVariant;
  quantity: number;
  unitPrice: number;
  amount: number;
  discountAmount: number;
  schemeId: number | null;
}

export interface SchemedCart {
  evaluation: Evaluation;
  lines: SchemedLine[];
  /** The discounted total. */
  total: number;
}

/** A scheme as evaluateCart reads it. */
interface SchemeRow {
  id: number;
  code: string;
  name: string;
  kind: SchemeKind;
  target_kind: SchemeTarget;
  target_id: number;
  scope: SchemeScope;
  scope_ids: number[];
  valid_from: string;
  valid_to: string | null;
  priority: number;
  stackable: boolean;
  status: SchemeStatus;
  budget_kind: SchemeBudgetKind | null;
  budget: string | number | null;
  slabs: SlabData[];
}

/** What evaluateCart needs of the cart. */
export interface CartInput {
  customer: User;
  day: string;
  lines: PricedLine[];
}

export function buyerOf(customer: User): Buyer {
  return { id: customer.id, userType: customer.userType, townId: customer.town?.id ?? null, routeId: customer.route?.id ?? null };
}

function cartLinesOf(lines: PricedLine[]): CartLine[] {
  return lines.map((l) => ({
    variantId: l.variant.id,
    productId: l.variant.product.id,
    productClassId: l.variant.product.productClass.id,
    quantity: l.quantity,
    unitPaise: Math.round(l.unitPrice * 100),
  }));
}

/**
 * Loads the schemes that may meet the cart and evaluates them. `everyState`: also the disabled,
 * expired and not yet started ones (the preview explains them); an order needs only those active
 * on its day (the others cannot apply). `lock`: lock the budgeted ones (in id order) before their
 * use is read, so two orders cannot both spend the last of a budget.
 */
export async function evaluateCart(em: EntityManager, organizationId: number, input: CartInput, options: { everyState: boolean; lock: boolean }): Promise<SchemedCart> {
  const cart = cartLinesOf(input.lines);
  const t = tenantSql(organizationId, 's');
  const ids = (pick: (l: CartLine) => number) => intArray(cart.map(pick));
  const targets = sql`((s.target_kind = ${SchemeTarget.VARIANT} and s.target_id = any(${ids((l) => l.variantId)}::int[]))
      or (s.target_kind = ${SchemeTarget.PRODUCT} and s.target_id = any(${ids((l) => l.productId)}::int[]))
      or (s.target_kind = ${SchemeTarget.PRODUCT_CLASS} and s.target_id = any(${ids((l) => l.productClassId)}::int[])))`;
  const activeOnDay = options.everyState
    ? raw('')
    : sql` and s.status = ${SchemeStatus.ACTIVE} and s.valid_from <= ${input.day}::date and (s.valid_to is null or s.valid_to >= ${input.day}::date)`;
  // One statement reads the schemes as plain rows (not entities the order's flushes would diff) and,
  // for an order, locks the budgeted ones in id order before their use is read (the next statement,
  // so that it sees every use committed before the lock was granted).
  const found = sql`select s.id, s.code, s.name, s.kind, s.target_kind, s.target_id, s.scope, s.scope_ids, to_char(s.valid_from, 'YYYY-MM-DD') as valid_from,
                           to_char(s.valid_to, 'YYYY-MM-DD') as valid_to, s.priority, s.stackable, s.status, s.budget_kind, s.budget, s.slabs
                      from scheme s where ${t.owns()} and ${targets}${activeOnDay}`;
  const schemes = await executeSql<SchemeRow>(
    em,
    options.lock
      ? sql`with found as (${found}),
                 locked as (select s.id from scheme s where ${t.owns()} and s.id in (select f.id from found f where f.budget_kind is not null) order by s.id for no key update)
            select f.*, (select count(*) from locked) as locked from found f order by f.id`
      : sql`${found} order by s.id`,
  );
  const budgeted = schemes.filter((s) => s.budget_kind !== null).map((s) => s.id);
  const used = new Map<number, { amount: number; units: number }>();
  if (budgeted.length > 0) {
    const rows = await executeSql<{ scheme_id: number; amount: string; units: string }>(
      em,
      sql`select u.scheme_id, sum(u.amount) as amount, sum(u.units) as units from scheme_use u
           where ${t.owns('u')} and u.scheme_id = any(${intArray(budgeted)}::int[]) group by u.scheme_id`,
    );
    for (const r of rows) used.set(r.scheme_id, { amount: Math.round(Number(r.amount) * 100), units: Number(r.units) });
  }
  const rules: SchemeRule[] = schemes.map((s) => {
    const u = used.get(s.id) ?? { amount: 0, units: 0 };
    const units = s.budget_kind === SchemeBudgetKind.UNITS;
    const budget = s.budget === null ? null : Number(s.budget);
    return {
      id: s.id, code: s.code, name: s.name, kind: s.kind, targetKind: s.target_kind, targetId: s.target_id, scope: s.scope, scopeIds: s.scope_ids,
      validFrom: s.valid_from, validTo: s.valid_to, priority: s.priority, stackable: s.stackable, status: s.status, budgetKind: s.budget_kind,
      budget: budget === null ? null : units ? Math.round(budget) : Math.round(budget * 100),
      used: units ? u.units : u.amount,
      slabs: s.slabs,
    };
  });
  const freeIds = rules.filter((r) => r.kind === SchemeKind.FREE_GOODS).flatMap((r) => r.slabs.map((s) => s.free_variant_id!));
  const variants = new Map<number, ProductVariant>(input.lines.map((l) => [l.variant.id, l.variant]));
  const missing = freeIds.filter((id) => !variants.has(id));
  if (missing.length > 0) {
    for (const v of await em.find(ProductVariant, { id: { $in: [...new Set(missing)] } }, { populate: ['product'] })) variants.set(v.id, v);
  }
  const freeVariants = new Map<number, FreeVariant>();
  for (const id of freeIds) {
    const v = variants.get(id);
    freeVariants.set(id, { active: !!v && v.status === ActiveStatus.ACTIVE && v.product.status === ActiveStatus.ACTIVE, unitPaise: v ? Math.round(v.sp * 100) : 0 });
  }
  const evaluation = evaluate({ buyer: buyerOf(input.customer), day: input.day, lines: cart, rules, freeVariants });
  const lines: SchemedLine[] = evaluation.lines.map((l, i) => ({
    variant: input.lines[i].variant,
    quantity: l.quantity,
    unitPrice: input.lines[i].unitPrice,
    amount: l.amountPaise / 100,
    discountAmount: l.discountPaise / 100,
    schemeId: null,
  }));
  for (const f of evaluation.free) {
    lines.push({ variant: variants.get(f.variantId)!, quantity: f.quantity, unitPrice: 0, amount: 0, discountAmount: 0, schemeId: f.schemeId });
  }
  return { evaluation, lines, total: evaluation.totalPaise / 100 };
}

/**
 * The cart of an order no scheme may touch — a free-of-cost order (a fulfilled FOC request) is given,
 * not sold: its lines as priced (at 0), no discount, no free line, no budget used.
 */
export function withoutSchemes(lines: PricedLine[]): SchemedCart {
  const totalPaise = lines.reduce((sum, l) => sum + Math.round(l.amount * 100), 0);
  return {
    evaluation: { lines: [], free: [], grossPaise: totalPaise, discountPaise: 0, totalPaise, schemes: [] },
    lines: lines.map((l) => ({ variant: l.variant, quantity: l.quantity, unitPrice: l.unitPrice, amount: l.amount, discountAmount: 0, schemeId: null })),
    total: totalPaise / 100,
  };
}

/** evaluateCart for an order being written: active schemes only, budgets locked. Call it in the order's transaction. */
export function applySchemes(tx: EntityManager, organizationId: number, input: CartInput): Promise<SchemedCart> {
  return evaluateCart(tx, organizationId, input, { everyState: false, lock: true });
}

/** Records what each applied scheme gave to order `orderId` in the consumption ledger (in the order's transaction): one statement, none when none applied. */
export async function postSchemeUse(tx: EntityManager, organizationId: number, orderId: number, cart: SchemedCart): Promise<void> {
  const applied = cart.evaluation.schemes.filter((s) => s.applied);
  if (applied.length === 0) return;
  // Array literals, in the outcomes' order (knex would spread a bound array into a list).
  const list = (values: Array<number | string>) => `{${values.join(',')}}`;
  await executeSql(
    tx,
    sql`insert into scheme_use (organization_id, scheme_id, order_id, amount, units)
        select ${organizationId}, x.scheme_id, ${orderId}, x.amount, x.units
          from unnest(${list(applied.map((s) => s.schemeId))}::int[], ${list(applied.map((s) => (s.amountPaise / 100).toFixed(2)))}::numeric[],
                      ${list(applied.map((s) => s.freeUnits))}::int[]) with ordinality as x(scheme_id, amount, units, n)
         order by x.n`,
  );
}

/**
 * Gives back what order `orderId` took from schemes: one reversal row per scheme whose net use by
 * the order is not zero (so reversing twice gives nothing back twice). Call it with the order locked.
 */
export async function reverseSchemeUse(tx: EntityManager, organizationId: number, orderId: number): Promise<void> {
  const t = tenantSql(organizationId, 'u');
  await executeSql(
    tx,
    sql`insert into scheme_use (organization_id, scheme_id, order_id, amount, units, reversal)
        select u.organization_id, u.scheme_id, u.order_id, -sum(u.amount), -sum(u.units), true
          from scheme_use u where ${t.owns()} and u.order_id = ${orderId}
         group by u.organization_id, u.scheme_id, u.order_id
        having sum(u.amount) <> 0 or sum(u.units) <> 0`,
  );
}

/** A scheme open to a customer on a day (schemesOpenTo). */
export interface OpenScheme {
  id: number;
  code: string;
  name: string;
  kind: SchemeKind;
  targetKind: SchemeTarget;
  targetId: number;
  validFrom: string;
  validTo: string | null;
  priority: number;
  stackable: boolean;
  slabs: SlabData[];
}

/**
 * The schemes active on `day` whose scope reaches `customer` (the engine's own `inScope`, as an order
 * of theirs would evaluate it): the customer portal's catalogue and dashboard. One statement.
 */
export async function schemesOpenTo(em: EntityManager, organizationId: number, customer: User, day: string): Promise<OpenScheme[]> {
  const t = tenantSql(organizationId, 's');
  const rows = await executeSql<SchemeRow>(
    em,
    sql`select s.id, s.code, s.name, s.kind, s.target_kind, s.target_id, s.scope, s.scope_ids, to_char(s.valid_from, 'YYYY-MM-DD') as valid_from,
               to_char(s.valid_to, 'YYYY-MM-DD') as valid_to, s.priority, s.stackable, s.slabs
          from scheme s
         where ${t.owns()} and s.status = ${SchemeStatus.ACTIVE} and s.valid_from <= ${day}::date and (s.valid_to is null or s.valid_to >= ${day}::date)
         order by s.priority desc, s.code`,
  );
  const buyer = buyerOf(customer);
  return rows
    .filter((s) => inScope({ scope: s.scope, scopeIds: s.scope_ids }, buyer))
    .map((s) => ({
      id: s.id, code: s.code, name: s.name, kind: s.kind, targetKind: s.target_kind, targetId: s.target_id, validFrom: s.valid_from,
      validTo: s.valid_to, priority: s.priority, stackable: s.stackable, slabs: s.slabs,
    }));
}

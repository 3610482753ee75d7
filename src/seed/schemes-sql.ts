import type { ClientBase } from 'pg';
import { SchemeBudgetKind, SchemeKind, SchemeScope, SchemeStatus, SchemeTarget, type SlabData } from '../domains/schemes/scheme.entity';
import type { CheckedScheme } from '../domains/schemes/scheme-rules';
import { UserType } from '../domains/users/user.entity';
import type { RowCounts, WorkspaceIds } from './masters-sql';
import { KeyedRandom } from './random';
import { addDays, localInstant } from './workspace-plan';

/*
 * The schemes of one seeded workspace, and what the orders statement (orders-sql.ts) needs to give
 * the seeded orders exactly what the engine (src/domains/schemes/scheme-engine.ts) would have given
 * them when they were placed, in creation order:
 *
 *  code   what                                                   window (as-of A)      applies
 *  CLS-…  class discount 2.5 / 5 / 7.5% by quantity of the class A-240 … A-121         all customers, priority 10, amount budget (runs out)
 *  B…G1   buy m get 1 free of one variant, recursive            A-120 … A+30 (active)  retailers, priority 5, free-unit budget
 *  TWN-…  ₹ off each unit of a product (2 slabs), stackable     A-90 … open (active)   some towns, priority 1, no budget
 *  RTE-…  free goods of another variant of a class (2 slabs)    A-500 … A-381         some routes, no budget
 *  FST-…  a disabled festive discount                           A-30 … A+30           never (disabled)
 *  NXT-…  next month's discount                                 A+7 … A+36            not started
 *
 * The targets are chosen so the only overlap is the one the stacking rule decides: the variant of
 * the free-goods scheme belongs to the product of the town discount. Where the free goods apply
 * (non-stackable, higher priority) they close that variant's line and the town discount takes the
 * product's other lines only; where they do not (a distributor, below the slab, budget spent) the
 * town discount takes every line of the product. The class discount's class and the route scheme's
 * class are different from the product's and from each other, so they meet no other scheme.
 * Budgets are consumed in creation order: an order takes min(what it wants, what is left), so what
 * is used after an order is min(the running sum of what orders wanted, the budget) — a window sum.
 */

export interface SeedSchemeParams {
  s1: { id: number; classId: number; from: string; to: string; q: number[]; bp: number[]; budgetPaise: number };
  s2: { id: number; variantId: number; from: string; to: string; min: number; free: number; budgetUnits: number; spPaise: number };
  s3: { id: number; productId: number; from: string; towns: number[]; q: number[]; amtPaise: number[] };
  s6: { id: number; variantId: number; from: string; to: string; routes: number[]; q: number[]; free: number[]; freeVariantId: number; freeSpPaise: number };
}

/** A scheme as the service would write it (checkScheme's shape), with the day it was created. */
type PlannedScheme = CheckedScheme & { createdAt: Date };

const slab = (minQty: number, reward: Partial<SlabData>): SlabData => ({
  min_qty: minQty,
  discount_percent: null,
  discount_amount: null,
  free_qty: null,
  free_variant_id: null,
  recursive: false,
  ...reward,
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The workspace's schemes (see the table above) and the orders statement's parameters, ids to be filled in. */
export function planSchemes(key: string, asOf: string, ids: WorkspaceIds, ordersPerOrg: number): { schemes: PlannedScheme[]; params: SeedSchemeParams } {
  const r = new KeyedRandom(`${key}:schemes`);
  const variants = ids.variants;
  const byProduct = new Map<number, typeof variants>();
  for (const v of variants) byProduct.set(v.productId, [...(byProduct.get(v.productId) ?? []), v]);
  const products = [...byProduct.keys()].sort((a, b) => a - b);
  const multi = products.filter((p) => byProduct.get(p)!.length >= 2);
  const productId = r.pick('product', multi.length > 0 ? multi : products);
  const productVariants = byProduct.get(productId)!;
  const c2 = productVariants[0].classId;
  const classes = [...new Set(variants.map((v) => v.classId))].sort((a, b) => a - b);
  const others = classes.filter((c) => c !== c2);
  if (others.length < 2) throw new Error('a seeded workspace needs at least 3 product classes');
  const c1 = r.pick('class', others);
  const c3 = r.pick('route-class', others.filter((c) => c !== c1));
  const freeVariant = r.pick('free-variant', productVariants);
  const c1Sp = median(variants.filter((v) => v.classId === c1).map((v) => v.spPaise));
  const pSp = Math.min(...productVariants.map((v) => v.spPaise));
  const c3Variants = variants.filter((v) => v.classId === c3);
  const routeVariant = r.pick('route-variant', c3Variants);
  const routeFree = [...c3Variants].sort((a, b) => a.spPaise - b.spPaise || a.id - b.id)[0];
  const towns = ids.towns.filter((_, i) => i % 2 === 0).map((t) => t.id);
  const routes = ids.towns.flatMap((t) => t.routeIds).filter((_, i) => i % 3 !== 1);

  // Quantities worth about ₹1,000 (retailers' lines are worth ₹100-3,000, distributors' ₹2,000-60,000).
  const q1 = Math.max(2, Math.round(100_000 / c1Sp));
  const m = Math.max(2, Math.round(100_000 / freeVariant.spPaise));
  const q3 = Math.max(2, Math.round(100_000 / pSp));
  const amt = Math.max(25, Math.round(pSp * 0.04));
  const q6 = Math.max(2, Math.round(150_000 / routeVariant.spPaise));
  const budget1 = Math.max(1_000, 10 * ordersPerOrg); // rupees
  const budget2 = Math.max(3, Math.floor(ordersPerOrg / 40)); // free units

  const params: SeedSchemeParams = {
    s1: { id: 0, classId: c1, from: addDays(asOf, -240), to: addDays(asOf, -121), q: [q1, 5 * q1, 25 * q1], bp: [250, 500, 750], budgetPaise: budget1 * 100 },
    s2: { id: 0, variantId: freeVariant.id, from: addDays(asOf, -120), to: addDays(asOf, 30), min: m, free: 1, budgetUnits: budget2, spPaise: freeVariant.spPaise },
    s3: { id: 0, productId, from: addDays(asOf, -90), towns, q: [q3, 4 * q3], amtPaise: [amt, 2 * amt] },
    s6: { id: 0, variantId: routeVariant.id, from: addDays(asOf, -500), to: addDays(asOf, -381), routes, q: [q6, 3 * q6], free: [1, 3], freeVariantId: routeFree.id, freeSpPaise: routeFree.spPaise },
  };
  const n = r.between('number', 10, 89);
  const made = (day: string) => localInstant(addDays(day, -10), 10 * 3600);
  const base = { scopeIds: [] as number[], validTo: null as string | null, priority: 0, stackable: false, budgetKind: null, budget: null, status: SchemeStatus.ACTIVE };
  const schemes: PlannedScheme[] = [
    {
      ...base, name: 'Season class discount', code: `CLS-${n}`, kind: SchemeKind.DISCOUNT, targetKind: SchemeTarget.PRODUCT_CLASS, targetId: c1, scope: SchemeScope.ALL,
      validFrom: params.s1.from, validTo: params.s1.to, priority: 10, budgetKind: SchemeBudgetKind.AMOUNT, budget: budget1,
      slabs: params.s1.q.map((q, i) => slab(q, { discount_percent: params.s1.bp[i] / 100 })), createdAt: made(params.s1.from),
    },
    {
      ...base, name: `Buy ${m} get 1 free`, code: `B${m}G1-${n}`, kind: SchemeKind.FREE_GOODS, targetKind: SchemeTarget.VARIANT, targetId: freeVariant.id,
      scope: SchemeScope.USER_TYPE, scopeIds: [UserType.RETAILER], validFrom: params.s2.from, validTo: params.s2.to, priority: 5,
      budgetKind: SchemeBudgetKind.UNITS, budget: budget2, slabs: [slab(m, { free_qty: 1, free_variant_id: freeVariant.id, recursive: true })], createdAt: made(params.s2.from),
    },
    {
      ...base, name: 'Town special', code: `TWN-${n}`, kind: SchemeKind.DISCOUNT, targetKind: SchemeTarget.PRODUCT, targetId: productId, scope: SchemeScope.TOWN,
      scopeIds: [...towns].sort((a, b) => a - b), validFrom: params.s3.from, priority: 1, stackable: true,
      slabs: params.s3.q.map((q, i) => slab(q, { discount_amount: params.s3.amtPaise[i] / 100 })), createdAt: made(params.s3.from),
    },
    {
      ...base, name: 'Route push', code: `RTE-${n}`, kind: SchemeKind.FREE_GOODS, targetKind: SchemeTarget.VARIANT, targetId: routeVariant.id, scope: SchemeScope.ROUTE,
      scopeIds: [...routes].sort((a, b) => a - b), validFrom: params.s6.from, validTo: params.s6.to,
      slabs: params.s6.q.map((q, i) => slab(q, { free_qty: params.s6.free[i], free_variant_id: routeFree.id })), createdAt: made(params.s6.from),
    },
    {
      ...base, name: 'Festive discount (withdrawn)', code: `FST-${n}`, kind: SchemeKind.DISCOUNT, targetKind: SchemeTarget.PRODUCT_CLASS, targetId: c1, scope: SchemeScope.ALL,
      validFrom: addDays(asOf, -30), validTo: addDays(asOf, 30), status: SchemeStatus.DISABLED, slabs: [slab(1, { discount_percent: 10 })], createdAt: made(addDays(asOf, -30)),
    },
    {
      ...base, name: 'Next month offer', code: `NXT-${n}`, kind: SchemeKind.DISCOUNT, targetKind: SchemeTarget.PRODUCT_CLASS, targetId: c3, scope: SchemeScope.ALL,
      validFrom: addDays(asOf, 7), validTo: addDays(asOf, 36), priority: 3, slabs: [slab(q6, { discount_percent: 5 }), slab(4 * q6, { discount_percent: 8 })],
      createdAt: made(addDays(asOf, 0)),
    },
  ];
  return { schemes, params };
}

/** Inserts the workspace's schemes (before its orders) and returns the orders statement's parameters. */
export async function insertSchemes(
  client: ClientBase,
  options: { key: string; ids: WorkspaceIds; asOf: string; ordersPerOrg: number },
  counts: RowCounts,
): Promise<SeedSchemeParams> {
  const { schemes, params } = planSchemes(options.key, options.asOf, options.ids, options.ordersPerOrg);
  const col = <K extends keyof PlannedScheme>(k: K) => schemes.map((s) => s[k]);
  const { rows } = await client.query<{ id: number; code: string }>(
    `insert into scheme (organization_id, name, code, kind, target_kind, target_id, scope, scope_ids, valid_from, valid_to, priority, stackable,
                         budget_kind, budget, status, slabs, created_at, updated_at)
     select $1, name, code, kind, tk, tid, scope, sids::jsonb, vf, vt, pr, st, bk, b, status, slabs::jsonb, ca, ca
       from unnest($2::text[], $3::text[], $4::smallint[], $5::smallint[], $6::int[], $7::smallint[], $8::text[], $9::date[], $10::date[], $11::int[],
                   $12::boolean[], $13::smallint[], $14::numeric[], $15::smallint[], $16::text[], $17::timestamptz[])
            with ordinality as x(name, code, kind, tk, tid, scope, sids, vf, vt, pr, st, bk, b, status, slabs, ca, n)
      order by n
     returning id, code`,
    [
      options.ids.organizationId,
      col('name'), col('code'), col('kind'), col('targetKind'), col('targetId'), col('scope'),
      schemes.map((s) => JSON.stringify(s.scopeIds)),
      col('validFrom'), col('validTo'), col('priority'), col('stackable'), col('budgetKind'), col('budget'), col('status'),
      schemes.map((s) => JSON.stringify(s.slabs)),
      col('createdAt'),
    ],
  );
  counts.scheme = (counts.scheme ?? 0) + rows.length;
  const idOf = new Map(rows.map((row) => [row.code, row.id]));
  [params.s1.id, params.s2.id, params.s3.id, params.s6.id] = schemes.slice(0, 4).map((s) => idOf.get(s.code)!);
  return params;
}

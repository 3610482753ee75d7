import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../lib/bench-context';
import { BENCH_DATA_DIR, issueKeys } from '../lib/bench-database';
import type { Statement } from '../lib/sql-capture';
import { figure, ratioAtMost, reported, type Figure } from '../lib/report';
import { median, percentile } from '../lib/stats';

/** Orders created a side per round, one at a time. */
const ORDERS_PER_ROUND = 100;
const WARM_UP = 10;
/** The pair's schemes, by code (found again on a later run). */
const CODES = ['BENCH-FREE', 'BENCH-CLASS', 'BENCH-PRODUCT'] as const;

interface World {
  organizationId: number;
  key: string;
  customerId: number;
  /** The cart: [variant, quantity], every line met by the schemes. */
  cart: Array<[number, number]>;
  schemeIds: number[];
  /** The workspace's other active schemes (the seed's), switched off during the pair and back on after. */
  othersActive: number[];
}

/**
 * The first API workspace, an API key that may write, an active retailer, a product class with a
 * product of at least 3 variants (the cart: 3 lines of it, 24 units each), and three schemes that
 * all apply to that cart: buy 12 get 1 of the first variant (priority 10, not stackable, a budget
 * of free units far from spent, so its lock and use are read), 5% off the class (stackable, slabs
 * at 10/50) and ₹0.50 off each unit of the product (stackable). Made through the API once.
 */
async function worldOf(ctx: BenchContext): Promise<World> {
  const organizationId = ctx.main.organizationIds[0];
  const key = (await issueKeys(ctx.pool, [organizationId], 'read,write', 1, 'bench-schemes')).get(organizationId)![0];
  const { rows: [customer] } = await ctx.pool.query<{ id: number }>(
    `select id from app_user where organization_id = $1 and user_type = 3 and status = 1 order by id limit 1`,
    [organizationId],
  );
  const { rows: [product] } = await ctx.pool.query<{ product_id: number; class_id: number; variant_ids: number[] }>(
    `select p.id as product_id, p.product_class_id as class_id, array_agg(v.id order by v.id) as variant_ids
       from product p join product_variant v on v.organization_id = p.organization_id and v.product_id = p.id and v.status = 1
      where p.organization_id = $1 and p.status = 1
      group by p.id having count(*) >= 3 order by p.id limit 1`,
    [organizationId],
  );
  if (!customer || !product) throw new Error('the schemes pair needs an active retailer and a product of 3 variants in the first workspace');
  const cart: Array<[number, number]> = product.variant_ids.slice(0, 3).map((v) => [v, 24]);
  const { rows: existing } = await ctx.pool.query<{ id: number; code: string }>(
    `select id, code from scheme where organization_id = $1 and code = any($2::text[])`,
    [organizationId, [...CODES]],
  );
  const today = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const bodies: Record<(typeof CODES)[number], object> = {
    'BENCH-FREE': { kind: 2, target_kind: 1, target_id: cart[0][0], priority: 10, budget_kind: 2, budget: 100_000_000, slabs: [{ min_qty: 12, free_qty: 1, recursive: true }] },
    'BENCH-CLASS': { kind: 1, target_kind: 3, target_id: product.class_id, priority: 5, stackable: true, slabs: [{ min_qty: 10, discount_percent: 5 }, { min_qty: 50, discount_percent: 7.5 }] },
    'BENCH-PRODUCT': { kind: 1, target_kind: 2, target_id: product.product_id, priority: 1, stackable: true, slabs: [{ min_qty: 20, discount_amount: 0.5 }] },
  };
  for (const code of CODES) {
    if (existing.some((s) => s.code === code)) continue;
    const res = await fetch(`${ctx.service.baseUrl}/api/v1/schemes`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${code}`, code, valid_from: today, ...bodies[code] }),
    });
    if (res.status !== 201) throw new Error(`POST /schemes answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
  const { rows: schemes } = await ctx.pool.query<{ id: number }>(`select id from scheme where organization_id = $1 and code = any($2::text[]) order by id`, [organizationId, [...CODES]]);
  const { rows: others } = await ctx.pool.query<{ id: number }>(
    `select id from scheme where organization_id = $1 and status = 1 and not (code = any($2::text[])) order by id`,
    [organizationId, [...CODES]],
  );
  return { organizationId, key, customerId: customer.id, cart, schemeIds: schemes.map((s) => s.id), othersActive: others.map((s) => s.id) };
}

async function setStatus(ctx: BenchContext, organizationId: number, ids: number[], status: 1 | 2): Promise<void> {
  if (ids.length > 0) await ctx.pool.query('update scheme set status = $3 where organization_id = $1 and id = any($2::int[])', [organizationId, ids, status]);
}

/** Creates `n` orders one at a time over HTTP; their times in ms. */
async function createOrders(ctx: BenchContext, w: World, n: number, expectSchemes: boolean): Promise<number[]> {
  const body = JSON.stringify({ user_id: w.customerId, items: w.cart.map(([v, q]) => ({ product_variant_id: v, quantity: q })) });
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    const res = await fetch(`${ctx.service.baseUrl}/api/v1/orders`, { method: 'POST', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, body });
    const text = await res.text();
    times.push(performance.now() - started);
    if (res.status !== 201) throw new Error(`POST /orders answered ${res.status}: ${text.slice(0, 300)}`);
    if (i === 0 && n > 1) {
      const count = (JSON.parse(text) as { data: { order_items_count?: number; items_count?: number } }).data;
      const lines = count.order_items_count ?? count.items_count;
      if (lines !== undefined && (lines > w.cart.length) !== expectSchemes) throw new Error(`an order ${expectSchemes ? 'with' : 'without'} schemes had ${lines} lines`);
    }
  }
  return times;
}

/** Statements one order creation sends (in-process app, same key). */
async function statementsPerOrder(ctx: BenchContext, w: World): Promise<Statement[]> {
  const payload = JSON.stringify({ user_id: w.customerId, items: w.cart.map(([v, q]) => ({ product_variant_id: v, quantity: q })) });
  const send = () => ctx.app.inject({ method: 'POST', url: '/api/v1/orders', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, payload });
  await send();
  let status = 0;
  const statements = await ctx.capture.record(async () => {
    status = (await send()).statusCode;
  });
  if (status !== 201) throw new Error(`POST /orders (in-process) answered ${status}`);
  return statements;
}

/**
 * "Order creation with 3 active schemes against without (goal: schemes cost ≤ 25% more)" (issue 24):
 * `POST /api/v1/orders` of the same 3-line cart, one at a time over HTTP, in the first API workspace
 * with the pair's three schemes active (all three apply: a free line and two stacked discounts) and
 * with them disabled (the workspace then has no active scheme: the seed's are off during the pair).
 * After a warm-up of each side, the two alternate order by order (baseline first; switching the
 * schemes between them is not timed), ORDERS_PER_ROUND a side per round; p50 and p95 over every
 * order of a side.
 */
export async function measureSchemes(ctx: BenchContext): Promise<Figure[]> {
  const w = await worldOf(ctx);
  await setStatus(ctx, w.organizationId, w.othersActive, 2);
  try {
    const without: number[] = [];
    const withSchemes: number[] = [];
    const side = async (on: boolean, n: number) => {
      await setStatus(ctx, w.organizationId, w.schemeIds, on ? 1 : 2);
      return createOrders(ctx, w, n, on);
    };
    await side(false, WARM_UP);
    const usesOf = async () =>
      Number((await ctx.pool.query<{ n: string }>('select count(*) as n from scheme_use where organization_id = $1 and scheme_id = any($2::int[])', [w.organizationId, w.schemeIds])).rows[0].n);
    const before = await usesOf();
    await side(true, WARM_UP);
    const applied = (await usesOf()) - before;
    if (applied !== 3 * WARM_UP) throw new Error(`the three schemes applied ${applied} times to ${WARM_UP} orders, not ${3 * WARM_UP}`);
    await setStatus(ctx, w.organizationId, w.schemeIds, 2);
    const sqlWithout = await statementsPerOrder(ctx, w);
    await setStatus(ctx, w.organizationId, w.schemeIds, 1);
    const sqlWith = await statementsPerOrder(ctx, w);
    // The statements of each side, to read (written each run).
    writeFileSync(path.join(BENCH_DATA_DIR, 'schemes-sql.json'), JSON.stringify({ without: sqlWithout.map((x) => x.text), with: sqlWith.map((x) => x.text) }, null, 2));
    const statementsWithout = sqlWithout.length;
    const statementsWith = sqlWith.length;
    for (let round = 1; round <= ctx.rounds; round += 1) {
      // Order by order, alternating (the switch between them untimed), so a busy spell of the shared machine falls on both sides alike.
      const b: number[] = [];
      const o: number[] = [];
      for (let i = 0; i < ORDERS_PER_ROUND; i += 1) {
        b.push(...(await side(false, 1)));
        o.push(...(await side(true, 1)));
      }
      without.push(...b);
      withSchemes.push(...o);
      ctx.log(`  schemes round ${round}: without p50 ${median(b).toFixed(1)} ms · with 3 schemes p50 ${median(o).toFixed(1)} ms`);
    }
    const p50 = { ours: percentile(withSchemes, 50), base: percentile(without, 50) };
    const p95 = { ours: percentile(withSchemes, 95), base: percentile(without, 95) };
    ctx.log(
      `  order creation: p50 ${p50.base.toFixed(1)} → ${p50.ours.toFixed(1)} ms, p95 ${p95.base.toFixed(1)} → ${p95.ours.toFixed(1)} ms; ` +
        `statements per order ${statementsWithout} without, ${statementsWith} with 3 schemes (${withSchemes.length} orders a side)`,
    );
    return [
      figure('Order creation with 3 active schemes p50', 'ms', p50.ours, p50.base, ratioAtMost(1.25, 'without schemes')),
      figure('Order creation with 3 active schemes p95', 'ms', p95.ours, p95.base, ratioAtMost(1.25, 'without schemes')),
      figure('SQL statements per order creation with 3 active schemes', 'statements', statementsWith, statementsWithout, reported('reported (baseline: without schemes)')),
    ];
  } finally {
    await setStatus(ctx, w.organizationId, w.schemeIds, 2);
    await setStatus(ctx, w.organizationId, w.othersActive, 1);
  }
}

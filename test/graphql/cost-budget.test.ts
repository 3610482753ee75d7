import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createWorkspace, placeOrder, seedCatalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** A bucket of 50,000 (the highest cost of one query) refilling 1 unit a second: nothing refills within a test. */
const ENV = { GRAPHQL_COST_MAXIMUM: '50000', GRAPHQL_COST_RESTORE_RATE: '1' };

interface Cost {
  requestedQueryCost: number;
  actualQueryCost: number;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** Sends a GraphQL operation; the parsed body with its cost, the status and the Retry-After header. */
async function send(t: TestApp, query: string, credential: { token: string } | { apiKey: string }) {
  const res = await t.request({ method: 'POST', url: '/graphql', ...credential, payload: { query } });
  const body = res.json() as { data?: Record<string, unknown>; errors?: Array<{ message: string; extensions?: { code?: string } }>; extensions: { cost: Cost } };
  return { ...body, statusCode: res.statusCode, retryAfter: res.headers['retry-after'], cost: body.extensions?.cost };
}

/** Three dashboardStats of one field each: 3 × (15,000 + 1). */
const THREE_STATS = `{ ${[0, 1, 2].map((i) => `s${i}: dashboardStats { orderDeliveredCount }`).join(' ')} }`;
const THREE_STATS_COST = 45_003;

/** The leaky bucket of each caller, on `build`'s apps (in-process or Redis). */
function budgetSuite(build: (env: Record<string, string>) => Promise<TestApp>) {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;

  beforeAll(async () => {
    t = await build(ENV);
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
  });
  afterAll(() => t.close());

  it('takes each query’s cost from its caller’s bucket and refuses one that does not fit with 429, before it runs', async () => {
    const first = await send(t, THREE_STATS, { token: ws.token });
    expect(first.statusCode, JSON.stringify(first.errors)).toBe(200);
    expect(first.cost.requestedQueryCost).toBe(THREE_STATS_COST);
    expect(first.cost.actualQueryCost).toBe(THREE_STATS_COST);
    expect(first.cost.throttleStatus.maximumAvailable).toBe(50_000);
    expect(first.cost.throttleStatus.restoreRate).toBe(1);
    const left = first.cost.throttleStatus.currentlyAvailable;
    expect(left).toBeGreaterThanOrEqual(50_000 - THREE_STATS_COST);
    expect(left).toBeLessThan(50_000 - THREE_STATS_COST + 5);

    t.queries.reset();
    const refused = await send(t, THREE_STATS, { token: ws.token });
    expect(refused.statusCode).toBe(429);
    expectGraphqlError(refused, 'RATE_LIMITED', /^Query cost 45003 exceeds the \d+ available of the caller's cost budget \(restores 1 a second\); try again in \d+ s$/);
    // The bucket refills 1 a second: what is missing, in seconds.
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(THREE_STATS_COST - left - 5);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(THREE_STATS_COST - left);
    expect(refused.cost.requestedQueryCost).toBe(THREE_STATS_COST);
    expect(refused.cost.actualQueryCost).toBe(0);
    // Only the session lookup: no resolver ran.
    expect(t.queries.count, t.queries.statements.join('\n')).toBe(1);

    // What fits still runs; another caller (another workspace's user, or an API key) has a bucket of its own.
    const small = await send(t, '{ workspace { slug } }', { token: ws.token });
    expect(small.statusCode).toBe(200);
    expect(small.cost.throttleStatus.currentlyAvailable).toBeLessThan(left - 1000 + 5);
    expect((await send(t, THREE_STATS, { token: other.token })).statusCode).toBe(200);
    const key = await createApiKey(t, ws, { scopes: 'read,dashboard' });
    const byKey = await send(t, THREE_STATS, { apiKey: key.key });
    expect(byKey.statusCode, JSON.stringify(byKey.errors)).toBe(200);
    expect(byKey.cost.throttleStatus.currentlyAvailable).toBeLessThan(50_000 - THREE_STATS_COST + 5);
  });

  it('charges what a query returned, not its limit, and gives the difference back', async () => {
    const shop = await createWorkspace(t);
    const catalog = await seedCatalog(t, shop);
    for (let i = 0; i < 3; i += 1) await placeOrder(t, shop.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    const before = (await send(t, '{ __typename }', { token: shop.token })).cost.throttleStatus.currentlyAvailable;
    // A page costs 2,000, its `nodes` 1, each order's id 1: estimated at the limit of 100, 3 returned.
    const page = await send(t, '{ orders(limit: 100) { nodes { id } } }', { token: shop.token });
    expect(page.statusCode, JSON.stringify(page.errors)).toBe(200);
    expect(page.data).toEqual({ orders: { nodes: [expect.any(Object), expect.any(Object), expect.any(Object)] } });
    expect(page.cost.requestedQueryCost).toBe(2_000 + 100 * 2);
    expect(page.cost.actualQueryCost).toBe(2_000 + 1 + 3);
    const after = page.cost.throttleStatus.currentlyAvailable;
    expect(before - after).toBeGreaterThanOrEqual(2_004 - 5);
    expect(before - after).toBeLessThanOrEqual(2_004);

    // Without a limit, a page is priced at the default 20; `search` adds 10,000; order lines are
    // assumed 8 an order (10 + 8 × 1) and charged as found (one line each).
    expect((await send(t, '{ orders { nodes { id } } }', { token: shop.token })).cost.requestedQueryCost).toBe(2_000 + 20 * 2);
    expect((await send(t, '{ orders(search: "x") { nodes { id } } }', { token: shop.token })).cost.requestedQueryCost).toBe(12_000 + 20 * 2);
    const lines = await send(t, '{ orders(limit: 5) { nodes { items { id } } } }', { token: shop.token });
    expect(lines.cost.requestedQueryCost).toBe(2_000 + 5 * (1 + 10 + 8 * 1));
    expect(lines.cost.actualQueryCost).toBe(2_000 + 1 + 3 * (10 + 1));
  });

  it('reports the cost on every answer: refused documents cost nothing', async () => {
    const parse = await send(t, '{ orders { nodes { id }', { token: ws.token });
    expect(parse.statusCode).toBe(400);
    expect(parse.cost).toMatchObject({ requestedQueryCost: 0, actualQueryCost: 0, throttleStatus: { maximumAvailable: 50_000, restoreRate: 1 } });
    const tooComplex = await send(t, `{ ${[0, 1, 2, 3].map((i) => `s${i}: dashboardStats { orderDeliveredCount }`).join(' ')} }`, { token: other.token });
    expectGraphqlError(tooComplex, 'QUERY_TOO_COMPLEX', 'Query is too complex: 60004, the maximum is 50000');
    expect(tooComplex.cost).toMatchObject({ requestedQueryCost: 60_004, actualQueryCost: 0 });
    // A field that fails still ran and is charged; the rest of the estimate comes back.
    const missing = await send(t, '{ order(id: 999999) { id items { id } } }', { token: other.token });
    expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(missing.cost).toMatchObject({ requestedQueryCost: 1_000 + 1 + 10 + 8, actualQueryCost: 1_000 });
    // An operation another check refuses (a read-only key writing) runs nothing and keeps nothing taken.
    const key = await createApiKey(t, other, { scopes: 'read' });
    const write = await send(t, 'mutation { createTown(input: { name: "Kochi" }) { id } }', { apiKey: key.key });
    expect(write.statusCode).toBe(403);
    expect(write.cost).toMatchObject({ requestedQueryCost: 5_001, actualQueryCost: 0 });
    expect(write.cost.throttleStatus.currentlyAvailable).toBeGreaterThan(50_000 - 5);
  });
}

/** What a web dashboard sends at once when it opens (its first view). */
const DASHBOARD_VIEW = [
  '{ me { id firstName role { name } } }',
  `{ dashboardStats { orderInitiatedCount orderForwardedCount orderApprovedCount orderDeliveredCount totalEmployees todayAttendance
    totalTaggedOutlets todayTaggedOutlets todayRevenue pendingAmount totalCollection todayCollection } }`,
  `{ monthlySales { id productClass unit todayTotal yesterdayTotal dailyChangePercent dailyChangeStatus monthData monthDataAvg
    currentYearData prevYearData yearlyChangePercent yearlyChangeStatus sevenDayData { date total } productBreakdown { productName quantity } } }`,
  `{ orders(limit: 20) { pageInfo { total } nodes { id orderCode status totalAmount orderDate customer { firstName lastName storeName }
    items { quantity unitPrice amount variant { itemSkuCode product { name } } } } } }`,
];

describe('GraphQL cost budget, default size', () => {
  let t: TestApp;
  let ws: Workspace;

  // The default maximum; restoring 1 a second, so nothing comes back within the test.
  beforeAll(async () => {
    t = await buildTestApp({ GRAPHQL_COST_RESTORE_RATE: '1' }, { inProcessLimits: true });
    ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    for (let i = 0; i < 3; i += 1) await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] });
  });
  afterAll(() => t.close());

  it('runs a signed-in user’s dashboard (stats, monthly sales, an orders page) sent at once, and its reload right after', async () => {
    for (const view of [1, 2]) {
      const answers = await Promise.all(DASHBOARD_VIEW.map((query) => send(t, query, { token: ws.token })));
      expect(answers.map((a) => [a.statusCode, a.errors]), `view ${view}`).toEqual(answers.map(() => [200, undefined]));
      const requested = answers.reduce((sum, a) => sum + a.cost.requestedQueryCost, 0);
      // Far more than the highest cost of one query (50,000), which the budget held before.
      expect(requested).toBeGreaterThan(65_000);
      expect(answers[0].cost.throttleStatus.maximumAvailable).toBeGreaterThanOrEqual(2 * requested);
    }
    expect((await send(t, '{ orders(limit: 20) { pageInfo { total } } }', { token: ws.token })).cost.throttleStatus.currentlyAvailable).toBeGreaterThan(0);
  });
});

describe('GraphQL cost budget, in process', () => {
  budgetSuite((env) => buildTestApp(env, { inProcessLimits: true }));
});

describe.skipIf(!process.env.REDIS_URL)('GraphQL cost budget, in Redis', () => {
  budgetSuite((env) => buildTestApp(env));

  it('is one bucket per caller for every instance', async () => {
    const namespace = `cost-${randomBytes(6).toString('hex')}`;
    const t1 = await buildTestApp(ENV, { rateLimitNamespace: namespace });
    const t2 = await buildTestApp(ENV, { sharedDatabase: t1.db, rateLimitNamespace: namespace });
    try {
      const ws = await createWorkspace(t1);
      const first = await send(t1, THREE_STATS, { token: ws.token });
      expect(first.statusCode).toBe(200);
      const second = await send(t2, THREE_STATS, { token: ws.token });
      expect(second.statusCode).toBe(429);
      expect(second.cost.throttleStatus.currentlyAvailable).toBeLessThan(50_000 - THREE_STATS_COST + 5);
    } finally {
      await t2.close();
      await t1.close();
    }
  });
});

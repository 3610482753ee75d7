import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAVY_OPERATION_COST } from '../../src/graphql/limits';
import { COST } from '../../src/graphql/costs';
import { createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const MONTHLY_SALES = '{ monthlySales { productClass todayTotal } }';
const STATS = '{ dashboardStats { orderDeliveredCount todayRevenue } }';
const LIGHT = '{ workspace { slug } }';

/** Lets the event loop run `n` times round, so whatever can start starts. */
async function settle(n = 20): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Operations estimated at HEAVY_OPERATION_COST or more (the aggregates) run one at a time for a
 * workspace; the rest of its heavy operations wait before executing, and other workspaces' heavy
 * and light operations run meanwhile (see costPlugin).
 */
describe('GraphQL heavy operations, one at a time a workspace', () => {
  let t: TestApp;
  let noisy: Workspace;
  let quiet: Workspace;

  beforeAll(async () => {
    t = await buildTestApp();
    noisy = await createWorkspace(t);
    quiet = await createWorkspace(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('prices the dashboard aggregates as heavy and a plain read as light', () => {
    expect(COST.dashboardStats).toBeGreaterThanOrEqual(HEAVY_OPERATION_COST);
    expect(COST.monthlySales).toBeGreaterThanOrEqual(HEAVY_OPERATION_COST);
    expect(COST.record).toBeLessThan(HEAVY_OPERATION_COST);
  });

  it("holds a workspace's second heavy operation until its first is done; other workspaces' heavy and light operations run", async () => {
    const dashboard = t.app.services.dashboard;
    const monthlySales = dashboard.monthlySales.bind(dashboard);
    const stats = dashboard.stats.bind(dashboard);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    let noisyRunning = 0;
    let noisyMost = 0;
    const track = async <T>(name: string, organizationId: number, work: () => Promise<T>, hold = false): Promise<T> => {
      if (organizationId !== noisy.organizationId) return work();
      started.push(name);
      noisyRunning += 1;
      noisyMost = Math.max(noisyMost, noisyRunning);
      try {
        if (hold) await held;
        return await work();
      } finally {
        noisyRunning -= 1;
      }
    };
    dashboard.monthlySales = (ctx) => track('monthlySales', ctx.organizationId, () => monthlySales(ctx), true);
    dashboard.stats = (ctx) => track('stats', ctx.organizationId, () => stats(ctx));
    try {
      // The noisy workspace's aggregate runs and is held open.
      const first = t.graphql(MONTHLY_SALES, {}, noisy.token);
      for (let i = 0; i < 200 && !started.includes('monthlySales'); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(started).toEqual(['monthlySales']);

      // Its second heavy operation is accepted (its cost taken) but does not start.
      const second = t.graphql<{ dashboardStats: { orderDeliveredCount: number } }>(STATS, {}, noisy.token);
      await settle();

      // Meanwhile another workspace's heavy and light operations are answered.
      const [quietHeavy, quietSales, quietLight] = await Promise.all([
        t.graphql<{ dashboardStats: { orderDeliveredCount: number } }>(STATS, {}, quiet.token),
        t.graphql(MONTHLY_SALES, {}, quiet.token),
        t.graphql<{ workspace: { slug: string } }>(LIGHT, {}, quiet.token),
      ]);
      expect([quietHeavy.statusCode, quietHeavy.errors]).toEqual([200, undefined]);
      expect(quietHeavy.data?.dashboardStats.orderDeliveredCount).toBe(0);
      expect([quietSales.statusCode, quietSales.errors]).toEqual([200, undefined]);
      expect([quietLight.statusCode, quietLight.data?.workspace.slug]).toEqual([200, quiet.slug]);
      await settle();
      expect(started).toEqual(['monthlySales']);

      // Once the first ends, the second runs; both are answered.
      release();
      const [firstAnswer, secondAnswer] = await Promise.all([first, second]);
      expect([firstAnswer.statusCode, firstAnswer.errors]).toEqual([200, undefined]);
      expect([secondAnswer.statusCode, secondAnswer.errors]).toEqual([200, undefined]);
      expect(started).toEqual(['monthlySales', 'stats']);
      expect(noisyMost).toBe(1);
    } finally {
      release();
      dashboard.monthlySales = monthlySales;
      dashboard.stats = stats;
    }
  });

  it("lets a workspace's light operations run beside its held heavy one", async () => {
    const dashboard = t.app.services.dashboard;
    const monthlySales = dashboard.monthlySales.bind(dashboard);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let running = false;
    dashboard.monthlySales = async (ctx) => {
      running = true;
      await held;
      return monthlySales(ctx);
    };
    try {
      const heavy = t.graphql(MONTHLY_SALES, {}, noisy.token);
      for (let i = 0; i < 200 && !running; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(running).toBe(true);
      const light = await t.graphql<{ workspace: { slug: string } }>(LIGHT, {}, noisy.token);
      expect([light.statusCode, light.data?.workspace.slug]).toEqual([200, noisy.slug]);
      release();
      expect((await heavy).statusCode).toBe(200);
    } finally {
      release();
      dashboard.monthlySales = monthlySales;
    }
  });
});

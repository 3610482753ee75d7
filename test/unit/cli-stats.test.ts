import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { seedWorkspaces } from '../../src/seed/seed';
import { createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The operator CLI's stats:check and stats:rebuild, on a workspace written through the API (orders,
 * status moves, payments, a time-zone change: the ORM's one-row writes) and on one the seed wrote
 * (bulk INSERT ... SELECT with the foreign-key triggers off): the rollups the triggers kept equal
 * the base rows; a rollup put wrong by hand is named by the check and put right by the rebuild.
 */
describe('operator CLI: the dashboard aggregates', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  let seededSlug: string;
  const savedUrl = process.env.DATABASE_URL;

  const sql = <T extends object[]>(query: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute<T>(query, params);
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, (line) => out.push(line), (line) => err.push(line));
    return { code, out, err };
  }
  const rollupRows = async (org: number) => ({
    orders: Number((await sql<{ n: string }[]>('select count(*) as n from order_day_rollup where organization_id = ?', [org]))[0].n),
    lines: Number((await sql<{ n: string }[]>('select count(*) as n from line_day_rollup where organization_id = ?', [org]))[0].n),
  });

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Stats Dairy');
    catalog = await seedCatalog(t, ws);
    const request = async (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object) => {
      const res = await t.request({ method, url: `/api/v1${url}`, token: ws.token, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json().data;
    };
    const orders = [];
    for (const [k, orderDate] of ['2026-01-15', '2026-01-15', '2025-12-31', '2024-02-29'].entries()) {
      orders.push(
        await placeOrder(t, ws.token, {
          user_id: catalog.distributorId,
          order_date: orderDate,
          items: [
            { product_variant_id: catalog.variantIds[0], quantity: 2 + k },
            { product_variant_id: catalog.variantIds[1], quantity: 1 },
          ],
        }),
      );
    }
    for (const status of [2, 3, 4]) await request('PATCH', `/orders/${orders[0].id}/status`, { order_status: status });
    await request('PATCH', `/orders/${orders[1].id}/status`, { order_status: 2 });
    await request('POST', '/payments', { order_id: orders[0].id, amount: 1.5 });
    await request('POST', '/payments', { order_id: orders[0].id, amount: 2 });
    await request('POST', '/payments', { order_id: orders[2].id, amount: 1 });
    await request('PUT', '/workspace/config', { time_zone: 'Pacific/Kiritimati' });

    const summary = await seedWorkspaces(t.db.url, { orgs: 1, ordersPerOrg: 400, seed: 4242 });
    seededSlug = summary.workspaces[0].slug;
    process.env.DATABASE_URL = t.db.url;
  }, 120_000);
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    await t?.close();
  });

  it('stats:check passes on what the service wrote and on what the seed wrote, and says how many rows it compared', async () => {
    const rows = await rollupRows(ws.organizationId);
    // (day, status): 2026-01-15 × 1-4 (statuses 1 and 3 moved on, so they hold zeros), 2025-12-31 × 1, 2024-02-29 × 1;
    // (day, variant): the three days × the two variants.
    expect(rows).toEqual({ orders: 6, lines: 6 });
    expect(await cli('stats:check', ws.slug)).toEqual({
      code: 0,
      out: [`${ws.slug}: dashboard aggregates equal the base rows (order_day_rollup ${rows.orders} rows, line_day_rollup ${rows.lines} rows)`],
      err: [],
    });
    const seeded = await cli('stats:check', seededSlug);
    expect(seeded.code, seeded.err.join('\n')).toBe(0);
    expect(seeded.out[0]).toMatch(new RegExp(`^${seededSlug}: dashboard aggregates equal the base rows \\(order_day_rollup [1-9]\\d* rows, line_day_rollup [1-9]\\d* rows\\)$`));
  });

  it('stats:check exits 1 naming each row that differs, and changes nothing; stats:rebuild corrects them and says how many', async () => {
    const org = ws.organizationId;
    const [{ id: orderRow }] = await sql<{ id: number }[]>(`select id from order_day_rollup where organization_id = ? and day = '2026-01-15' and status = 4`, [org]);
    await sql('update order_day_rollup set paid_amount = paid_amount + 10, orders = orders + 1 where id = ?', [orderRow]);
    await sql(`delete from line_day_rollup where organization_id = ? and day = '2024-02-29' and product_variant_id = ?`, [org, catalog.variantIds[1]]);

    const check = await cli('stats:check', ws.slug);
    expect(check.code).toBe(1);
    expect(check.out).toEqual([]);
    expect(check.err).toEqual([
      [
        `stats:check failed: ${ws.slug}: 2 row(s) of the dashboard aggregates differ from the base rows; stats:rebuild ${ws.slug} corrects them`,
        `order_day_rollup day 2026-01-15 status 4: orders 2 (base rows: 1), paid_amount 13.50 (base rows: 3.50)`,
        `line_day_rollup day 2024-02-29 product_variant_id ${catalog.variantIds[1]}: lines 0 (base rows: 1), quantity 0 (base rows: 1)`,
      ].join('\n  '),
    ]);
    expect((await cli('stats:check', ws.slug)).code).toBe(1); // the check changed nothing

    const before = await rollupRows(org);
    expect(before).toEqual({ orders: 6, lines: 5 });
    const rebuild = await cli('stats:rebuild', ws.slug);
    expect(rebuild).toEqual({
      code: 0,
      out: [`${ws.slug}: dashboard aggregates rebuilt (order_day_rollup 4 rows, line_day_rollup 6 rows); 2 row(s) differed from the base rows`],
      err: [],
    });
    expect((await cli('stats:check', ws.slug)).code).toBe(0);
  });

  it('stats:rebuild touches only the workspace named', async () => {
    const other = await sql<object[]>('select * from order_day_rollup where organization_id <> ? order by id', [ws.organizationId]);
    expect(other.length).toBeGreaterThan(0);
    expect((await cli('stats:rebuild', ws.slug)).out).toEqual([
      `${ws.slug}: dashboard aggregates rebuilt (order_day_rollup 4 rows, line_day_rollup 6 rows); 0 row(s) differed from the base rows`,
    ]);
    expect(await sql<object[]>('select * from order_day_rollup where organization_id <> ? order by id', [ws.organizationId])).toEqual(other);
  });

  it.each([
    [['stats:check'], 'Missing <slug>. Usage: stats:check <slug>'],
    [['stats:rebuild'], 'Missing <slug>. Usage: stats:rebuild <slug>'],
    [['stats:check', 'no-such-slug'], 'No workspace has the slug no-such-slug'],
    [['stats:rebuild', 'no-such-slug'], 'No workspace has the slug no-such-slug'],
  ])('%j exits 2 with a clear message and changes nothing', async (argv, message) => {
    const before = await sql<object[]>('select * from order_day_rollup order by id');
    expect(await cli(...argv)).toEqual({ code: 2, out: [], err: [message] });
    expect(await sql<object[]>('select * from order_day_rollup order by id')).toEqual(before);
  });
});

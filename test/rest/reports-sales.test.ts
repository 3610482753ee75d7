import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser } from '../helpers/fixtures';
import { seedSalesReportWorld, type SalesReportWorld } from '../helpers/sales-report-fixture';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** GET /reports/sales: figures of the small workspace of sales-report-fixture.ts, computed by hand. */
describe('GET /api/v1/reports/sales', () => {
  let t: TestApp;
  let w: SalesReportWorld;
  let key: string;
  let uses = 0;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await seedSalesReportWorld(t);
  });
  afterAll(() => t.close());

  /** As an API key of the workspace: a fresh one every 20 reports (the report budget is per caller). */
  const report = async (query: string) => {
    if (uses++ % 20 === 0) key = await w.reportKey();
    return t.request({ method: 'GET', url: `/api/v1/reports/sales?${query}`, apiKey: key });
  };
  const data = async (query: string) => {
    const res = await report(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const MARCH_APRIL = 'date_from=2026-03-01&date_to=2026-04-30';
  const fig = (value: number, quantity: number, orders: number, lines: number) => ({ value, quantity, orders, lines });
  const row = (period: string, groupId: number | null, groupName: string | null, f: ReturnType<typeof fig>) => ({ period, group_id: groupId, group_name: groupName, ...f });

  it('by month (the default period): cancelled orders and other workspaces left out; totals over the range; filters echoed', async () => {
    const d = await data(MARCH_APRIL);
    expect(d).toEqual({
      filters: {
        date_from: '2026-03-01',
        date_to: '2026-04-30',
        period: 'month',
        group_by: null,
        user_id: null,
        customer_id: null,
        product_class_id: null,
        town_id: null,
        route_id: null,
        production_unit_id: null,
      },
      rows: [row('2026-03-01', null, null, fig(266, 8, 3, 4)), row('2026-04-01', null, null, fig(120, 3, 1, 1))],
      totals: fig(386, 11, 4, 5),
    });
  });

  it('by day and by ISO week, periods without sales as zero rows', async () => {
    const days = await data('date_from=2026-03-01&date_to=2026-03-05&period=day');
    expect(days.rows).toEqual([
      row('2026-03-01', null, null, fig(0, 0, 0, 0)),
      row('2026-03-02', null, null, fig(97, 3, 1, 2)),
      row('2026-03-03', null, null, fig(0, 0, 0, 0)), // the cancelled order's day
      row('2026-03-04', null, null, fig(55, 1, 1, 1)),
      row('2026-03-05', null, null, fig(0, 0, 0, 0)),
    ]);
    expect(days.totals).toEqual(fig(152, 4, 2, 3));
    // 2026-03-01 is a Sunday: its week starts on Monday 2026-02-23.
    const weeks = await data('date_from=2026-03-01&date_to=2026-03-15&period=week');
    expect(weeks.rows).toEqual([
      row('2026-02-23', null, null, fig(0, 0, 0, 0)),
      row('2026-03-02', null, null, fig(152, 4, 2, 3)),
      row('2026-03-09', null, null, fig(114, 4, 1, 1)),
    ]);
    expect(weeks.totals).toEqual(fig(266, 8, 3, 4));
  });

  it('grouped by each group: rows per period and group, largest value first, null for orders without one', async () => {
    const grouped = async (by: string) => (await data(`${MARCH_APRIL}&group_by=${by}`)).rows;
    expect(await grouped('customer')).toEqual([
      row('2026-03-01', w.d1.id, w.d1.name, fig(211, 7, 2, 3)),
      row('2026-03-01', w.r1.id, w.r1.name, fig(55, 1, 1, 1)),
      row('2026-04-01', w.r1.id, w.r1.name, fig(120, 3, 1, 1)),
    ]);
    const byProduct = [
      row('2026-03-01', w.milk.productId, w.milk.name, fig(226, 7, 3, 3)),
      row('2026-03-01', w.curd.productId, w.curd.name, fig(40, 1, 1, 1)),
      row('2026-04-01', w.curd.productId, w.curd.name, fig(120, 3, 1, 1)),
    ];
    expect(await grouped('product')).toEqual(byProduct);
    expect(await grouped('product_class')).toEqual([
      row('2026-03-01', w.milk.classId, w.milk.className, fig(226, 7, 3, 3)),
      row('2026-03-01', w.curd.classId, w.curd.className, fig(40, 1, 1, 1)),
      row('2026-04-01', w.curd.classId, w.curd.className, fig(120, 3, 1, 1)),
    ]);
    const towns = await grouped('town');
    expect(towns.map((r: { group_id: number; value: number }) => [r.group_id, r.value])).toEqual([[w.t1, 211], [w.t2, 55], [w.t2, 120]]);
    expect(towns[0].group_name).toMatch(/^Anand /);
    expect(await grouped('route')).toEqual([
      row('2026-03-01', w.r1Route, expect.stringMatching(/^Ring Road /), fig(211, 7, 2, 3)),
      row('2026-03-01', null, null, fig(55, 1, 1, 1)),
      row('2026-04-01', null, null, fig(120, 3, 1, 1)),
    ]);
    expect(await grouped('employee')).toEqual([
      row('2026-03-01', w.e1.id, w.e1.name, fig(152, 4, 2, 3)),
      row('2026-03-01', w.e2.id, w.e2.name, fig(114, 4, 1, 1)),
      row('2026-04-01', null, null, fig(120, 3, 1, 1)), // booked by the admin: not by an employee
    ]);
    expect(await grouped('production_unit')).toEqual([
      row('2026-03-01', null, null, fig(169, 5, 2, 2)),
      row('2026-03-01', w.unit, expect.stringMatching(/^Plant /), fig(97, 3, 1, 2)),
      row('2026-04-01', null, null, fig(120, 3, 1, 1)),
    ]);
    // Grouped, periods without sales are not listed; the totals are those of the range.
    const days = await data('date_from=2026-03-01&date_to=2026-03-05&period=day&group_by=employee');
    expect(days.rows).toEqual([row('2026-03-02', w.e1.id, w.e1.name, fig(97, 3, 1, 2)), row('2026-03-04', w.e1.id, w.e1.name, fig(55, 1, 1, 1))]);
    expect(days.totals).toEqual(fig(152, 4, 2, 3));
  });

  it('filters: booking employee, customer, product class, town, route, production unit', async () => {
    const totals = async (filter: string) => (await data(`${MARCH_APRIL}&${filter}`)).totals;
    expect(await totals(`user_id=${w.e1.id}`)).toEqual(fig(152, 4, 2, 3));
    expect(await totals(`customer_id=${w.r1.id}`)).toEqual(fig(175, 4, 2, 2));
    expect(await totals(`product_class_id=${w.curd.classId}`)).toEqual(fig(160, 4, 2, 2)); // only the class's lines
    expect(await totals(`town_id=${w.t2}`)).toEqual(fig(175, 4, 2, 2));
    expect(await totals(`route_id=${w.r1Route}`)).toEqual(fig(211, 7, 2, 3));
    expect(await totals(`production_unit_id=${w.unit}`)).toEqual(fig(97, 3, 1, 2));
    expect(await totals(`user_id=${w.e2.id}&product_class_id=${w.curd.classId}`)).toEqual(fig(0, 0, 0, 0));
    const echoed = await data(`${MARCH_APRIL}&town_id=${w.t2}&period=week&group_by=customer`);
    expect(echoed.filters).toMatchObject({ town_id: w.t2, period: 'week', group_by: 'customer' });
  });

  it('defaults to this month up to today (the workspace’s local day); a year is the longest range', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());
    const d = await data('');
    expect(d.filters).toMatchObject({ date_from: `${today.slice(0, 7)}-01`, date_to: today, period: 'month' });
    expect((await data('date_to=2026-03-31')).filters).toMatchObject({ date_from: '2026-03-01', date_to: '2026-03-31' });
    // A leap year: 366 days, both ends included.
    const leap = await data('date_from=2024-01-01&date_to=2024-12-31');
    expect(leap.rows).toHaveLength(12);
    expect(leap.totals).toEqual(fig(0, 0, 0, 0));
  });

  it('bad input → 400 naming the parameter, including the range cap and records of another workspace', async () => {
    const employee = w.e1.id;
    const cases: [string, RegExp][] = [
      ['date_from=2026-02-30', /^date_from /],
      ['date_to=yesterday', /^date_to /],
      ['date_from=2026-03-02&date_to=2026-03-01', /^date_from must not be after date_to$/],
      ['date_from=2025-01-01&date_to=2026-01-02', /^date_to must be at most 366 days from date_from, both included \(2025-01-01 to 2026-01-02 is 367\)$/],
      ['period=year', /^period /],
      ['group_by=colour', /^group_by /],
      ['user_id=0', /^user_id /],
      [`user_id=${w.ws.adminId}`, /^user_id does not name an employee of this workspace$/],
      [`customer_id=${employee}`, /^customer_id does not name a customer \(distributor or retailer\) of this workspace$/],
      [`town_id=${w.otherTown}`, /^town_id does not name a town of this workspace$/],
      ['route_id=99999999', /^route_id does not name a route of this workspace$/],
      ['product_class_id=99999999', /^product_class_id /],
      ['production_unit_id=99999999', /^production_unit_id /],
      ['colour=red', /colour is not a known query parameter/],
    ];
    for (const [query, message] of cases) {
      const res = await report(query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().message, query).toMatch(message);
    }
  });

  it('roles: employees see the orders they booked (another’s id → 403); customers 403; API keys need the reports scope', async () => {
    const asEmployee = (query: string) => t.request({ method: 'GET', url: `/api/v1/reports/sales?${MARCH_APRIL}${query}`, token: w.e1.token });
    const own = await asEmployee('');
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data.filters.user_id).toBe(w.e1.id);
    expect(own.json().data.totals).toEqual(fig(152, 4, 2, 3));
    expect((await asEmployee(`&user_id=${w.e1.id}&group_by=customer`)).json().data.totals).toEqual(fig(152, 4, 2, 3));
    const others = await asEmployee(`&user_id=${w.e2.id}`);
    expect(others.json()).toEqual({ response_code: 403, message: 'Employees see only the orders they booked' });

    const retailer = await t.request({ method: 'GET', url: '/api/v1/reports/sales', token: w.r1.token });
    expect(retailer.statusCode).toBe(403);
    const admin = await t.request({ method: 'GET', url: `/api/v1/reports/sales?${MARCH_APRIL}`, token: w.ws.token });
    expect(admin.json().data.totals).toEqual(fig(386, 11, 4, 5));

    const ordersOnly = await createApiKey(t, w.ws, { scopes: 'read,orders' });
    expect((await t.request({ method: 'GET', url: '/api/v1/reports/sales', apiKey: ordersOnly.key })).statusCode).toBe(403);
  });

  it('another workspace sees only its own orders and cannot filter on this one’s records', async () => {
    const res = await t.request({ method: 'GET', url: `/api/v1/reports/sales?${MARCH_APRIL}`, token: w.other.token });
    expect(res.json().data.totals).toEqual(fig(55_000, 1000, 1, 1));
    const foreign = await t.request({ method: 'GET', url: `/api/v1/reports/sales?${MARCH_APRIL}&town_id=${w.t1}`, token: w.other.token });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('town_id does not name a town of this workspace');
  });
});

describe('the report budget on GET /reports/sales', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '120', RATE_LIMIT_PER_HOUR: '2000' });
  });
  afterAll(() => t.close());

  it('20 reports a minute per caller; the 21st → 429; another caller has its own', async () => {
    const w = await seedSalesReportWorld(t);
    const send = (token: string) => t.request({ method: 'GET', url: '/api/v1/reports/sales?period=day', token });
    for (let n = 1; n <= 20; n++) {
      const res = await send(w.ws.token);
      expect(res.statusCode, `report ${n}: ${res.body}`).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(20 - n));
    }
    const refused = await send(w.ws.token);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const employee = await createUser(t, w.ws, UserType.EMPLOYEE);
    expect((await send(employee.token)).statusCode).toBe(200);
  });
});

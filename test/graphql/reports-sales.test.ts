import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createUser } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { seedSalesReportWorld, type SalesReportWorld } from '../helpers/sales-report-fixture';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { UserType } from '../../src/domains/users/user.entity';

const SALES_REPORT = `query ($filter: SalesReportInput!) {
  salesReport(filter: $filter) {
    filters { dateFrom dateTo period groupBy userId customerId productClassId townId routeId productionUnitId }
    rows { period groupId groupName value quantity orders lines }
    totals { value quantity orders lines }
  }
}`;

/** GraphQL salesReport: the same service as GET /reports/sales, over the same hand-computed workspace. */
describe('GraphQL salesReport', () => {
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
  const report = async (filter: Record<string, unknown>, credential?: string | { apiKey: string }) => {
    if (credential === undefined && uses++ % 20 === 0) key = await w.reportKey();
    return t.graphql(SALES_REPORT, { filter }, credential ?? { apiKey: key });
  };
  const fig = (value: number, quantity: number, orders: number, lines: number) => ({ value, quantity, orders, lines });
  const MARCH_APRIL = { dateFrom: '2026-03-01', dateTo: '2026-04-30' };

  it('answers rows and totals by period and group, as REST does', async () => {
    const monthly = expectGraphqlData(await report(MARCH_APRIL)).salesReport;
    expect(monthly.filters).toEqual({ ...MARCH_APRIL, period: 'MONTH', groupBy: null, userId: null, customerId: null, productClassId: null, townId: null, routeId: null, productionUnitId: null });
    expect(monthly.rows).toEqual([
      { period: '2026-03-01', groupId: null, groupName: null, ...fig(266, 8, 3, 4) },
      { period: '2026-04-01', groupId: null, groupName: null, ...fig(120, 3, 1, 1) },
    ]);
    expect(monthly.totals).toEqual(fig(386, 11, 4, 5));

    const weekly = expectGraphqlData(await report({ ...MARCH_APRIL, period: 'WEEK', groupBy: 'EMPLOYEE' })).salesReport;
    expect(weekly.rows).toEqual([
      { period: '2026-03-02', groupId: w.e1.id, groupName: w.e1.name, ...fig(152, 4, 2, 3) },
      { period: '2026-03-09', groupId: w.e2.id, groupName: w.e2.name, ...fig(114, 4, 1, 1) },
      { period: '2026-03-30', groupId: null, groupName: null, ...fig(120, 3, 1, 1) },
    ]);
    const days = expectGraphqlData(await report({ dateFrom: '2026-03-02', dateTo: '2026-03-03', period: 'DAY', productClassId: w.curd.classId })).salesReport;
    expect(days.rows.map((r: { value: number }) => r.value)).toEqual([40, 0]);
    expect(days.totals).toEqual(fig(40, 1, 1, 1));
  });

  it('bad input → BAD_USER_INPUT naming the camelCase field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ dateFrom: '2026-02-30' }, /^dateFrom /],
      [{ dateFrom: '2026-03-02', dateTo: '2026-03-01' }, /^dateFrom must not be after dateTo$/],
      [{ dateFrom: '2025-01-01', dateTo: '2026-01-02' }, /^dateTo must be at most 366 days/],
      [{ townId: w.otherTown }, /^townId does not name a town of this workspace$/],
      [{ userId: -1 }, /^userId must be a positive integer$/],
      [{ customerId: w.e1.id }, /^customerId does not name a customer/],
    ];
    for (const [filter, message] of cases) expectGraphqlError(await report(filter), 'BAD_USER_INPUT', message);
  });

  it('roles: employees their own bookings, another’s → FORBIDDEN; customers FORBIDDEN; keys need the reports scope', async () => {
    const own = expectGraphqlData(await report(MARCH_APRIL, w.e2.token)).salesReport;
    expect(own.filters.userId).toBe(w.e2.id);
    expect(own.totals).toEqual(fig(114, 4, 1, 1));
    expectGraphqlError(await report({ userId: w.e1.id }, w.e2.token), 'FORBIDDEN', 'Employees see only the orders they booked');
    expectGraphqlError(await report({}, w.r1.token), 'FORBIDDEN');
    const ordersOnly = await createApiKey(t, w.ws, { scopes: 'read,orders' });
    expectGraphqlError(await report({}, { apiKey: ordersOnly.key }), 'FORBIDDEN');
    const other = expectGraphqlData(await report(MARCH_APRIL, w.other.token)).salesReport;
    expect(other.totals).toEqual(fig(55_000, 1000, 1, 1));
  });

  it('spends the report budget shared with REST: 20 a minute per caller, the 21st → RATE_LIMITED', async () => {
    const employee = await createUser(t, w.ws, UserType.EMPLOYEE);
    for (let n = 1; n <= 10; n++) {
      const rest = await t.request({ method: 'GET', url: '/api/v1/reports/sales', token: employee.token });
      expect(rest.statusCode, rest.body).toBe(200);
    }
    for (let n = 11; n <= 20; n++) expectGraphqlData(await report({}, employee.token));
    const refused = await report({}, employee.token);
    expectGraphqlError(refused, 'RATE_LIMITED');
    const rest = await t.request({ method: 'GET', url: '/api/v1/reports/sales', token: employee.token });
    expect(rest.statusCode).toBe(429);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const FIELDS = 'id periodType periodStart periodEnd targetAmount targetQuantity targetProductiveCalls targetOutlets user { id } productClass { id name }';
const CREATE = `mutation($input: CreateSalesTargetInput!) { createSalesTarget(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateSalesTargetInput!) { updateSalesTarget(id: $id, input: $input) { ${FIELDS} } }`;
const DELETE = `mutation($id: Int!) { deleteSalesTarget(id: $id) { id } }`;
const ONE = `query($id: Int!) { salesTarget(id: $id) { ${FIELDS} } }`;
const LIST = `query($period: String, $userId: Int, $periodType: SalesPeriodType, $sort: [SalesTargetSort!]) {
  salesTargets(period: $period, userId: $userId, periodType: $periodType, sort: $sort) { nodes { id } pageInfo { total } } }`;
const ACHIEVEMENT = `query($period: String, $userId: Int) { salesAchievement(period: $period, userId: $userId) {
  period periodType periodStart periodEnd asOf
  targets { target { id user { id } productClass { id } } workingDays workingDaysElapsed workingDaysRemaining leaveDays
    amount { target achieved achievementPct expectedToDate runRateNeeded }
    quantity { target achieved achievementPct expectedToDate runRateNeeded } } } }`;

/** The sales plan over GraphQL: the same service methods, rules and refusals as REST. */
describe('GraphQL sales plan', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let c: Catalog;
  let employee: { id: number; token: string };
  let colleague: { id: number; token: string };
  const gql = (query: string, variables?: Record<string, unknown>, credential: string | { apiKey: string } = ws.token) => t.graphql(query, variables, credential) as Promise<GraphqlAnswer>;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    c = await seedCatalog(t, ws);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    colleague = await createUser(t, ws, UserType.EMPLOYEE);
  });
  afterAll(() => t.close());

  it('creates, reads, lists, updates and deletes a target', async () => {
    const input = { userId: employee.id, periodType: 'QUARTER', periodStart: '2026-07-01', productClassId: c.productClassId, targetAmount: 90000, targetProductiveCalls: 300 };
    const { createSalesTarget: created } = expectGraphqlData(await gql(CREATE, { input }));
    expect(created).toEqual({
      id: expect.any(Number),
      periodType: 'QUARTER',
      periodStart: '2026-07-01',
      periodEnd: '2026-09-30',
      targetAmount: 90000,
      targetQuantity: null,
      targetProductiveCalls: 300,
      targetOutlets: null,
      user: { id: employee.id },
      productClass: { id: c.productClassId, name: expect.stringMatching(/^Milk /) },
    });
    expect(expectGraphqlData(await gql(ONE, { id: created.id })).salesTarget).toEqual(created);
    expectGraphqlError(await gql(CREATE, { input: { ...input, targetAmount: 1 } }), 'CONFLICT', /already has a quarterly target from 2026-07-01/);

    const { updateSalesTarget: updated } = expectGraphqlData(await gql(UPDATE, { id: created.id, input: { productClassId: null, targetQuantity: 40 } }));
    expect(updated).toMatchObject({ productClass: null, targetQuantity: 40, targetAmount: 90000 });
    const listed = expectGraphqlData(await gql(LIST, { period: '2026-Q3' })).salesTargets;
    expect(listed).toEqual({ nodes: [{ id: created.id }], pageInfo: { total: 1 } });
    expect(expectGraphqlData(await gql(DELETE, { id: created.id })).deleteSalesTarget).toEqual({ id: created.id });
    expectGraphqlError(await gql(ONE, { id: created.id }), 'NOT_FOUND');
  });

  it('names the camelCase field of bad input and writes nothing', async () => {
    const base = { userId: employee.id, periodType: 'MONTH', periodStart: '2026-11-01' };
    for (const [input, message] of [
      [base, 'targetAmount or targetQuantity is required'],
      [{ ...base, targetAmount: -1 }, /^targetAmount /],
      [{ ...base, targetQuantity: -2 }, /^targetQuantity /],
      [{ ...base, targetAmount: 5, periodStart: '2026-11-09' }, /^periodStart must be the first day of a month/],
      [{ ...base, targetAmount: 5, userId: c.retailerId }, 'userId does not name an employee of this workspace'],
      [{ ...base, targetAmount: 5, productClassId: 999999 }, 'productClassId does not name a product class of this workspace'],
    ] as const) {
      expectGraphqlError(await gql(CREATE, { input }), 'BAD_USER_INPUT', message);
    }
    expectGraphqlError(await gql(ACHIEVEMENT, { period: '2026-Q9' }), 'BAD_USER_INPUT', 'period must be a month YYYY-MM or a quarter YYYY-Qn');
    expect(expectGraphqlData(await gql(LIST, { period: '2026-11' })).salesTargets.pageInfo.total).toBe(0);
  });

  it('answers achievement from the orders the employee booked, as REST does', async () => {
    const [half, litre] = c.variantIds;
    const order = (token: string, date: string, variant: number, quantity: number) =>
      placeOrder(t, token, { user_id: c.retailerId, order_date: date, items: [{ product_variant_id: variant, quantity }] });
    await order(employee.token, '2025-03-03', half, 10); // 285.00
    await order(employee.token, '2025-03-31', litre, 2); // 110.00
    await order(employee.token, '2025-04-01', litre, 9); // April: not March
    const cancelled = await order(employee.token, '2025-03-20', litre, 4);
    expect((await t.request({ method: 'POST', url: `/api/v1/orders/${cancelled.id}/cancel`, token: ws.token, payload: { reason: 'Duplicate' } })).statusCode).toBe(200);
    await order(colleague.token, '2025-03-05', litre, 1);
    const { createSalesTarget: target } = expectGraphqlData(await gql(CREATE, { input: { userId: employee.id, periodType: 'MONTH', periodStart: '2025-03-01', targetAmount: 790, targetQuantity: 24 } }));
    const { salesAchievement } = expectGraphqlData(await gql(ACHIEVEMENT, { period: '2025-03', userId: employee.id }));
    // March 2025: 31 days, Sundays 2, 9, 16, 23, 30 → 26 working days, all elapsed.
    expect(salesAchievement).toEqual({
      period: '2025-03',
      periodType: 'MONTH',
      periodStart: '2025-03-01',
      periodEnd: '2025-03-31',
      asOf: expect.any(String),
      targets: [
        {
          target: { id: target.id, user: { id: employee.id }, productClass: null },
          workingDays: 26,
          workingDaysElapsed: 26,
          workingDaysRemaining: 0,
          leaveDays: 0,
          amount: { target: 790, achieved: 395, achievementPct: 50, expectedToDate: 790, runRateNeeded: null },
          quantity: { target: 24, achieved: 12, achievementPct: 50, expectedToDate: 24, runRateNeeded: null },
        },
      ],
    });
    // The employee sees theirs; asking for a colleague's is refused.
    expect(expectGraphqlData(await gql(ACHIEVEMENT, { period: '2025-03' }, employee.token)).salesAchievement.targets).toHaveLength(1);
    expectGraphqlError(await gql(ACHIEVEMENT, { period: '2025-03', userId: colleague.id }, employee.token), 'FORBIDDEN');
    expect(expectGraphqlData(await gql(ACHIEVEMENT, { period: '2025-03' }, colleague.token)).salesAchievement.targets).toEqual([]);
  });

  it('roles, keys and workspaces: employees read their own, customers and other workspaces are refused', async () => {
    const { createSalesTarget: mine } = expectGraphqlData(await gql(CREATE, { input: { userId: employee.id, periodType: 'MONTH', periodStart: '2027-01-01', targetQuantity: 5 } }));
    const { createSalesTarget: theirs } = expectGraphqlData(await gql(CREATE, { input: { userId: colleague.id, periodType: 'MONTH', periodStart: '2027-01-01', targetQuantity: 6 } }));
    expect(expectGraphqlData(await gql(LIST, { period: '2027-01', userId: colleague.id }, employee.token)).salesTargets.nodes).toEqual([{ id: mine.id }]);
    expectGraphqlError(await gql(ONE, { id: theirs.id }, employee.token), 'NOT_FOUND');
    expectGraphqlError(await gql(UPDATE, { id: mine.id, input: { targetQuantity: 500 } }, employee.token), 'FORBIDDEN');
    expectGraphqlError(await gql(DELETE, { id: mine.id }, employee.token), 'FORBIDDEN');
    expectGraphqlError(await gql(LIST, {}, c.distributorToken), 'FORBIDDEN');
    expectGraphqlError(await gql(ACHIEVEMENT, {}, c.distributorToken), 'FORBIDDEN');

    for (const op of [gql(ONE, { id: mine.id }, other.token), gql(UPDATE, { id: mine.id, input: { targetQuantity: 1 } }, other.token), gql(DELETE, { id: mine.id }, other.token)]) {
      expectGraphqlError(await op, 'NOT_FOUND');
    }
    const readOnly = await createApiKey(t, ws, { scopes: 'read,sales_plan' });
    expect(expectGraphqlData(await gql(ONE, { id: mine.id }, { apiKey: readOnly.key })).salesTarget.targetQuantity).toBe(5);
    expectGraphqlError(await gql(DELETE, { id: mine.id }, { apiKey: readOnly.key }), 'FORBIDDEN');
    const elsewhere = await createApiKey(t, ws, { scopes: 'read,write,orders' });
    expectGraphqlError(await gql(ONE, { id: mine.id }, { apiKey: elsewhere.key }), 'FORBIDDEN');
    expect(expectGraphqlData(await gql(ONE, { id: mine.id })).salesTarget.targetQuantity).toBe(5);
  });
});

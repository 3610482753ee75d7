import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, placeOrder, seedCatalog } from '../helpers/fixtures';
import { checkInBody, checkOutBody, createOutlet } from '../helpers/visit-fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Productive calls and outlets covered, measured from the employee's visits against the target's call and outlet figures. */
describe('sales plan achievement: productive calls and outlets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('counts completed visits that ended with an order, and the distinct outlets of completed visits; abandoned ones count for nothing', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const other = await createUser(t, ws, UserType.EMPLOYEE);
    const today = new Date().toISOString().slice(0, 10);
    const target = await t.request({
      method: 'POST',
      url: '/api/v1/sales-plan/targets',
      token: ws.token,
      payload: { user_id: employee.id, period_type: 1, period_start: `${today.slice(0, 7)}-01`, target_amount: 1000, target_productive_calls: 4, target_outlets: 3 },
    });
    expect(target.statusCode, target.body).toBe(201);
    const [a, b, c] = [await createOutlet(t, ws), await createOutlet(t, ws), await createOutlet(t, ws)];

    const visit = async (token: string, outletId: number, checkOut: Record<string, unknown> | 'abandon') => {
      const opened = await t.request({ method: 'POST', url: '/api/v1/visits/check-in', token, payload: checkInBody(outletId) });
      expect(opened.statusCode, opened.body).toBe(201);
      const id = opened.json().data.id;
      const closed =
        checkOut === 'abandon'
          ? await t.request({ method: 'POST', url: `/api/v1/visits/${id}/abandon`, token, payload: {} })
          : await t.request({ method: 'POST', url: `/api/v1/visits/${id}/check-out`, token, payload: checkOutBody(checkOut) });
      expect(closed.statusCode, closed.body).toBe(200);
    };
    const order = await placeOrder(t, employee.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] });
    await visit(employee.token, a, { outcome: 1, order_id: order.id }); // productive, outlet a
    await visit(employee.token, b, { outcome: 3 }); // collection only, outlet b
    await visit(employee.token, a, { outcome: 4 }); // a phone call at a again: no new outlet
    await visit(employee.token, c, 'abandon'); // abandoned: neither
    await visit(other.token, c, { outcome: 3 }); // someone else's

    const res = await t.request({ method: 'GET', url: `/api/v1/sales-plan/achievement?period=${today.slice(0, 7)}&user_id=${employee.id}`, token: ws.token });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = res.json().data.targets;
    expect(row.productive_calls).toMatchObject({ target: 4, achieved: 1, achievement_pct: 25 });
    expect(row.outlets).toMatchObject({ target: 3, achieved: 2 });
    expect(row.outlets.achievement_pct).toBeCloseTo(66.67, 2);
    expect(row.amount).toMatchObject({ target: 1000, achieved: order.order_total_amount });

    const gql = await t.graphql(
      `query($userId: Int) { salesAchievement(userId: $userId) { targets { productiveCalls { target achieved } outlets { target achieved } } } }`,
      { userId: employee.id },
      ws.token,
    );
    expect(gql.errors, JSON.stringify(gql.errors)).toBeUndefined();
    expect((gql.data as any).salesAchievement.targets).toEqual([{ productiveCalls: { target: 4, achieved: 1 }, outlets: { target: 3, achieved: 2 } }]);
  });
});

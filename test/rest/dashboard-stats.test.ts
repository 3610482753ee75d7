import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, uniquePhone } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** GET /dashboard/stats against hand-computed numbers, on the workspace's local day. */
describe('dashboard statistics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const stats = (token: string) => t.request({ method: 'GET', url: '/api/v1/dashboard/stats', token });
  const sql = <T extends object[]>(query: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute<T>(query, params);
  const ZERO = {
    order_initiated_count: 0,
    order_forwarded_count: 0,
    order_approved_count: 0,
    order_delivered_count: 0,
    total_employees: 0,
    today_attendance: 0,
    total_tagged_outlets: 0,
    today_tagged_outlets: 0,
    today_revenue: 0,
    pending_amount: 0,
    total_collection: 0,
    today_collection: 0,
  };

  it('is all zeros for a new workspace', async () => {
    const ws = await createWorkspace(t);
    const res = await stats(ws.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ response_code: 200, data: ZERO });
  });

  it('counts orders, people, outlets and money, with "today" the local day', async () => {
    const ws = await createWorkspace(t);
    // A zone whose date differs from UTC's right now, so local and UTC days cannot be confused.
    const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    expect((await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { time_zone: zone } })).statusCode).toBe(200);
    const [{ today, starts }] = await sql<{ today: string; starts: Date }[]>(
      `select to_char((now() at time zone ?)::date, 'YYYY-MM-DD') as today, ((now() at time zone ?)::date::timestamp at time zone ?) as starts`,
      [zone, zone, zone],
    );

    const catalog = await seedCatalog(t, ws);
    const order = async (quantity: number, orderDate = today) =>
      placeOrder(t, ws.token, { user_id: catalog.distributorId, order_date: orderDate, items: [{ product_variant_id: catalog.variantIds[0], quantity }] });
    const move = async (id: number, ...statuses: number[]) => {
      for (const s of statuses) {
        const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload: { order_status: s } });
        expect(res.statusCode, res.body).toBe(200);
      }
    };
    const o1 = await order(1);
    const o2 = await order(2);
    const o3 = await order(3);
    const o4 = await order(4);
    const old = await order(5, '2020-01-15'); // delivered long ago, not today's revenue
    await move(o2.id, 2);
    await move(o3.id, 2, 3);
    await move(o4.id, 2, 3, 4);
    await move(old.id, 2, 3, 4);
    const total = (o: Record<string, unknown>) => o.order_total_amount as number;

    const pay = async (orderId: number, amount: number, paidAt: Date) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/payments', token: ws.token, payload: { order_id: orderId, amount, paid_at: paidAt.toISOString() } });
      expect(res.statusCode, res.body).toBe(201);
    };
    const startOfToday = new Date(starts);
    await pay(o4.id, 1.25, new Date(startOfToday.getTime() + 60_000)); // today, just after local midnight
    await pay(old.id, 2.5, new Date(startOfToday.getTime() - 60_000)); // yesterday, just before it
    await pay(old.id, total(old) - 2.5, new Date(startOfToday.getTime() - 120_000)); // the old order fully paid

    const [e1, e2, e3] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    await sql('update app_user set status = 0 where id = ?', [e3.id]); // inactive: not counted
    for (const who of [e1, { token: ws.token }]) expect((await t.request({ method: 'POST', url: '/api/v1/attendance/check-in', token: who.token })).statusCode).toBe(201);
    await sql('insert into attendance (organization_id, user_id, day, check_in_at) values (?, ?, ?::date - 1, now() - interval \'1 day\')', [ws.organizationId, e2.id, today]);

    const town = (await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: 'Stats Town' } })).json().data.id;
    const route = (await t.request({ method: 'POST', url: '/api/v1/masters/routes', token: ws.token, payload: { route_name: 'Stats Route', town_id: town } })).json().data.id;
    const outlet = async (name: string) =>
      (await t.request({ method: 'POST', url: '/api/v1/masters/outlets', token: ws.token, payload: { outlet_name: name, route_id: route, town_id: town, phone: uniquePhone() } })).json().data.id;
    const [taggedToday, taggedBefore] = [await outlet('Tagged today'), await outlet('Tagged before')];
    await outlet('Never tagged');
    for (const id of [taggedToday, taggedBefore]) {
      expect((await t.request({ method: 'POST', url: `/api/v1/masters/outlets/${id}/tag`, token: ws.token, payload: { latitude: 1, longitude: 2 } })).statusCode).toBe(200);
    }
    await sql('update outlet set tagged_at = ? where id = ?', [new Date(startOfToday.getTime() - 1000), taggedBefore]);

    const res = await stats(ws.token);
    expect(res.statusCode, res.body).toBe(200);
    const round = (n: number) => Math.round(n * 100) / 100;
    expect(res.json().data).toEqual({
      order_initiated_count: 1,
      order_forwarded_count: 1,
      order_approved_count: 1,
      order_delivered_count: 2,
      total_employees: 3 - 1,
      today_attendance: 2,
      total_tagged_outlets: 2,
      today_tagged_outlets: 1,
      today_revenue: round(total(o1) + total(o2) + total(o3) + total(o4)),
      pending_amount: round(total(o4) - 1.25), // the old delivered order is fully paid
      total_collection: round(1.25 + total(old)),
      today_collection: 1.25,
    });

    // GraphQL gives the same numbers; API keys (dashboard scope) may read; customers may not.
    const gql = await t.graphql<{ dashboardStats: { orderDeliveredCount: number; pendingAmount: number } }>('{ dashboardStats { orderDeliveredCount pendingAmount } }', {}, ws.token);
    expect(gql.data?.dashboardStats).toEqual({ orderDeliveredCount: 2, pendingAmount: round(total(o4) - 1.25) });
    const key = await createApiKey(t, ws, { scopes: 'dashboard' });
    expect((await t.request({ method: 'GET', url: '/api/v1/dashboard/stats', apiKey: key.key })).json().data).toEqual(res.json().data);
    const customer = await createUser(t, ws, UserType.RETAILER);
    expect((await stats(customer.token)).statusCode).toBe(403);
    // Another workspace sees none of it.
    expect((await stats((await createWorkspace(t)).token)).json().data).toEqual(ZERO);
  });

  it('costs one SQL statement', async () => {
    const ws = await createWorkspace(t);
    t.queries.reset();
    expect((await stats(ws.token)).statusCode).toBe(200);
    const statements = t.queries.statements.filter((s) => /select|insert|update/i.test(s) && !/app_user u join organization/.test(s));
    expect(statements).toHaveLength(1);
  });
});

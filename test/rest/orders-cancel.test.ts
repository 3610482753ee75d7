import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRollups } from '../../src/domains/dashboard/rollups';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, signIn, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** POST /orders/{id}/cancel: the cancel fields, the history entry, the 409s, the dashboard and the webhook event. */
describe('POST /api/v1/orders/{id}/cancel', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;
  let retailerToken: string;

  const newOrder = async (quantity = 2, w: Workspace = ws, c: Catalog = catalog) =>
    (await placeOrder(t, w.token, { user_id: c.distributorId, items: [{ product_variant_id: c.variantIds[0], quantity }] })).id;
  const cancel = (id: number, payload: Record<string, unknown> = { reason: 'Customer changed their mind' }, token = ws.token) =>
    t.request({ method: 'POST', url: `/api/v1/orders/${id}/cancel`, token, payload });
  const move = async (id: number, ...statuses: number[]) => {
    for (const s of statuses) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload: { order_status: s } });
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const detail = async (id: number) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/orders/${id}`, token: ws.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const stats = async (w: Workspace = ws) => (await t.request({ method: 'GET', url: '/api/v1/dashboard/stats', token: w.token })).json().data;
  const listIds = async (query: string, w: Workspace = ws) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/orders${query}`, token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((o: { id: number }) => o.id);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    retailerToken = await signIn(t, ws, catalog.retailerId);
  });
  afterAll(() => t?.close());

  it('cancels an order: it keeps its status, records when, why and by whom, and its history shows the cancel', async () => {
    const id = await newOrder();
    await move(id, 2);
    const res = await cancel(id, { reason: '  Duplicate order  ' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      response_code: 200,
      message: 'Order cancelled',
      data: {
        id,
        order_status: 2,
        cancelled_at: expect.any(String),
        cancel_reason: 'Duplicate order',
        cancelled_by_user_id: ws.adminId,
        cancelled_by_api_key_id: null,
        updatedAt: expect.any(String),
      },
    });
    const d = await detail(id);
    expect(d.order_status).toBe(2);
    expect(d).toMatchObject({ cancelled_at: body.data.cancelled_at, cancel_reason: 'Duplicate order', cancelled_by_user_id: ws.adminId, cancelled_by_api_key_id: null });
    expect(d.status_history.map((h: Record<string, unknown>) => [h.from_status, h.to_status, h.cancellation])).toEqual([
      [null, 1, false],
      [1, 2, false],
      [2, 2, true],
    ]);
    expect(d.status_history[2]).toMatchObject({ changed_at: body.data.cancelled_at, changed_by_user_id: ws.adminId });
  });

  it('an API key cancels, recorded as the key', async () => {
    const key = await createApiKey(t, ws, { scopes: 'orders,write' });
    const id = await newOrder();
    const res = await t.request({ method: 'POST', url: `/api/v1/orders/${id}/cancel`, apiKey: key.key, payload: { reason: 'Out of stock' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ cancelled_by_user_id: null, cancelled_by_api_key_id: key.id });
    expect((await detail(id)).status_history[1]).toMatchObject({ cancellation: true, changed_by_user_id: null, changed_by_api_key_id: key.id });
  });

  it('a cancelled order cannot move, cannot be cancelled again, and a delivered one cannot be cancelled (409), nothing changing', async () => {
    const id = await newOrder();
    expect((await cancel(id)).statusCode).toBe(200);
    const before = await detail(id);
    const again = await cancel(id, { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^Order ORD-\d{4}-\d{6} was cancelled at .*; it can no longer change$/);
    const moved = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload: { order_status: 2 } });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toMatch(/was cancelled at/);
    expect(await detail(id)).toEqual(before);

    const delivered = await newOrder();
    await move(delivered, 2, 3, 4);
    const refused = await cancel(delivered);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/is Delivered \(4\); a delivered order cannot be cancelled$/);
    expect((await detail(delivered)).cancelled_at).toBeNull();
  });

  it('a reason is required (400 naming it); customers cannot cancel (403); another workspace\'s order is 404', async () => {
    const id = await newOrder();
    for (const payload of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const res = await cancel(id, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0].field).toBe('reason');
    }
    expect((await cancel(id, undefined, retailerToken)).statusCode).toBe(403);
    expect((await cancel(id, undefined, catalog.distributorToken)).statusCode).toBe(403);
    expect((await cancel(id, undefined, other.token)).statusCode).toBe(404);
    expect((await cancel(999999999)).statusCode).toBe(404);
    expect((await detail(id)).cancelled_at).toBeNull();
  });

  it('leaves the dashboard counts and revenue, and the rollups agree with the rows', async () => {
    const w = await createWorkspace(t);
    const c = await seedCatalog(t, w);
    const a = await newOrder(2, w, c); // 57.00
    const b = await newOrder(4, w, c); // 114.00
    const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${b}/status`, token: w.token, payload: { order_status: 2 } });
    expect(res.statusCode).toBe(200);
    const before = await stats(w);
    expect(before).toMatchObject({ order_initiated_count: 1, order_forwarded_count: 1, today_revenue: 171 });

    expect((await cancel(b, { reason: 'Wrong customer' }, w.token)).statusCode).toBe(200);
    expect(await stats(w)).toMatchObject({ order_initiated_count: 1, order_forwarded_count: 0, today_revenue: 57 });
    expect((await cancel(a, { reason: 'Wrong customer' }, w.token)).statusCode).toBe(200);
    expect(await stats(w)).toMatchObject({ order_initiated_count: 0, order_forwarded_count: 0, today_revenue: 0, pending_amount: 0 });

    const monthly = await t.request({ method: 'GET', url: '/api/v1/dashboard/monthly-sales', token: w.token });
    expect(monthly.statusCode, monthly.body).toBe(200);
    expect(JSON.stringify(monthly.json().data)).not.toMatch(/"(quantity|total_quantity|sales)":[1-9]/);
    const check = await checkRollups(t.orm.em.fork(), w.organizationId);
    expect(check.differing, JSON.stringify(check.listed)).toBe(0);
  });

  it('a cancelled order takes no payments (409), and its rollups stay as the cancel left them', async () => {
    const w = await createWorkspace(t);
    const c = await seedCatalog(t, w);
    const id = await newOrder(2, w, c); // 57.00
    const pay = (amount: number) => t.request({ method: 'POST', url: '/api/v1/payments', token: w.token, payload: { order_id: id, amount } });
    expect((await pay(10)).statusCode).toBe(201);
    expect((await cancel(id, { reason: 'Duplicate' }, w.token)).statusCode).toBe(200);
    const refused = await pay(5);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(`Order ${id} is cancelled: it takes no payments`);
    const listed = await t.request({ method: 'GET', url: `/api/v1/payments?order_id=${id}`, token: w.token });
    expect(listed.json().data.map((p: { amount: number }) => p.amount)).toEqual([10]);
    const check = await checkRollups(t.orm.em.fork(), w.organizationId);
    expect(check.differing, JSON.stringify(check.listed)).toBe(0);
  });

  it('emits order.cancelled in the same transaction', async () => {
    const w = await createWorkspace(t);
    const c = await seedCatalog(t, w);
    // An endpoint subscribed to order.cancelled only, written directly: creating one over REST resolves its host.
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`insert into webhook_endpoint (organization_id, name, url, events) values (?, 'Cancels', 'https://hooks.example/in', 'order.cancelled')`, [w.organizationId]);
    const id = await newOrder(1, w, c);
    expect((await cancel(id, { reason: 'Closed shop' }, w.token)).statusCode).toBe(200);
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ event_type: string; event_data: Record<string, unknown> }>>(`select event_type, event_data from webhook_delivery where organization_id = ? order by id`, [w.organizationId]);
    expect(rows.map((r) => r.event_type)).toEqual(['order.cancelled']);
    expect(rows[0].event_data).toMatchObject({ id, order_status: 1, cancel_reason: 'Closed shop', cancelled_by_user_id: w.adminId, cancelled_by_api_key_id: null });
  });

  it('lists show the cancel fields and take cancelled=true|false (default both)', async () => {
    const w = await createWorkspace(t);
    const c = await seedCatalog(t, w);
    const kept = await newOrder(1, w, c);
    const gone = await newOrder(1, w, c);
    expect((await cancel(gone, { reason: 'No longer needed' }, w.token)).statusCode).toBe(200);
    expect(await listIds('', w)).toEqual([gone, kept]);
    expect(await listIds('?cancelled=true', w)).toEqual([gone]);
    expect(await listIds('?cancelled=false', w)).toEqual([kept]);
    const res = await t.request({ method: 'GET', url: '/api/v1/orders', token: w.token });
    const [first, second] = res.json().data;
    expect(first).toMatchObject({ id: gone, cancelled_at: expect.any(String), cancel_reason: 'No longer needed', cancelled_by_user_id: w.adminId, cancelled_by_api_key_id: null });
    expect(second).toMatchObject({ id: kept, cancelled_at: null, cancel_reason: null, cancelled_by_user_id: null, cancelled_by_api_key_id: null });
    const bad = await t.request({ method: 'GET', url: '/api/v1/orders?cancelled=maybe', token: w.token });
    expect(bad.statusCode).toBe(400);
  });

  it('an employee may cancel; the order keeps its lines', async () => {
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const id = await newOrder(3);
    const res = await cancel(id, { reason: 'Route closed' }, employee.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cancelled_by_user_id).toBe(employee.id);
    expect((await detail(id)).items).toHaveLength(1);
  });
});

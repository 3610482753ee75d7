import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/** Payments (collections) against orders: never more than an order owes. */
describe('payments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const pay = (token: string, payload: object) => t.request({ method: 'POST', url: '/api/v1/payments', token, payload });
  const list = (token: string, query = '') => t.request({ method: 'GET', url: `/api/v1/payments${query}`, token });

  /** A workspace with one order; returns the order's id, code and total. */
  async function withOrder(): Promise<{ ws: Workspace; order: { id: number; code: string; total: number } }> {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const order = await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 3 }] });
    return { ws, order: { id: order.id, code: order.order_code as string, total: order.order_total_amount as number } };
  }

  it('records part payments up to the order total, and refuses more', async () => {
    const { ws, order } = await withOrder();
    const first = await pay(ws.token, { order_id: order.id, amount: 10.5, mode_of_payment: 'upi', reference: 'UTR123' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({
      response_code: 201,
      message: 'Payment recorded',
      data: {
        id: expect.any(Number),
        order_id: order.id,
        order_code: order.code,
        customer_id: expect.any(Number),
        amount: 10.5,
        mode_of_payment: 'upi',
        paid_at: expect.any(String),
        reference: 'UTR123',
        voids_payment_id: null,
        void_reason: null,
        allocations: [],
        unallocated_amount: 0,
        created_at: expect.any(String),
      },
    });
    const rest = Math.round((order.total - 10.5) * 100) / 100;
    const over = await pay(ws.token, { order_id: order.id, amount: rest + 0.01 });
    expect(over.json()).toEqual(errorEnvelope(400, `amount is more than the order still owes (${rest.toFixed(2)})`));
    expect((await pay(ws.token, { order_id: order.id, amount: rest })).statusCode).toBe(201);
    expect((await pay(ws.token, { order_id: order.id, amount: 0.01 })).json().message).toBe('amount is more than the order still owes (0.00)');
    const listed = await list(ws.token, `?order_id=${order.id}`);
    expect(listed.json().pagination.total).toBe(2);
  });

  it('serializes concurrent payments of one order: they cannot overpay it together', async () => {
    const { ws, order } = await withOrder();
    const half = Math.round((order.total / 2) * 100) / 100 + 0.01;
    const answers = await Promise.all([pay(ws.token, { order_id: order.id, amount: half }), pay(ws.token, { order_id: order.id, amount: half })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400]);
  });

  it('validates every field, recording nothing', async () => {
    const { ws, order } = await withOrder();
    const other = await withOrder();
    for (const [payload, message] of [
      [{ order_id: order.id, amount: 0 }, /^amount /],
      [{ order_id: order.id, amount: -5 }, /^amount /],
      [{ order_id: order.id, amount: 1.005 }, 'amount must have at most two decimal places'],
      [{ order_id: order.id, amount: 1, mode_of_payment: 'barter' }, /^mode_of_payment /],
      [{ order_id: order.id, amount: 1, paid_at: 'yesterday' }, /^paid_at /],
      [{ order_id: order.id, amount: 1, paid_at: new Date(Date.now() + 86_400_000).toISOString() }, 'paid_at must not be in the future'],
      [{ order_id: other.order.id, amount: 1 }, 'order_id does not name an order of this workspace'],
      [{ amount: 1 }, /^order_id /],
    ] as const) {
      const res = await pay(ws.token, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await list(ws.token)).json().pagination.total).toBe(0);
    expect((await list(ws.token, '?date_from=2026-02-01&date_to=2026-01-01')).json()).toEqual(errorEnvelope(400, 'date_from must not be after date_to'));
  });

  it('filters by local day, is staff-only, accepts API keys, and keeps workspaces apart', async () => {
    const { ws, order } = await withOrder();
    // 23:30 UTC on 1 March is 2 March in Asia/Kolkata (UTC+5:30).
    expect((await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { time_zone: 'Asia/Kolkata' } })).statusCode).toBe(200);
    expect((await pay(ws.token, { order_id: order.id, amount: 1, paid_at: '2026-03-01T23:30:00Z' })).statusCode).toBe(201);
    expect((await list(ws.token, '?date_from=2026-03-02&date_to=2026-03-02')).json().pagination.total).toBe(1);
    expect((await list(ws.token, '?date_from=2026-03-01&date_to=2026-03-01')).json().pagination.total).toBe(0);

    const key = await createApiKey(t, ws, { scopes: 'payments,write' });
    const byKey = await t.request({ method: 'POST', url: '/api/v1/payments', apiKey: key.key, payload: { order_id: order.id, amount: 1 } });
    expect(byKey.statusCode, byKey.body).toBe(201);
    const customer = await createUser(t, ws, UserType.DISTRIBUTOR);
    expect((await pay(customer.token, { order_id: order.id, amount: 1 })).statusCode).toBe(403);
    expect((await list(customer.token)).statusCode).toBe(403);
    const other = await createWorkspace(t);
    expect((await list(other.token)).json().pagination.total).toBe(0);
  });

  it('filters up to the last day a date can name (9999-12-31), not a 500 for the day after it', async () => {
    // Found by the API fuzz: the bound after 9999-12-31 was written +010000-01-01, which PostgreSQL refused.
    const { ws, order } = await withOrder();
    expect((await pay(ws.token, { order_id: order.id, amount: 1 })).statusCode).toBe(201);
    const all = await list(ws.token, '?date_from=0001-01-01&date_to=9999-12-31');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().pagination.total).toBe(1);
    const none = await list(ws.token, '?date_from=9999-12-31&date_to=9999-12-31');
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().pagination.total).toBe(0);
    const gql = await t.graphql<{ payments: { pageInfo: { total: number } } }>('{ payments(dateTo: "9999-12-31") { pageInfo { total } } }', {}, ws.token);
    expect(gql.errors).toBeUndefined();
    expect(gql.data?.payments.pageInfo.total).toBe(1);
  });

  it('works over GraphQL', async () => {
    const { ws, order } = await withOrder();
    const res = await t.graphql<{ recordPayment: { amount: number; order: { id: number } } }>(
      'mutation($input: RecordPaymentInput!) { recordPayment(input: $input) { amount order { id } } }',
      { input: { orderId: order.id, amount: 2.5 } },
      ws.token,
    );
    expect(res.data?.recordPayment).toEqual({ amount: 2.5, order: { id: order.id } });
    const page = await t.graphql<{ payments: { pageInfo: { total: number } } }>('{ payments { pageInfo { total } } }', {}, ws.token);
    expect(page.data?.payments.pageInfo.total).toBe(1);
  });
});

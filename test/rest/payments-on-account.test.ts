import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRollups } from '../../src/domains/dashboard/rollups';
import { verifyLedger } from '../../src/domains/ledger/ledger-verify';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * On-account payments (no order) over REST: allocated oldest-first (delivery date, then id) over
 * the customer's open delivered orders, the rest an advance; a later allocate; a void reversing the
 * allocations; direct payments counting allocations; concurrency; tenancy; 400s. After each, the
 * ledger's invariant and the dashboard's rollups still hold.
 */
describe('on-account payments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const api = (ws: Workspace, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => t.request({ method, url: `/api/v1${url}`, payload, token: ws.token });
  const ok = async (ws: Workspace, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await api(ws, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json().data;
  };
  const deliver = async (ws: Workspace, orderId: number) => {
    for (const status of [2, 3, 4]) await ok(ws, 'PATCH', `/orders/${orderId}/status`, { order_status: status });
  };
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  /** An order of `customer` for `quantity` of variant `variant` (28.50 or 55.00), due `offset` days from now, delivered unless told. */
  const order = async (ws: Workspace, catalog: Catalog, customer: number, variant: number, quantity: number, offset: number, delivered = true): Promise<number> => {
    const placed = await placeOrder(t, ws.token, { user_id: customer, delivery_date: day(offset), items: [{ product_variant_id: catalog.variantIds[variant], quantity }] });
    if (delivered) await deliver(ws, placed.id);
    return placed.id;
  };
  const holds = async (ws: Workspace) => {
    const em = t.orm.em.fork();
    const ledger = await verifyLedger(em, ws.organizationId);
    expect(ledger.differences).toEqual([]);
    expect(ledger.badReversals).toEqual([]);
    expect((await checkRollups(em, ws.organizationId)).listed).toEqual([]);
  };
  const closing = async (ws: Workspace, customer: number) => (await ok(ws, 'GET', `/ledger/statement?customer_id=${customer}&from=2000-01-01&to=${day(30)}`)).closing_balance;

  it('allocates oldest-first over three orders with a partial last one; the rest is an advance, allocated later; a direct payment cannot overpay after it', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const customer = catalog.retailerId;
    // Delivery dates out of id order: oldest first is b (+1), c (+2), a (+3).
    const a = await order(ws, catalog, customer, 0, 2, 3); // 57.00
    const b = await order(ws, catalog, customer, 1, 1, 1); // 55.00
    const c = await order(ws, catalog, customer, 1, 2, 2); // 110.00
    await order(ws, catalog, customer, 1, 5, 0, false); // not delivered: owes nothing yet
    await order(ws, catalog, catalog.distributorId, 1, 5, 0); // another customer's
    expect((await api(ws, 'POST', '/payments', { order_id: b, amount: 5 })).statusCode).toBe(201);

    const first = await api(ws, 'POST', '/payments', { customer_id: customer, amount: 190, mode_of_payment: 'bank_transfer', reference: 'UTR-9' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      order_id: null,
      order_code: null,
      customer_id: customer,
      amount: 190,
      allocations: [
        { order_id: b, amount: 50 },
        { order_id: c, amount: 110 },
        { order_id: a, amount: 30 },
      ],
      unallocated_amount: 0,
    });
    const second = await ok(ws, 'POST', '/payments', { customer_id: customer, amount: 40 });
    expect(second).toMatchObject({ allocations: [{ order_id: a, amount: 27 }], unallocated_amount: 13 });

    // Every order is paid in full now: a direct payment counts the allocations.
    for (const id of [a, b, c]) expect((await api(ws, 'POST', '/payments', { order_id: id, amount: 0.01 })).json().message).toBe('amount is more than the order still owes (0.00)');
    // Nothing is owed: nothing to allocate.
    const none = await api(ws, 'POST', `/payments/${second.id}/allocate`);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toMatch(/owes anything: 13\.00 stays unallocated/);

    // The ledger: one credit per payment, on account too; the balance is delivered − paid.
    const statement = await ok(ws, 'GET', `/ledger/statement?customer_id=${customer}&from=2000-01-01&to=${day(30)}`);
    expect(statement.rows.filter((r: { payment_id: number | null }) => r.payment_id === first.json().data.id)).toMatchObject([{ kind: 2, credit: 190, narration: 'Payment (bank_transfer) on account' }]);
    expect(statement.closing_balance).toBeCloseTo(57 + 55 + 110 - 5 - 190 - 40, 2);
    expect(statement.ageing.advance).toBeCloseTo(13, 2);
    await holds(ws);

    // An order delivered since: the advance settles it.
    const d = await order(ws, catalog, customer, 0, 2, 4); // 57.00
    const allocated = await api(ws, 'POST', `/payments/${second.id}/allocate`);
    expect(allocated.statusCode, allocated.body).toBe(200);
    expect(allocated.json()).toMatchObject({ message: 'Payment allocated', data: { id: second.id, allocations: [{ order_id: a, amount: 27 }, { order_id: d, amount: 13 }], unallocated_amount: 0 } });
    expect((await api(ws, 'POST', `/payments/${second.id}/allocate`)).json().message).toMatch(/fully allocated/);
    expect((await api(ws, 'POST', '/payments', { order_id: d, amount: 44.01 })).statusCode).toBe(400);
    expect((await api(ws, 'POST', '/payments', { order_id: d, amount: 44 })).statusCode).toBe(201);
    await holds(ws);

    const listed = await ok(ws, 'GET', `/payments?customer_id=${customer}&sort=id`);
    expect(listed.map((p: { order_id: number | null; amount: number }) => [p.order_id, p.amount])).toEqual([
      [b, 5],
      [null, 190],
      [null, 40],
      [d, 44],
    ]);
  });

  it('a void reverses the allocations (negated rows on the void): the orders owe again, the ledger posts the reversal; once', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const customer = catalog.distributorId;
    const a = await order(ws, catalog, customer, 0, 2, 1); // 57.00
    const b = await order(ws, catalog, customer, 1, 1, 2); // 55.00
    const paid = await ok(ws, 'POST', '/payments', { customer_id: customer, amount: 100 });
    expect(paid.allocations).toEqual([
      { order_id: a, amount: 57 },
      { order_id: b, amount: 43 },
    ]);
    const before = await closing(ws, customer);

    const voided = await api(ws, 'POST', `/payments/${paid.id}/void`, { reason: 'Cheque bounced' });
    expect(voided.statusCode, voided.body).toBe(201);
    expect(voided.json().data).toMatchObject({
      order_id: null,
      customer_id: customer,
      amount: -100,
      voids_payment_id: paid.id,
      allocations: [
        { order_id: a, amount: -57 },
        { order_id: b, amount: -43 },
      ],
      unallocated_amount: 0,
    });
    expect(await closing(ws, customer)).toBeCloseTo(before + 100, 2);
    // The original stays as it was; nothing is left to allocate of it.
    const [original] = await ok(ws, 'GET', `/payments?customer_id=${customer}&sort=id`);
    expect(original).toMatchObject({ id: paid.id, amount: 100, allocations: [{ order_id: a, amount: 57 }, { order_id: b, amount: 43 }] });
    expect((await api(ws, 'POST', `/payments/${paid.id}/allocate`)).statusCode).toBe(409);
    expect((await api(ws, 'POST', `/payments/${voided.json().data.id}/allocate`)).statusCode).toBe(409);
    expect((await api(ws, 'POST', `/payments/${paid.id}/void`, { reason: 'Again' })).statusCode).toBe(409);
    // The orders owe again.
    expect((await api(ws, 'POST', '/payments', { order_id: a, amount: 57 })).statusCode).toBe(201);
    expect((await api(ws, 'POST', '/payments', { order_id: b, amount: 55 })).statusCode).toBe(201);
    // An order payment is not allocated.
    const direct = (await ok(ws, 'GET', `/payments?order_id=${a}`))[0];
    expect((await api(ws, 'POST', `/payments/${direct.id}/allocate`)).json().message).toMatch(/only an on-account payment is allocated/);
    await holds(ws);
    // Allocations are append-only in the database too.
    await expect(t.orm.em.fork().getConnection().execute('update payment_allocation set amount = 1 where organization_id = ?', [ws.organizationId])).rejects.toThrow(/append-only/);
  });

  it('two on-account payments at once, and one beside direct payments, never settle more than the orders owe', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const customer = catalog.retailerId;
    const orders = [await order(ws, catalog, customer, 1, 1, 1), await order(ws, catalog, customer, 1, 1, 2), await order(ws, catalog, customer, 0, 2, 3)]; // 55 + 55 + 57 = 167
    const answers = await Promise.all([
      api(ws, 'POST', '/payments', { customer_id: customer, amount: 100 }),
      api(ws, 'POST', '/payments', { customer_id: customer, amount: 100 }),
      api(ws, 'POST', '/payments', { order_id: orders[2], amount: 20 }),
      api(ws, 'POST', '/payments', { customer_id: customer, amount: 30 }),
    ]);
    for (const a of [answers[0], answers[1], answers[3]]) expect(a.statusCode, a.body).toBe(201);
    // The direct payment either came first (201) or found the order settled by an allocation (400).
    expect([201, 400]).toContain(answers[2].statusCode);
    const direct = answers[2].statusCode === 201 ? 20 : 0;
    const onAccount = [answers[0], answers[1], answers[3]].map((a) => a.json().data);
    const allocated = onAccount.flatMap((p) => p.allocations as Array<{ order_id: number; amount: number }>).reduce((sum, a) => sum + a.amount, 0);
    expect(allocated).toBeCloseTo(167 - direct, 2);
    expect(onAccount.reduce((sum, p) => sum + p.unallocated_amount, 0)).toBeCloseTo(230 - (167 - direct), 2);
    for (const id of orders) expect((await api(ws, 'POST', '/payments', { order_id: id, amount: 0.01 })).statusCode).toBe(400);
    await holds(ws);
  });

  it('validates: exactly one of order_id and customer_id, a customer of this workspace, a positive amount; recording nothing; keeps workspaces apart', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const other = await createWorkspace(t);
    const otherCatalog = await seedCatalog(t, other);
    const o = await order(ws, catalog, catalog.retailerId, 0, 1, 1);
    const staff = await createUser(t, ws, UserType.EMPLOYEE);
    for (const [payload, message] of [
      [{ amount: 1 }, 'order_id is required, or the customer of an on-account payment'],
      [{ order_id: o, customer_id: catalog.retailerId, amount: 1 }, /^customer_id must not be given with an order/],
      [{ customer_id: otherCatalog.retailerId, amount: 1 }, 'customer_id does not name a customer (distributor or retailer) of this workspace'],
      [{ customer_id: staff.id, amount: 1 }, /^customer_id does not name a customer/],
      [{ customer_id: 0, amount: 1 }, /^customer_id /],
      [{ customer_id: catalog.retailerId, amount: 0 }, /^amount /],
      [{ customer_id: catalog.retailerId, amount: -3 }, /^amount /],
      [{ customer_id: catalog.retailerId, amount: 1.001 }, /^amount /],
    ] as const) {
      const res = await api(ws, 'POST', '/payments', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await ok(ws, 'GET', '/payments')).length).toBe(0);

    const paid = await ok(ws, 'POST', '/payments', { customer_id: catalog.retailerId, amount: 100 });
    expect(paid.unallocated_amount).toBeCloseTo(100 - 28.5, 2);
    // Another workspace: its payment is not found, its list is empty, its orders are not touched.
    expect((await api(other, 'POST', `/payments/${paid.id}/allocate`)).statusCode).toBe(404);
    expect((await api(other, 'POST', `/payments/${paid.id}/void`, { reason: 'x' })).statusCode).toBe(404);
    expect((await ok(other, 'GET', '/payments')).length).toBe(0);
    expect((await api(ws, 'GET', `/payments?customer_id=${otherCatalog.retailerId}`)).json().data).toEqual([]);
    const otherOrder = await order(other, otherCatalog, otherCatalog.retailerId, 0, 1, 1);
    expect((await api(ws, 'POST', `/payments/${paid.id}/allocate`)).statusCode).toBe(409);
    expect((await api(other, 'POST', '/payments', { order_id: otherOrder, amount: 28.5 })).statusCode).toBe(201);
    // Roles: a customer may not; an API key with the payments scope may.
    expect((await t.request({ method: 'POST', url: `/api/v1/payments/${paid.id}/allocate`, token: catalog.distributorToken })).statusCode).toBe(403);
    const key = await createApiKey(t, ws, { scopes: 'payments,write' });
    const byKey = await t.request({ method: 'POST', url: '/api/v1/payments', apiKey: key.key, payload: { customer_id: catalog.retailerId, amount: 1 } });
    expect(byKey.statusCode, byKey.body).toBe(201);
    await holds(ws);
    await holds(other);
  });
});

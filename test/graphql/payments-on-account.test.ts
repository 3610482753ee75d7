import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../src/domains/ledger/ledger-verify';
import { createWorkspace, placeOrder, seedCatalog } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** On-account payments over GraphQL: recordPayment with customerId, allocatePayment, voidPayment, the new fields and the 400s. */
describe('on-account payments (GraphQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const FIELDS = 'id amount customerId order { id } voidsPaymentId allocations { orderId amount } unallocatedAmount';
  type Paid = { id: number; amount: number; customerId: number; order: { id: number } | null; voidsPaymentId: number | null; allocations: Array<{ orderId: number; amount: number }>; unallocatedAmount: number };

  it('records, allocates oldest-first, allocates the advance later, voids; refuses bad input and other workspaces', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const customer = catalog.retailerId;
    const deliver = async (id: number) => {
      for (const status of [2, 3, 4]) {
        const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload: { order_status: status } });
        expect(res.statusCode, res.body).toBe(200);
      }
    };
    const place = async (variant: number, quantity: number) =>
      (await placeOrder(t, ws.token, { user_id: customer, items: [{ product_variant_id: catalog.variantIds[variant], quantity }] })).id as number;
    const first = await place(1, 1); // 55.00
    const second = await place(0, 2); // 57.00
    await deliver(first);
    await deliver(second);

    const record = (input: object) => t.graphql<{ recordPayment: Paid }>(`mutation($input: RecordPaymentInput!) { recordPayment(input: $input) { ${FIELDS} } }`, { input }, ws.token);
    const recorded = await record({ customerId: customer, amount: 150, modeOfPayment: 'upi' });
    expect(recorded.errors).toBeUndefined();
    expect(recorded.data?.recordPayment).toMatchObject({
      amount: 150,
      customerId: customer,
      order: null,
      allocations: [
        { orderId: first, amount: 55 },
        { orderId: second, amount: 57 },
      ],
      unallocatedAmount: 38,
    });
    const id = recorded.data!.recordPayment.id;

    const allocate = (paymentId: number) => t.graphql<{ allocatePayment: Paid }>(`mutation($id: Int!) { allocatePayment(id: $id) { ${FIELDS} } }`, { id: paymentId }, ws.token);
    expect((await allocate(id)).errors?.[0].extensions?.code).toBe('CONFLICT');
    const third = await place(0, 1); // 28.50
    await deliver(third);
    const later = await allocate(id);
    expect(later.errors).toBeUndefined();
    expect(later.data?.allocatePayment.allocations.at(-1)).toEqual({ orderId: third, amount: 28.5 });
    expect(later.data?.allocatePayment.unallocatedAmount).toBe(9.5);

    // An order payment reads as before, with its customer.
    const direct = await record({ orderId: (await placeOrder(t, ws.token, { user_id: customer, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] })).id, amount: 1 });
    expect(direct.data?.recordPayment).toMatchObject({ customerId: customer, allocations: [], unallocatedAmount: 0 });
    expect(direct.data?.recordPayment.order).not.toBeNull();

    const voided = await t.graphql<{ voidPayment: Paid }>(`mutation($id: Int!) { voidPayment(id: $id, reason: "Bounced") { ${FIELDS} } }`, { id }, ws.token);
    expect(voided.errors).toBeUndefined();
    // A void mirrors the payment: its unallocated amount too (the sum over both is 0).
    expect(voided.data?.voidPayment).toMatchObject({ amount: -150, voidsPaymentId: id, order: null, unallocatedAmount: -9.5 });
    expect(voided.data?.voidPayment.allocations.map((a) => a.amount)).toEqual([-55, -57, -28.5]);

    const listed = await t.graphql<{ payments: { nodes: Paid[] } }>(`query($c: Int) { payments(customerId: $c, sort: [{ field: ID, direction: ASC }]) { nodes { ${FIELDS} } } }`, { c: customer }, ws.token);
    expect(listed.errors).toBeUndefined();
    expect(listed.data?.payments.nodes.map((p) => p.amount)).toEqual([150, 1, -150]);

    for (const [input, field] of [
      [{ amount: 1 }, 'orderId'],
      [{ orderId: first, customerId: customer, amount: 1 }, 'customerId'],
      [{ customerId: 999999, amount: 1 }, 'customerId'],
      [{ customerId: customer, amount: 0 }, 'amount'],
    ] as const) {
      const res = await record(input);
      expect(res.errors?.[0].extensions?.code, JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect(res.errors?.[0].message.startsWith(`${field} `), res.errors?.[0].message).toBe(true);
    }
    const other = await createWorkspace(t);
    const foreign = await t.graphql(`mutation($id: Int!) { allocatePayment(id: $id) { id } }`, { id }, other.token);
    expect(foreign.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const check = await verifyLedger(t.orm.em.fork(), ws.organizationId);
    expect(check.differences).toEqual([]);
  });
});

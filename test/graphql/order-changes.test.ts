import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, seedCatalog, signIn, placeOrder, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const CANCEL = `mutation($id: Int!, $reason: String!) {
  cancelOrder(id: $id, reason: $reason) { id status cancelledAt cancelReason cancelledByUserId cancelledByApiKeyId statusHistory { fromStatus toStatus cancellation } }
}`;
const REPLACE = `mutation($id: Int!, $items: [OrderLineInput!]!) {
  replaceOrderItems(id: $id, items: $items) { id totalAmount itemsCount items { quantity unitPrice amount variant { id } } }
}`;
const LIST = `query($cancelled: Boolean, $productionUnitId: Int, $townId: Int, $routeId: Int) {
  orders(cancelled: $cancelled, productionUnitId: $productionUnitId, townId: $townId, routeId: $routeId) { nodes { id cancelledAt cancelReason } }
}`;

describe('GraphQL cancelOrder, replaceOrderItems and the new list arguments', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  let other: Workspace;
  const gql = (query: string, variables?: Record<string, unknown>, token = ws.token) => t.graphql(query, variables, token) as Promise<GraphqlAnswer>;
  const newOrder = async () => (await placeOrder(t, ws.token, { user_id: cat.distributorId, items: [{ product_variant_id: cat.variantIds[0], quantity: 2 }] })).id;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    other = await createWorkspace(t);
  });
  afterAll(() => t.close());

  it('cancelOrder records the cancel and keeps the status; again, or after delivery, is a CONFLICT', async () => {
    const id = await newOrder();
    const data = expectGraphqlData(await gql(CANCEL, { id, reason: 'Duplicate' }));
    expect(data.cancelOrder).toMatchObject({
      id,
      status: 'INITIATED',
      cancelledAt: expect.any(String),
      cancelReason: 'Duplicate',
      cancelledByUserId: ws.adminId,
      cancelledByApiKeyId: null,
      statusHistory: [
        { fromStatus: null, toStatus: 'INITIATED', cancellation: false },
        { fromStatus: 'INITIATED', toStatus: 'INITIATED', cancellation: true },
      ],
    });
    expectGraphqlError(await gql(CANCEL, { id, reason: 'Again' }), 'CONFLICT', /was cancelled at/);
    expectGraphqlError(await gql(`mutation($id: Int!) { updateOrderStatus(id: $id, orderStatus: FORWARDED) { id } }`, { id }), 'CONFLICT', /was cancelled at/);

    const delivered = await newOrder();
    for (const s of ['FORWARDED', 'APPROVED', 'DELIVERED']) {
      expectGraphqlData(await gql(`mutation($id: Int!) { updateOrderStatus(id: $id, orderStatus: ${s}) { id } }`, { id: delivered }));
    }
    expectGraphqlError(await gql(CANCEL, { id: delivered, reason: 'Late' }), 'CONFLICT', /a delivered order cannot be cancelled$/);
  });

  it('cancelOrder: a blank reason is a validation error, a customer is refused, another workspace gets NOT_FOUND', async () => {
    const id = await newOrder();
    const blank = await gql(CANCEL, { id, reason: '  ' });
    expect(blank.errors?.[0].message).toMatch(/^reason /);
    expect((await gql(CANCEL, { id, reason: 'x' }, await signIn(t, ws, cat.distributorId))).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expectGraphqlError(await gql(CANCEL, { id, reason: 'x' }, other.token), 'NOT_FOUND');
  });

  it('replaceOrderItems re-prices the lines of an Initiated order; afterwards it is a CONFLICT', async () => {
    const id = await newOrder();
    const data = expectGraphqlData(await gql(REPLACE, { id, items: [{ productVariantId: cat.variantIds[1], quantity: 2 }] }));
    expect(data.replaceOrderItems).toEqual({ id, totalAmount: 110, itemsCount: 1, items: [{ quantity: 2, unitPrice: 55, amount: 110, variant: { id: cat.variantIds[1] } }] });
    expectGraphqlData(await gql(`mutation($id: Int!) { updateOrderStatus(id: $id, orderStatus: FORWARDED) { id } }`, { id }));
    expectGraphqlError(await gql(REPLACE, { id, items: [{ productVariantId: cat.variantIds[0], quantity: 1 }] }), 'CONFLICT', /only while it is Initiated \(1\)$/);
  });

  it('orders takes cancelled, productionUnitId, townId and routeId, each place checked', async () => {
    const w = await createWorkspace(t);
    const c = await seedCatalog(t, w);
    const place = (payload: Record<string, unknown>) => placeOrder(t, w.token, { user_id: c.distributorId, items: [{ product_variant_id: c.variantIds[0], quantity: 1 }], ...payload });
    const unit = (await t.request({ method: 'POST', url: '/api/v1/masters/production-units', token: w.token, payload: { production_unit_name: 'P' } })).json().data.id;
    const kept = (await place({ production_unit_id: unit })).id;
    const gone = (await place({})).id;
    expectGraphqlData(await gql(CANCEL, { id: gone, reason: 'No' }, w.token));
    const ids = async (variables: Record<string, unknown>) => expectGraphqlData(await gql(LIST, variables, w.token)).orders.nodes.map((o: { id: number }) => o.id);
    expect(await ids({})).toEqual([gone, kept]);
    expect(await ids({ cancelled: true })).toEqual([gone]);
    expect(await ids({ cancelled: false })).toEqual([kept]);
    expect(await ids({ productionUnitId: unit })).toEqual([kept]);
    const bad = await gql(LIST, { townId: 99999999 }, w.token);
    expect(bad.errors?.[0].message).toBe('townId does not name a record of this workspace');
  });
});

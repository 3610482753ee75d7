import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createUser, createWorkspace, seedCatalog, unique } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const FIELDS = 'id name code kind targetKind targetId scope scopeIds validFrom validTo priority stackable budgetKind budget budgetUsed budgetLeft status state slabs { minQty discountPercent discountAmount freeQty freeVariantId recursive }';
const CREATE = `mutation ($input: SchemeInput!) { createScheme(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation ($id: Int!, $input: SchemeInput!) { updateScheme(id: $id, input: $input) { ${FIELDS} } }`;
const ONE = `query ($id: Int!) { scheme(id: $id) { ${FIELDS} } }`;
const LIST = `query ($activeOn: String, $targetKind: SchemeTarget, $targetId: Int, $status: SchemeStatus, $sort: [SchemeSort!]) {
  schemes(activeOn: $activeOn, targetKind: $targetKind, targetId: $targetId, status: $status, sort: $sort) { nodes { id state } pageInfo { total } } }`;
const PREVIEW = `query ($input: SchemePreviewInput!) { schemePreview(input: $input) {
  customerId date total grossTotal discountTotal
  lines { productVariantId quantity unitPrice grossAmount discountAmount amount schemeIds }
  freeLines { productVariantId quantity unitPrice amount schemeId }
  schemes { schemeId applied reason explanation quantity freeUnits discountAmount slab { minQty freeQty } next { addQuantity minQty message } } } }`;
const ORDER = `mutation ($input: CreateOrderInput!) { createOrder(input: $input) { order { id totalAmount itemsCount items { quantity unitPrice amount discountAmount schemeId variant { id } } } } }`;

const REPLACE = `mutation ($id: Int!, $items: [OrderLineInput!]!) { replaceOrderItems(id: $id, items: $items) { id totalAmount items { quantity amount schemeId } } }`;
const CANCEL = `mutation ($id: Int!) { cancelOrder(id: $id, reason: "Customer changed mind") { id } }`;

/** Schemes over GraphQL: the same service as REST; the preview is what createOrder does. */
describe('schemes (GraphQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const day = (offset: number) => shiftDay(new Date().toISOString().slice(0, 10), offset);
  const gql = (query: string, variables: Record<string, unknown>, credential: string) => t.graphql(query, variables, credential);

  it('creates, lists, reads, previews and applies to createOrder the same way; stacks two schemes on one line', async () => {
    const ws = await createWorkspace(t);
    const c = await seedCatalog(t, ws);
    const [A, B] = c.variantIds;
    const input = {
      name: 'Buy 10 get 1', code: `G${unique()}`, kind: 'FREE_GOODS', targetKind: 'VARIANT', targetId: A, validFrom: day(-1),
      slabs: [{ minQty: 10, freeQty: 1, recursive: true }], budgetKind: 'UNITS', budget: 10, stackable: true,
    };
    const created = expectGraphqlData(await gql(CREATE, { input }, ws.token)).createScheme;
    expect(created).toMatchObject({
      kind: 'FREE_GOODS', targetKind: 'VARIANT', scope: 'ALL', scopeIds: [], stackable: true, budgetKind: 'UNITS', budget: 10, budgetUsed: 0, budgetLeft: 10,
      status: 'ACTIVE', state: 'active', slabs: [{ minQty: 10, freeQty: 1, freeVariantId: A, recursive: true, discountPercent: null, discountAmount: null }],
    });
    const disc = expectGraphqlData(await gql(CREATE, {
      input: { name: '5% on the product', code: `D${unique()}`, kind: 'DISCOUNT', targetKind: 'PRODUCT', targetId: c.productId, validFrom: day(-1), stackable: true, slabs: [{ minQty: 20, discountPercent: 5 }] },
    }, ws.token)).createScheme;

    const cart = { customerId: c.distributorId, items: [{ productVariantId: A, quantity: 15 }, { productVariantId: B, quantity: 6 }] };
    const preview = expectGraphqlData(await gql(PREVIEW, { input: cart }, ws.token)).schemePreview;
    // 15 × 28.50 + 6 × 55.00 = 757.50; 21 units of the product reach 5%: 21.375 → 21.38 and 16.50.
    expect(preview).toMatchObject({ grossTotal: 757.5, discountTotal: 37.88, total: 719.62, freeLines: [{ productVariantId: A, quantity: 1, unitPrice: 0, amount: 0, schemeId: created.id }] });
    expect(preview.lines.map((l: any) => l.discountAmount)).toEqual([21.38, 16.5]);
    expect(preview.schemes.find((s: any) => s.schemeId === created.id)).toMatchObject({ applied: true, quantity: 15, freeUnits: 1, next: { addQuantity: 5, minQty: 20 } });
    expect(preview.schemes.find((s: any) => s.schemeId === disc.id)).toMatchObject({ applied: true, discountAmount: 37.88 });

    const order = expectGraphqlData(await gql(ORDER, { input: { userId: c.distributorId, items: cart.items } }, ws.token)).createOrder.order;
    expect(order).toMatchObject({ totalAmount: preview.total, itemsCount: 3 });
    expect(order.items.map((i: any) => [i.variant.id, i.quantity, i.unitPrice, i.discountAmount, i.amount, i.schemeId])).toEqual([
      ...preview.lines.map((l: any) => [l.productVariantId, l.quantity, l.unitPrice, l.discountAmount, l.amount, null]),
      [A, 1, 0, 0, 0, created.id],
    ]);
    expect(expectGraphqlData(await gql(ONE, { id: created.id }, ws.token)).scheme).toMatchObject({ budgetUsed: 1, budgetLeft: 9 });

    const off = expectGraphqlData(await gql(UPDATE, { id: created.id, input: { status: 'DISABLED', validTo: day(5) } }, ws.token)).updateScheme;
    expect(off).toMatchObject({ status: 'DISABLED', state: 'disabled', validTo: day(5), name: 'Buy 10 get 1' });
    const after = expectGraphqlData(await gql(PREVIEW, { input: cart }, ws.token)).schemePreview;
    expect(after.schemes.find((s: any) => s.schemeId === created.id)).toMatchObject({ applied: false, reason: 'disabled' });
    expect(after.freeLines).toEqual([]);

    const list = async (v: Record<string, unknown>) => expectGraphqlData(await gql(LIST, v, ws.token)).schemes.nodes.map((n: any) => n.id);
    expect(await list({ activeOn: day(0) })).toEqual([disc.id]);
    expect(await list({ targetKind: 'VARIANT', targetId: A })).toEqual([created.id]);
    expect(await list({ sort: [{ field: 'ID', direction: 'ASC' }] })).toEqual([created.id, disc.id]);
    expect(await list({ status: 'DISABLED' })).toEqual([created.id]);
  });

  it('answers bad input as BAD_USER_INPUT naming the field, another workspace’s scheme as not found, and customers as forbidden', async () => {
    const ws = await createWorkspace(t);
    const other = await createWorkspace(t);
    const c = await seedCatalog(t, ws);
    const base = { name: 'X', code: `X${unique()}`, kind: 'DISCOUNT', targetKind: 'VARIANT', targetId: c.variantIds[0], validFrom: day(0), slabs: [{ minQty: 5, discountPercent: 5 }] };
    expectGraphqlError(await gql(CREATE, { input: { ...base, slabs: [{ minQty: 5 }] } }, ws.token), 'BAD_USER_INPUT', /^slabs\[0\]\.discountPercent/);
    expectGraphqlError(await gql(CREATE, { input: { ...base, validTo: day(-1) } }, ws.token), 'BAD_USER_INPUT', /^validTo must not be before validFrom/);
    expectGraphqlError(await gql(CREATE, { input: { ...base, scope: 'TOWN' } }, ws.token), 'BAD_USER_INPUT', /^scopeIds/);
    const made = expectGraphqlData(await gql(CREATE, { input: base }, ws.token)).createScheme;
    expectGraphqlError(await gql(ONE, { id: made.id }, other.token), 'NOT_FOUND');
    expectGraphqlError(await gql(UPDATE, { id: made.id, input: { name: 'Y' } }, other.token), 'NOT_FOUND');
    const customer = await createUser(t, ws, UserType.RETAILER);
    expectGraphqlError(await gql(LIST, {}, customer.token), 'FORBIDDEN');
    const own = expectGraphqlData(await gql(PREVIEW, { input: { items: [{ productVariantId: c.variantIds[0], quantity: 5 }] } }, customer.token)).schemePreview;
    expect(own).toMatchObject({ customerId: customer.id, discountTotal: 7.13 }); // 5% of 142.50 = 7.125 → 7.13
    expectGraphqlError(await gql(PREVIEW, { input: { customerId: c.distributorId, items: [{ productVariantId: c.variantIds[0], quantity: 5 }] } }, customer.token), 'BAD_USER_INPUT', /^customerId/);
  });

  it('re-evaluates on replaceOrderItems and gives the budget back on cancelOrder', async () => {
    const ws = await createWorkspace(t);
    const c = await seedCatalog(t, ws);
    const [A] = c.variantIds;
    const s = expectGraphqlData(await gql(CREATE, {
      input: { name: 'Every 10, 1 free', code: `R${unique()}`, kind: 'FREE_GOODS', targetKind: 'VARIANT', targetId: A, validFrom: day(-1), budgetKind: 'UNITS', budget: 2, slabs: [{ minQty: 10, freeQty: 1, recursive: true }] },
    }, ws.token)).createScheme;
    const placed = expectGraphqlData(await gql(ORDER, { input: { userId: c.distributorId, items: [{ productVariantId: A, quantity: 10 }] } }, ws.token)).createOrder.order;
    expect(placed.items.map((i: any) => [i.quantity, i.schemeId])).toEqual([[10, null], [1, s.id]]);
    const up = expectGraphqlData(await gql(REPLACE, { id: placed.id, items: [{ productVariantId: A, quantity: 25 }] }, ws.token)).replaceOrderItems;
    expect(up.items.map((i: any) => [i.quantity, i.schemeId])).toEqual([[25, null], [2, s.id]]);
    expect(expectGraphqlData(await gql(ONE, { id: s.id }, ws.token)).scheme).toMatchObject({ budgetUsed: 2, budgetLeft: 0, state: 'spent' });
    const down = expectGraphqlData(await gql(REPLACE, { id: placed.id, items: [{ productVariantId: A, quantity: 9 }] }, ws.token)).replaceOrderItems;
    expect(down).toMatchObject({ totalAmount: 9 * 28.5, items: [{ quantity: 9, schemeId: null }] });
    expect(expectGraphqlData(await gql(ONE, { id: s.id }, ws.token)).scheme).toMatchObject({ budgetUsed: 0, state: 'active' });
    await gql(REPLACE, { id: placed.id, items: [{ productVariantId: A, quantity: 20 }] }, ws.token);
    expect(expectGraphqlData(await gql(ONE, { id: s.id }, ws.token)).scheme.budgetUsed).toBe(2);
    expectGraphqlData(await gql(CANCEL, { id: placed.id }, ws.token));
    expect(expectGraphqlData(await gql(ONE, { id: s.id }, ws.token)).scheme).toMatchObject({ budgetUsed: 0, budgetLeft: 2 });
  });
});

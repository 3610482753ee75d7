import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const PRODUCT_FIELDS = 'id name hsn colorCode description image status productClass { id name } variants { id itemSkuCode mrp sp status }';
const PRODUCT = `query($id: Int!) { product(id: $id) { ${PRODUCT_FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateProductInput!) { updateProduct(id: $id, input: $input) { ${PRODUCT_FIELDS} } }`;
const ADD = `mutation($productId: Int!, $input: VariantInput!) { addProductVariant(productId: $productId, input: $input) { id variantName itemSkuCode mrp sp unitQuantity status product { id } } }`;
const UPDATE_VARIANT = `mutation($productId: Int!, $variantId: Int!, $input: UpdateVariantInput!) {
  updateProductVariant(productId: $productId, variantId: $variantId, input: $input) { id variantName itemSkuCode mrp sp status product { id } } }`;
const CREATE_ORDER = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { id totalAmount items { unitPrice amount } } } }`;
const ORDER = `query($id: Int!) { order(id: $id) { id totalAmount items { unitPrice amount variant { id status } } } }`;
const PRODUCTS = `query($productClassId: Int) { products(productClassId: $productClassId, limit: 100) { nodes { id } pageInfo { total } } }`;

/** The same product and variant edits as REST, over GraphQL: same service methods, same errors. */
describe('GraphQL product and variant edits', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let cat: Catalog;
  let otherCat: Catalog;
  let employeeToken: string;
  const gql = (query: string, variables?: Record<string, unknown>, token = ws.token) => t.graphql(query, variables, token) as Promise<GraphqlAnswer>;
  const read = async (id = cat.productId) => expectGraphqlData(await gql(PRODUCT, { id })).product;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    otherCat = await seedCatalog(t, other);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
  });
  afterAll(() => t.close());

  it('updateProduct changes the given fields; the same refusals as REST, nothing changed', async () => {
    const name = `Gql renamed ${unique()}`;
    const { updateProduct } = expectGraphqlData(await gql(UPDATE, { id: cat.productId, input: { productName: name, productHsn: '0402', status: 'INACTIVE' } }));
    expect(updateProduct).toMatchObject({ id: cat.productId, name, hsn: '0402', status: 'INACTIVE' });
    expect(await read()).toEqual(updateProduct);

    const before = await read();
    expectGraphqlError(await gql(UPDATE, { id: cat.productId, input: { productName: 'x', productClassId: otherCat.productClassId } }), 'BAD_USER_INPUT', /^productClassId /);
    expectGraphqlError(await gql(UPDATE, { id: cat.productId, input: { productName: 'x', productHsn: '1' } }), 'BAD_USER_INPUT', 'productHsn must be 4 to 8 digits');
    expectGraphqlError(await gql(UPDATE, { id: otherCat.productId, input: { productName: 'x' } }), 'NOT_FOUND');
    expectGraphqlError(await gql(UPDATE, { id: cat.productId, input: { productName: 'x' } }, employeeToken), 'FORBIDDEN');
    expect(await read()).toEqual(before);
    expectGraphqlError(await gql(PRODUCT, { id: otherCat.productId }), 'NOT_FOUND');
    expectGraphqlData(await gql(UPDATE, { id: cat.productId, input: { status: 'ACTIVE' } }));
  });

  it('addProductVariant and updateProductVariant: 409 on a used SKU, 400 naming the field, 404 elsewhere', async () => {
    const sku = `GQL-${unique()}`;
    const { addProductVariant } = expectGraphqlData(await gql(ADD, { productId: cat.productId, input: { variantName: '2 l', itemSkuCode: sku, mrp: 110, sp: 100 } }));
    expect(addProductVariant).toEqual({ id: expect.any(Number), variantName: '2 l', itemSkuCode: sku, mrp: 110, sp: 100, unitQuantity: 1, status: 'ACTIVE', product: { id: cat.productId } });

    const before = await read();
    expectGraphqlError(await gql(ADD, { productId: cat.productId, input: { variantName: 'x', itemSkuCode: sku, mrp: 1, sp: 1 } }), 'CONFLICT', new RegExp(sku));
    expectGraphqlError(await gql(ADD, { productId: cat.productId, input: { variantName: 'x', itemSkuCode: `N-${unique()}`, mrp: 1, sp: 2 } }), 'BAD_USER_INPUT', 'sp must not exceed mrp');
    expectGraphqlError(await gql(ADD, { productId: otherCat.productId, input: { variantName: 'x', itemSkuCode: `O-${unique()}`, mrp: 1, sp: 1 } }), 'NOT_FOUND');
    expectGraphqlError(await gql(UPDATE_VARIANT, { productId: cat.productId, variantId: addProductVariant.id, input: { itemSkuCode: before.variants[0].itemSkuCode } }), 'CONFLICT');
    expectGraphqlError(await gql(UPDATE_VARIANT, { productId: cat.productId, variantId: addProductVariant.id, input: { sp: 200 } }), 'BAD_USER_INPUT', 'sp must not exceed mrp');
    expectGraphqlError(await gql(UPDATE_VARIANT, { productId: otherCat.productId, variantId: otherCat.variantIds[0], input: { sp: 1 } }), 'NOT_FOUND');
    expectGraphqlError(await gql(UPDATE_VARIANT, { productId: cat.productId, variantId: addProductVariant.id, input: { sp: 1 } }, employeeToken), 'FORBIDDEN');
    expect(await read()).toEqual(before);

    const { updateProductVariant } = expectGraphqlData(await gql(UPDATE_VARIANT, { productId: cat.productId, variantId: addProductVariant.id, input: { variantName: 'Two litre', status: 'INACTIVE' } }));
    expect(updateProductVariant).toMatchObject({ id: addProductVariant.id, variantName: 'Two litre', itemSkuCode: sku, mrp: 110, sp: 100, status: 'INACTIVE' });
  });

  it('a new price applies to new orders only; an inactive variant cannot be ordered and old orders keep showing it', async () => {
    const c = await seedCatalog(t, ws);
    const input = (variantId: number) => ({ userId: c.distributorId, items: [{ productVariantId: c.variantIds[0], quantity: 1 }, { productVariantId: variantId, quantity: 2 }] });
    const placed = expectGraphqlData(await gql(CREATE_ORDER, { input: input(c.variantIds[1]) })).createOrder.order;
    expect(placed).toMatchObject({ totalAmount: 138.5, items: [{ unitPrice: 28.5, amount: 28.5 }, { unitPrice: 55, amount: 110 }] });
    const before = expectGraphqlData(await gql(ORDER, { id: placed.id })).order;

    expectGraphqlData(await gql(UPDATE_VARIANT, { productId: c.productId, variantId: c.variantIds[1], input: { mrp: 60, sp: 57.5 } }));
    expect(expectGraphqlData(await gql(ORDER, { id: placed.id })).order).toEqual(before);
    const next = expectGraphqlData(await gql(CREATE_ORDER, { input: input(c.variantIds[1]) })).createOrder.order;
    expect(next).toMatchObject({ totalAmount: 143.5, items: [{ unitPrice: 28.5 }, { unitPrice: 57.5, amount: 115 }] });

    expectGraphqlData(await gql(UPDATE_VARIANT, { productId: c.productId, variantId: c.variantIds[1], input: { status: 'INACTIVE' } }));
    expectGraphqlError(await gql(CREATE_ORDER, { input: input(c.variantIds[1]) }), 'BAD_USER_INPUT', /^items\[1\]\.productVariantId /);
    expect(expectGraphqlData(await gql(ORDER, { id: placed.id })).order.items[1].variant).toEqual({ id: c.variantIds[1], status: 'INACTIVE' });
  });

  it('products(productClassId) lists that class only; another workspace’s class → BAD_USER_INPUT', async () => {
    const c = await seedCatalog(t, ws);
    const { products } = expectGraphqlData(await gql(PRODUCTS, { productClassId: c.productClassId }));
    expect(products).toEqual({ nodes: [{ id: c.productId }], pageInfo: { total: 1 } });
    expectGraphqlError(await gql(PRODUCTS, { productClassId: otherCat.productClassId }), 'BAD_USER_INPUT', /^productClassId /);
  });
});

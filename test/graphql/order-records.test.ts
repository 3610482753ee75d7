import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The order page reads plain records (the rows as JSON, never hydrated), while `order`, `user`
 * and `product` read MikroORM entities. Every field must come out the same either way: decimals
 * as numbers, dates as YYYY-MM-DD, timestamps as ISO instants, enums, nulls.
 */

const ORDER_FIELDS = 'id organizationId orderCode status orderDate totalAmount itemsCount deliveryDate modeOfPayment createdAt updatedAt';
const USER_FIELDS = 'id organizationId firstName lastName officialEmail primaryContactNumber userType status storeName createdAt updatedAt';
const VARIANT_FIELDS = 'id organizationId variantName itemSkuCode mrp sp variantSize variantQuantity containerQuantity unitQuantity status createdAt updatedAt';
const PRODUCT_FIELDS = 'id organizationId name hsn colorCode description image status createdAt updatedAt';

const PAGE = `{ orders(limit: 10) { nodes { ${ORDER_FIELDS}
  customer { ${USER_FIELDS} }
  items { id organizationId quantity unitPrice amount createdAt updatedAt variant { ${VARIANT_FIELDS} product { ${PRODUCT_FIELDS} } } } } } }`;

type Row = Record<string, unknown> & { id: number };
type PageNode = Row & { customer: Row; items: Array<Row & { variant: Row & { product: Row } }> };

describe('GraphQL order page records', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  let productId: number;
  const placed: number[] = [];
  const gql = async (query: string, variables?: Record<string, unknown>) => expectGraphqlData(await t.graphql(query, variables, ws.token)) as any;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    const n = unique();
    const product = await t.request({
      method: 'POST',
      url: '/api/v1/products',
      token: ws.token,
      payload: {
        product_name: `Paneer ${n}`,
        product_class_id: cat.productClassId,
        product_hsn: '0406',
        product_description: 'Fresh',
        variants: [
          { variant_name: '200 g', item_sku_code: `PN-200-${n}`, mrp: 95.75, sp: 89.35, unit_quantity: 0.2 },
          { variant_name: '1 kg', item_sku_code: `PN-1000-${n}`, mrp: 440, sp: 412.05 },
        ],
      },
    });
    expect(product.statusCode, product.body).toBe(201);
    productId = product.json().data.id;
    const [small, large] = product.json().data.ProductVariants.map((v: { id: number }) => v.id);
    const create = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { id } } }`;
    const inputs = [
      { userId: cat.distributorId, items: [{ productVariantId: small, quantity: 3 }, { productVariantId: cat.variantIds[0], quantity: 1 }] },
      { userId: cat.retailerId, deliveryDate: '2031-01-02', modeOfPayment: 'upi', items: [{ productVariantId: large, quantity: 2 }, { productVariantId: small, quantity: 1 }] },
    ];
    for (const input of inputs) placed.push((await gql(create, { input })).createOrder.order.id);
  });
  afterAll(() => t.close());

  it('shows every field of orders, customers, lines, variants and products as the entities do', async () => {
    const nodes: PageNode[] = (await gql(PAGE)).orders.nodes;
    expect(nodes.map((n) => n.id)).toEqual([...placed].reverse());
    const variantsSeen = new Set<number>();
    for (const node of nodes) {
      const { customer, items, ...order } = node;
      expect(order).toEqual((await gql(`query($id: Int!) { order(id: $id) { ${ORDER_FIELDS} } }`, { id: node.id })).order);
      expect(customer).toEqual((await gql(`query($id: Int!) { user(id: $id) { ${USER_FIELDS} } }`, { id: customer.id })).user);
      expect(items.length).toBeGreaterThan(0);
      for (const { variant, ...line } of items) {
        const { product, ...variantFields } = variant;
        const entity = (await gql(`query($id: Int!) { product(id: $id) { ${PRODUCT_FIELDS} variants { ${VARIANT_FIELDS} } } }`, { id: product.id })).product;
        const { variants, ...productFields } = entity;
        expect(product).toEqual(productFields);
        expect(variantFields).toEqual(variants.find((v: Row) => v.id === variant.id));
        expect(line.amount).toBeCloseTo((variant.sp as number) * (line.quantity as number), 2);
        expect(line.unitPrice).toBe(variant.sp);
        variantsSeen.add(variant.id);
      }
    }
    // The new product's variants (fractional prices and unit quantity) were among those compared.
    const ours = (await gql(`{ product(id: ${productId}) { variants { id } } }`)).product.variants.map((v: Row) => v.id);
    expect(ours.every((id: number) => variantsSeen.has(id))).toBe(true);
  });
});

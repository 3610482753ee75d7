import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestContext, type Principal } from '../../src/context/request-context';
import { findRows } from '../../src/db/entity-rows';
import { scopeToOrganization } from '../../src/db/tenant-filter';
import { User, UserType } from '../../src/domains/users/user.entity';
import { createProduct, createWorkspace, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
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
type PageNode = Row & { customer: Row; items: Array<Row & { variant: Row & { product: Row & { variants?: Row[] } } }> };

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
    const product = await createProduct(t, ws, {
      product_name: `Paneer ${n}`,
      product_class_id: cat.productClassId,
      product_hsn: '0406',
      product_description: 'Fresh',
      variants: [
        { variant_name: '200 g', item_sku_code: `PN-200-${n}`, mrp: 95.75, sp: 89.35, unit_quantity: 0.2 },
        { variant_name: '1 kg', item_sku_code: `PN-1000-${n}`, mrp: 440, sp: 412.05 },
      ],
    });
    productId = product.id;
    const [small, large] = product.variantIds;
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

  /** What the page's own statements (page, lines, loaders; not the sign-in's) sent while `run` ran. */
  async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
    t.queries.reset();
    await run();
    return t.queries.statements.filter((sql) => !/\bfrom "?(app_user|user_session|api_key)"?\b/.test(sql.split(/\bwhere\b/)[0]));
  }

  it('reads only the columns of the fields a query selects, through aliases and fragments, with the values the full page shows', async () => {
    const full: PageNode[] = (await gql(PAGE)).orders.nodes;
    let partial: unknown;
    const sql = (
      await statementsOf(async () => {
        const query = `{ orders(limit: 10) { nodes { ...Code customer { name: firstName } items { n: quantity variant { ... on ProductVariant { sku: itemSkuCode } product { name } } } } } }
        fragment Code on Order { orderCode }`;
        partial = (await gql(query)).orders.nodes;
      })
    ).join('\n');
    expect(partial).toEqual(
      full.map((node) => ({
        orderCode: node.orderCode,
        customer: { name: node.customer.firstName },
        items: node.items.map((line) => ({ n: line.quantity, variant: { sku: line.variant.itemSkuCode, product: { name: line.variant.product.name } } })),
      })),
    );
    for (const column of ['o."order_code"', 'c."first_name"', 'i."quantity"', 'v."item_sku_code"', 'p."name"']) expect(sql).toContain(column);
    const unselected = ['total_amount', 'mode_of_payment', 'last_name', 'store_name', 'unit_price', 'mrp', 'hsn', 'color_code', 'description'];
    for (const column of unselected) expect(sql).not.toContain(column);
  });

  it('reads a page with its lines, variants and products in one statement, and the lines of single orders by the loader', async () => {
    const full: PageNode[] = (await gql(PAGE)).orders.nodes;
    const page = `{ orders(limit: 10) { nodes { id items { id variant { id product { id } } } } } }`;
    let nodes: PageNode[] = [];
    const statements = await statementsOf(async () => (nodes = (await gql(page)).orders.nodes));
    expect(statements, statements.join('\n')).toHaveLength(1);
    // Only ids are selected: no other column of lines, variants and products is read.
    for (const column of ['quantity', 'variant_name', '"sp"', 'p."name"', 'to_jsonb']) expect(statements[0]).not.toContain(column);
    // Nor of the variants and products that no field is selected of, which the lines' rows still reach.
    const [linesOnly] = await statementsOf(() => gql(`{ orders(limit: 10) { nodes { items { id } } } }`));
    expect(linesOnly).toContain('v."product_id"');
    for (const column of ['to_jsonb', 'variant_name', 'p."name"']) expect(linesOnly).not.toContain(column);
    const idsOf = (node: PageNode) => node.items.map((line) => [line.id, line.variant.id, line.variant.product.id]);
    expect(nodes.map(idsOf)).toEqual(full.map(idsOf));
    const single = (await gql(`query($id: Int!) { order(id: $id) { id items { id variant { id product { id } } } } }`, { id: full[0].id })).order;
    expect(idsOf(single)).toEqual(idsOf(full[0]));
  });

  it('gives records of a type every field selected of it anywhere in the query', async () => {
    const query = `{ orders(limit: 10) { nodes { items { variant { id itemSkuCode product { id variants { id mrp } } } } } } }`;
    let nodes: PageNode[] = [];
    const sql = (await statementsOf(async () => (nodes = (await gql(query)).orders.nodes))).join('\n');
    for (const column of ['item_sku_code', 'mrp']) expect(sql.match(new RegExp(`\\b${column}\\b`, 'g'))?.length, column).toBeGreaterThanOrEqual(2);
    for (const { variant } of nodes.flatMap((node) => node.items)) {
      const entity = (await gql(`query($id: Int!) { product(id: $id) { variants { id itemSkuCode mrp } } }`, { id: variant.product.id })).product;
      expect(variant.itemSkuCode).toBe(entity.variants.find((v: Row) => v.id === variant.id).itemSkuCode);
      expect(variant.product.variants).toEqual(entity.variants.map(({ id, mrp }: Row) => ({ id, mrp })));
    }
  });

  /** The service-level context of a caller of the workspace: the admin, or a customer. */
  function contextOf(principal: Partial<Principal> & { userType: UserType; userId: number }): RequestContext {
    const em = t.orm.em.fork();
    scopeToOrganization(em, ws.organizationId);
    return new RequestContext('test', em, { kind: 'session', organizationId: ws.organizationId, sessionId: 'test', ...principal } as Principal, '127.0.0.1');
  }

  it('never reads hidden columns (password and OTP hashes, sessions, sign-in counters) into records', async () => {
    const admin = contextOf({ userType: UserType.ADMIN, userId: ws.adminId });
    const page = await t.app.services.orders.listRows(admin, {}, { limit: 10 }, { withLines: false });
    expect(page.items.length).toBe(placed.length);
    for (const order of page.items) expect(Object.keys(order)).not.toContain('deliveryOtpHash');
    expect(page.customers.length).toBe(placed.length);
    for (const customer of page.customers) {
      expect(customer.firstName).toEqual(expect.any(String));
      for (const hidden of ['passwordHash', 'currentSessionId', 'failedSignIns', 'lockedUntil']) expect(Object.keys(customer)).not.toContain(hidden);
    }
    const [user] = await findRows(admin.em, User, { id: cat.distributorId });
    expect(user.firstName).toEqual(expect.any(String));
    for (const hidden of ['passwordHash', 'currentSessionId', 'failedSignIns', 'lockedUntil']) expect(Object.keys(user)).not.toContain(hidden);
  });

  it("gives a customer the lines of their own orders only, whatever ids are asked for", async () => {
    const admin = contextOf({ userType: UserType.ADMIN, userId: ws.adminId });
    const all = (await t.app.services.orders.linesOf(admin, placed)).lines;
    expect(new Set(all.map((line) => line.order))).toEqual(new Set(placed));
    const distributor = contextOf({ userType: UserType.DISTRIBUTOR, userId: cat.distributorId });
    const own = await t.app.services.orders.linesOf(distributor, placed);
    expect(own.lines.length).toBeGreaterThan(0);
    expect(new Set(own.lines.map((line) => line.order))).toEqual(new Set([placed[0]]));
    expect(new Set(own.variants.map((variant) => variant.id))).toEqual(new Set(own.lines.map((line) => line.variant)));
    expect(await t.app.services.orders.linesOf(distributor, [])).toEqual({ lines: [], variants: [], products: [] });
  });
});

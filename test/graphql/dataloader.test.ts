import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, unique, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The N+1 guard: a page of orders with its customers, roles, lines, variants, products, classes
 * and sibling variants costs the same fixed number of SQL statements whatever the page size.
 */

const ORDER_COUNT = 120;
const QUERY = `query($limit: Int!) {
  orders(limit: $limit) {
    nodes {
      orderCode
      customer { firstName role { name } }
      items { quantity variant { itemSkuCode product { name productClass { name } variants { id } } } }
    }
    pageInfo { total }
  }
}`;

interface Page {
  orders: {
    nodes: Array<{
      orderCode: string;
      customer: { firstName: string; role: { name: string } };
      items: Array<{ quantity: number; variant: { itemSkuCode: string; product: { name: string; productClass: { name: string }; variants: Array<{ id: number }> } } }>;
    }>;
    pageInfo: { total: number };
  };
}

describe('GraphQL DataLoaders keep nested order pages at a constant query count', () => {
  let t: TestApp;
  let ws: Workspace;
  /** What each order was placed with, by order code. */
  const placed = new Map<string, { customer: string; lines: Array<{ sku: string; quantity: number }> }>();
  const skuOf = new Map<number, { sku: string; product: string; className: string; siblings: number[] }>();
  const customerNames = new Map<number, { firstName: string; role: string }>();

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    // Three classes, four products of two or three variants: ten variants in all.
    const classIds: number[] = [];
    const classNames: string[] = [];
    for (const name of ['Milk', 'Curd', 'Paneer']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: `${name} ${unique()}` } });
      expect(res.statusCode, res.body).toBe(201);
      classIds.push(res.json().data.id);
      classNames.push(res.json().data.product_class);
    }
    for (let p = 0; p < 4; p++) {
      const n = unique();
      const variants = Array.from({ length: 2 + (p % 2) }, (_, v) => ({ variant_name: `V${v}`, item_sku_code: `SKU-${n}-${v}`, mrp: 20 + v, sp: 10 + v }));
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/products',
        token: ws.token,
        payload: { product_name: `Product ${n}`, product_class_id: classIds[p % 3], variants },
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json().data;
      const siblings = body.ProductVariants.map((v: { id: number }) => v.id);
      for (const v of body.ProductVariants) {
        skuOf.set(v.id, { sku: v.item_sku_code, product: body.product_name, className: classNames[p % 3], siblings });
      }
    }
    // Five customers: three distributors and two retailers.
    const customers: number[] = [];
    for (const type of [UserType.DISTRIBUTOR, UserType.RETAILER, UserType.DISTRIBUTOR, UserType.RETAILER, UserType.DISTRIBUTOR]) {
      const user = await createUser(t, ws, type);
      customers.push(user.id);
      customerNames.set(user.id, { firstName: user.body.first_name as string, role: type === UserType.DISTRIBUTOR ? 'Distributor' : 'Retailer' });
    }
    const variantIds = [...skuOf.keys()];
    // 120 orders of 1–4 lines each, placed over REST in parallel batches.
    const payloads = Array.from({ length: ORDER_COUNT }, (_, i) => {
      const lineCount = (i % 4) + 1;
      const items = Array.from({ length: lineCount }, (_, l) => ({ product_variant_id: variantIds[(i + l * 3) % variantIds.length], quantity: (i % 7) + l + 1 }));
      return { user_id: customers[i % customers.length], items };
    });
    for (let start = 0; start < payloads.length; start += 10) {
      const batch = payloads.slice(start, start + 10);
      const answers = await Promise.all(batch.map((payload) => t.request({ method: 'POST', url: '/api/v1/orders', token: ws.token, payload })));
      answers.forEach((res, i) => {
        expect(res.statusCode, res.body).toBe(201);
        const payload = batch[i];
        placed.set(res.json().data.order_code, {
          customer: customerNames.get(payload.user_id)!.firstName,
          lines: payload.items.map((item) => ({ sku: skuOf.get(item.product_variant_id)!.sku, quantity: item.quantity })),
        });
      });
    }
    expect(placed.size).toBe(ORDER_COUNT);
  }, 120_000);
  afterAll(() => t.close());

  async function run(limit: number): Promise<{ count: number; statements: string[]; page: Page }> {
    t.queries.reset();
    const res = await t.graphql<Page>(QUERY, { limit }, ws.token);
    const measured = { count: t.queries.count, statements: [...t.queries.statements] };
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return { ...measured, page: res.data! };
  }

  function checkPage(page: Page, limit: number): void {
    expect(page.orders.pageInfo.total).toBe(ORDER_COUNT);
    expect(page.orders.nodes).toHaveLength(limit);
    for (const node of page.orders.nodes) {
      const expected = placed.get(node.orderCode);
      expect(expected, node.orderCode).toBeDefined();
      expect(node.customer.firstName).toBe(expected!.customer);
      expect(node.customer.role.name).toBe([...customerNames.values()].find((c) => c.firstName === expected!.customer)!.role);
      expect(node.items.map((i) => ({ sku: i.variant.itemSkuCode, quantity: i.quantity }))).toEqual(expected!.lines);
      for (const item of node.items) {
        const variant = [...skuOf.values()].find((v) => v.sku === item.variant.itemSkuCode)!;
        expect(item.variant.product.name).toBe(variant.product);
        expect(item.variant.product.productClass.name).toBe(variant.className);
        expect(item.variant.product.variants.map((v) => v.id)).toEqual(variant.siblings);
      }
    }
  }

  it('costs the same small number of SQL statements for 10, 50 and 100 orders', async () => {
    const runs = [];
    for (const limit of [10, 50, 100]) {
      const measured = await run(limit);
      checkPage(measured.page, limit);
      runs.push({ limit, ...measured });
    }
    const report = runs.map((r) => `limit ${r.limit}: ${r.count} statements\n  ${r.statements.join('\n  ')}`).join('\n\n');
    const counts = runs.map((r) => r.count);
    expect(counts, report).toEqual([counts[0], counts[0], counts[0]]);
    expect(counts[0], report).toBeLessThanOrEqual(10);
    // One statement per level at most: session, page, count, role, lines, variants, products, classes, sibling variants.
    expect(counts[0], report).toBeGreaterThanOrEqual(5);
  });

  it('stays constant on later pages and when a page is asked twice in one request', async () => {
    const baseline = (await run(10)).count;
    t.queries.reset();
    const res = await t.graphql<{ a: Page['orders']; b: Page['orders'] }>(
      `query { a: orders(limit: 60, page: 2) { nodes { orderCode items { variant { product { name } } } } }
               b: orders(limit: 60, page: 2) { nodes { orderCode items { variant { product { name } } } } } }`,
      {},
      ws.token,
    );
    const statements = [...t.queries.statements];
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.data!.a.nodes).toHaveLength(60);
    expect(res.data!.a.nodes.map((n) => n.orderCode)).toEqual(res.data!.b.nodes.map((n) => n.orderCode));
    // Two pages (select + count each), then one batch per nested level shared by both aliases.
    expect(t.queries.count, statements.join('\n')).toBeLessThanOrEqual(baseline);
  });
});

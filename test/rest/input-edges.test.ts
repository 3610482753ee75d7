import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, seedCatalog, uniquePhone, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Regressions found in review: races, numeric overflow, and explicit nulls from GraphQL. */
describe('input edges', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
  });
  afterAll(() => t.close());

  it('concurrent user creates never overshoot max_users', async () => {
    const small = await createWorkspace(t);
    await t.orm.em.fork().getConnection().execute('update organization set max_users = 4 where id = ?', [small.organizationId]);
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/v1/users',
          token: small.token,
          payload: {
            first_name: `Racer${i}`,
            last_name: 'Parallel',
            primary_contact_number: uniquePhone(),
            password: 'password123',
            role_id: small.roles.Employee,
            user_type: 1,
          },
        }),
      ),
    );
    const codes = attempts.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 400, 400, 400, 400, 400]); // admin + 3 = 4
    const list = await t.request({ method: 'GET', url: '/api/v1/users', token: small.token });
    expect(list.json().pagination.total).toBe(4);
  });

  it('an order whose amount would overflow its column is a 400 naming the quantity, not a 500', async () => {
    const product = await t.request({
      method: 'POST',
      url: '/api/v1/products',
      token: ws.token,
      payload: {
        product_name: 'Bullion',
        product_class_id: catalog.productClassId,
        variants: [{ variant_name: 'Bar', item_sku_code: 'GOLD-1', mrp: 9999999999.99, sp: 9999999999.99 }],
      },
    });
    expect(product.statusCode, product.body).toBe(201);
    const variantId = product.json().data.ProductVariants[0].id;
    const before = (await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token })).json().pagination.total;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/orders',
      token: ws.token,
      payload: { user_id: catalog.distributorId, items: [{ product_variant_id: variantId, quantity: 1000 }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe('items[0].quantity makes the order amount exceed 999999999999.99');
    const ok = await t.request({
      method: 'POST',
      url: '/api/v1/orders',
      token: ws.token,
      payload: { user_id: catalog.distributorId, items: [{ product_variant_id: variantId, quantity: 99 }] },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.order_total_amount).toBe(989999999999.01);
    expect((await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token })).json().pagination.total).toBe(before + 1);
  });

  it('numbers that are not finite (Infinity, 1e400) in a path, a query or a body are a 400 naming the field, not a 500', async () => {
    // Found by the API fuzz: ajv coerces "Infinity" and "1e400" to Infinity and its `integer`
    // accepts it, and JSON.parse reads a body's 1e400 as Infinity; PostgreSQL then refused them.
    const cases: Array<[string, string, string | undefined, string]> = [
      ['GET', '/api/v1/orders/Infinity', undefined, 'id must be a finite number'],
      ['GET', '/api/v1/users/-Infinity', undefined, 'id must be >= 1'],
      ['GET', '/api/v1/users/1e400', undefined, 'id must be a finite number'],
      ['GET', '/api/v1/orders?user_id=Infinity', undefined, 'user_id must be a finite number'],
      ['GET', '/api/v1/developer/webhook-deliveries?webhook_id=Infinity', undefined, 'webhook_id must be a finite number'],
      ['POST', '/api/v1/masters/routes', '{"route_name": "Edge", "town_id": 1e400}', 'town_id must be a finite number'],
      ['POST', '/api/v1/orders', `{"user_id": ${catalog.retailerId}, "items": [{"product_variant_id": 1e400, "quantity": 1}]}`, 'items[0].product_variant_id must be a finite number'],
    ];
    const before = await t.orm.em.fork().getConnection().execute<{ n: string }[]>('select (select count(*) from route) + (select count(*) from sales_order) as n');
    for (const [method, url, payload, message] of cases) {
      const res = await t.request({ method: method as 'GET', url, token: ws.token, ...(payload ? { payload, headers: { 'content-type': 'application/json' } } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const after = await t.orm.em.fork().getConnection().execute<{ n: string }[]>('select (select count(*) from route) + (select count(*) from sales_order) as n');
    expect(after).toEqual(before);
  });

  it('an unknown query parameter is a 400 naming it, on every list, not silently ignored', async () => {
    for (const url of ['/orders?production_unt_id=1', '/users?rol_id=1', '/products?page=1&colour=red', '/masters/towns?name=x']) {
      const res = await t.request({ method: 'GET', url: `/api/v1${url}`, token: ws.token });
      const unknown = new URL(url, 'http://x').searchParams;
      const name = [...unknown.keys()].find((k) => k !== 'page')!;
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors, url).toEqual([{ field: name, message: `${name} is not a known query parameter of this endpoint` }]);
    }
    const known = await t.request({ method: 'GET', url: '/api/v1/orders?page=1&limit=5', token: ws.token });
    expect(known.statusCode).toBe(200);
  });

  it('pack counts beyond the limit are a 400, not an integer overflow', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/products',
      token: ws.token,
      payload: {
        product_name: 'Crate',
        product_class_id: catalog.productClassId,
        variants: [{ variant_name: 'Big', item_sku_code: 'CRATE-1', mrp: 1, sp: 1, variant_quantity: 3000000000 }],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('variants[0].variant_quantity must be <= 1000000');
  });

  describe('explicit null in GraphQL inputs means "not given"', () => {
    it('updateWorkspaceConfig keeps fields sent as null (logo null clears the logo)', async () => {
      const res = await t.graphql(
        `mutation { updateWorkspaceConfig(input: { primaryColor: null, chatbotEnabled: null, orderTiming: null, orgAddress: "1 Market Rd", logo: null }) { primaryColor chatbotEnabled orderTiming orgAddress logo } }`,
        {},
        ws.token,
      );
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({
        updateWorkspaceConfig: { primaryColor: '#1F4E79', chatbotEnabled: false, orderTiming: '00:00-23:59', orgAddress: '1 Market Rd', logo: null },
      });
    });

    it('createOrder with orderDate null uses today; orders(dateFrom: null) is no filter', async () => {
      const created = await t.graphql<{ createOrder: { order: { orderDate: string } } }>(
        `mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { orderDate } } }`,
        { input: { userId: catalog.distributorId, orderDate: null, items: [{ productVariantId: catalog.variantIds[0], quantity: 1 }] } },
        ws.token,
      );
      expect(created.errors).toBeUndefined();
      expect(created.data?.createOrder.order.orderDate).toBe(new Date().toISOString().slice(0, 10));
      const list = await t.graphql<{ orders: { pageInfo: { total: number } } }>(
        `{ orders(dateFrom: null, dateTo: null, status: null, userId: null) { pageInfo { total } } }`,
        {},
        ws.token,
      );
      expect(list.errors).toBeUndefined();
      expect(list.data?.orders.pageInfo.total).toBeGreaterThan(0);
    });

    it('updateProductClass(unit: null) leaves the unit as it was', async () => {
      const res = await t.graphql<{ updateProductClass: { unit: string; name: string } }>(
        `mutation($id: Int!) { updateProductClass(id: $id, input: { unit: null, name: "Renamed class" }) { name unit } }`,
        { id: catalog.productClassId },
        ws.token,
      );
      expect(res.errors).toBeUndefined();
      expect(res.data?.updateProductClass).toEqual({ name: 'Renamed class', unit: 'litre' });
    });

    it('createProduct with productColorCode null gets the default colour', async () => {
      const res = await t.graphql<{ createProduct: { colorCode: string } }>(
        `mutation($input: CreateProductInput!) { createProduct(input: $input) { colorCode } }`,
        { input: { productName: 'Plain', productClassId: catalog.productClassId, productColorCode: null } },
        ws.token,
      );
      expect(res.errors).toBeUndefined();
      expect(res.data?.createProduct.colorCode).toBe('#000000');
    });
  });

  it('customers are not staff: an employee may create orders, a distributor only for itself', async () => {
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/orders',
      token: employee.token,
      payload: { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[1], quantity: 2 }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.order_total_amount).toBe(110);
  });
});

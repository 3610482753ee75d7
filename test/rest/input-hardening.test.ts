import type { LightMyRequestResponse } from 'fastify';
import { getNamedType, isNonNullType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlSchema } from '../../src/graphql/schema';
import { MAX_PAGE } from '../../src/lists/page-request';
import { expectGraphqlError } from '../helpers/graphql-assertions';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Input that once answered 500 or was silently misread: huge pages, NUL characters, unknown body
 * fields, empty JSON bodies; and what every 400 says (each invalid field in `errors`).
 */
describe('input hardening', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  /** A retailer's session: the customer portal's lists are theirs (staff get 403 there). */
  let customerToken: string;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    customerToken = (await createUser(t, ws, UserType.RETAILER)).token;
  });
  afterAll(() => t.close());

  const count = async (table: string): Promise<number> => {
    const rows = await t.orm.em.fork().getConnection().execute<{ n: string }[]>(`select count(*) as n from ${table}`);
    return Number(rows[0].n);
  };

  /** A 400 whose `errors` are exactly these fields, in this order, and whose message is the first one's. */
  function expectInvalid(res: LightMyRequestResponse, fields: Array<string | null>, message?: string | RegExp): void {
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['response_code', 'message', 'errors']);
    expect(body.response_code).toBe(400);
    expect(body.errors.map((e: { field: string | null }) => e.field)).toEqual(fields);
    expect(body.message).toBe(body.errors[0].message);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else if (message) expect(body.message).toMatch(message);
  }

  /** Every GET operation of the REST interface with the given query parameter, from its own OpenAPI document. */
  function getOperationsWith(parameter: string): string[] {
    const doc = t.app.swagger() as { paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string }> } }> };
    return Object.entries(doc.paths)
      .filter(([, item]) => item.get?.parameters?.some((p) => p.in === 'query' && p.name === parameter))
      .map(([path]) => `/api/v1${path}`);
  }

  describe('page has an upper bound on every list', () => {
    it('REST: 470000000000000000 and 1e20 are a 400 naming page; the last allowed page is an empty page', async () => {
      const lists = getOperationsWith('page');
      // users, products, orders, the master kinds, attendance, payments at least
      expect(lists.length).toBeGreaterThanOrEqual(10);
      // Lists under a record, or of one record's rows, need the record named.
      const needs: Record<string, { id?: number; query?: string; rows?: (data: Record<string, unknown[]>) => unknown[] }> = {
        '/api/v1/products/variants/{id}/prices': { id: catalog.variantIds[0] },
        '/api/v1/ledger/statement': { query: `&customer_id=${catalog.retailerId}`, rows: (data) => data.rows },
        '/api/v1/portal/ledger': { rows: (data) => data.rows },
        '/api/v1/portal/products': { rows: (data) => data.products },
      };
      for (const listed of lists) {
        const need = needs[listed] ?? {};
        const url = need.id === undefined ? listed : listed.replace('{id}', String(need.id));
        const extra = need.query ?? '';
        const token = url.includes('/portal/') ? customerToken : ws.token;
        for (const page of ['470000000000000000', '1e20', String(MAX_PAGE + 1)]) {
          const res = await t.request({ method: 'GET', url: `${url}?page=${page}${extra}`, token });
          expectInvalid(res, ['page'], `page must be <= ${MAX_PAGE}`);
        }
        const last = await t.request({ method: 'GET', url: `${url}?page=${MAX_PAGE}&limit=100${extra}`, token });
        expect(last.statusCode, `${url}: ${last.body}`).toBe(200);
        expect(need.rows ? need.rows(last.json().data) : last.json().data).toEqual([]);
        expect(last.json().pagination.page).toBe(MAX_PAGE);
      }
    });

    it('GraphQL: every list field refuses a page beyond the bound with BAD_USER_INPUT naming page', async () => {
      const schema = await graphqlSchema();
      const lists = Object.values(schema.getQueryType()!.getFields()).filter((f) => f.args.some((a) => a.name === 'page'));
      expect(lists.length).toBeGreaterThanOrEqual(10);
      for (const field of lists) {
        expect(isObjectType(getNamedType(field.type)), field.name).toBe(true);
        // A required argument (a list under a record) names a record of the workspace.
        const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined).map((a) => `, ${a.name}: ${catalog.variantIds[0]}`);
        const res = await t.graphql(`{ ${field.name}(page: ${MAX_PAGE + 1}${required.join('')}) { __typename } }`, {}, field.name.startsWith('portal') ? customerToken : ws.token);
        expectGraphqlError(res, 'BAD_USER_INPUT', `page must be <= ${MAX_PAGE}`);
      }
      const ok = await t.graphql<{ users: { nodes: unknown[] } }>(`{ users(page: ${MAX_PAGE}) { nodes { id } } }`, {}, ws.token);
      expect(ok.errors).toBeUndefined();
      expect(ok.data?.users.nodes).toEqual([]);
    });
  });

  describe('NUL characters are refused in every string, at the edge', () => {
    it('REST search of orders, users, products and every master kind → 400 naming search', async () => {
      const lists = getOperationsWith('search');
      for (const path of ['/api/v1/orders', '/api/v1/users', '/api/v1/products', '/api/v1/masters/towns']) expect(lists).toContain(path);
      for (const url of lists) {
        expectInvalid(await t.request({ method: 'GET', url: `${url}?search=%00`, token: ws.token }), ['search'], 'search must not contain NUL characters');
        expectInvalid(await t.request({ method: 'GET', url: `${url}?search=milk%00x`, token: ws.token }), ['search']);
      }
    });

    it('REST bodies: a NUL anywhere, nested too, is a 400 naming each field, and nothing is written', async () => {
      const [products, users] = [await count('product'), await count('app_user')];
      const product = await t.request({
        method: 'POST',
        url: '/api/v1/products',
        token: ws.token,
        payload: {
          product_name: 'Paneer\u0000',
          product_class_id: catalog.productClassId,
          variants: [{ variant_name: '200 g', item_sku_code: 'P\u0000-200', mrp: 90, sp: 85 }],
        },
      });
      expectInvalid(product, ['product_name', 'variants[0].item_sku_code'], 'product_name must not contain NUL characters');
      // The e-mail reaches a lookup statement before any rule of the sign-in service would see it.
      const login = await t.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a\u0000@example.test', password: 'x', challenge_token: 'x' } });
      expectInvalid(login, ['email'], 'email must not contain NUL characters');
      expect([await count('product'), await count('app_user')]).toEqual([products, users]);
    });

    it('GraphQL: literals, variables and input objects → BAD_USER_INPUT (HTTP 400) before any resolver, nothing written', async () => {
      const towns = await count('town');
      for (const list of ['orders', 'users', 'products', 'towns']) {
        const res = await t.graphql(`{ ${list}(search: "\\u0000") { pageInfo { total } } }`, {}, ws.token);
        expectGraphqlError(res, 'BAD_USER_INPUT', 'search must not contain NUL characters');
        expect(res.statusCode).toBe(400);
      }
      const variable = await t.graphql('query($search: String) { orders(search: $search) { pageInfo { total } } }', { search: 'a\u0000' }, ws.token);
      expectGraphqlError(variable, 'BAD_USER_INPUT', 'search must not contain NUL characters');
      const input = await t.graphql('mutation { createTown(input: { name: "Pune\\u0000" }) { id } }', {}, ws.token);
      expectGraphqlError(input, 'BAD_USER_INPUT', 'input.name must not contain NUL characters');
      const viaVariable = await t.graphql('mutation($input: TownInput!) { createTown(input: $input) { id } }', { input: { name: '\u0000' } }, ws.token);
      expectGraphqlError(viaVariable, 'BAD_USER_INPUT', 'input.name must not contain NUL characters');
      const products = await count('product');
      const nested = await t.graphql(
        `mutation { createProduct(input: { productName: "Curd", productClassId: ${catalog.productClassId},
           variants: [{ variantName: "1 kg", itemSkuCode: "C-1", mrp: 2, sp: 1 }, { variantName: "2\u0000kg", itemSkuCode: "C-2", mrp: 2, sp: 1 }] }) { id } }`,
        {},
        ws.token,
      );
      expectGraphqlError(nested, 'BAD_USER_INPUT', 'input.variants[1].variantName must not contain NUL characters');
      expect([await count('town'), await count('product')]).toEqual([towns, products]);
      // Other control characters are ordinary text.
      const tab = await t.graphql('{ towns(search: "a\\tb") { pageInfo { total } } }', {}, ws.token);
      expect(tab.errors).toBeUndefined();
    });
  });

  describe('unknown body fields are refused, naming them', () => {
    it('a top-level and a nested unknown field → 400 listing both, nothing created', async () => {
      const orders = await count('sales_order');
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/orders',
        token: ws.token,
        payload: { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], qty: 2 }], notes: 'call first' },
      });
      expectInvalid(res, ['notes', 'items[0].quantity', 'items[0].qty'], 'notes is not a known field');
      expect(await count('sales_order')).toBe(orders);
      const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: 'Wai', town_code: 'W1' } });
      expectInvalid(town, ['town_code'], 'town_code is not a known field');
    });

    it("the WebAuthn payload inside a passkey body stays open (the browser library's JSON); the body around it does not", async () => {
      const payload = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: {}, clientExtensionResults: {}, futureField: true };
      const open = await t.request({ method: 'POST', url: '/api/v1/auth/passkey/login/verify', payload: { response: payload } });
      expect(open.statusCode, open.body).not.toBe(500);
      expect(open.body).not.toMatch(/not a known field/);
      const closed = await t.request({ method: 'POST', url: '/api/v1/auth/passkey/login/verify', payload: { response: payload, remember: true } });
      expectInvalid(closed, ['remember'], 'remember is not a known field');
    });
  });

  describe('PATCH /orders/{id}/status: `status` is a deprecated alias of order_status', () => {
    const patch = (id: number, payload: Record<string, unknown>) =>
      t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload });
    const statusOf = async (id: number) => (await t.request({ method: 'GET', url: `/api/v1/orders/${id}`, token: ws.token })).json().data.order_status;

    it('is accepted with Deprecation and Link headers; order_status alone has none', async () => {
      const order = await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
      const viaAlias = await patch(order.id, { status: 2 });
      expect(viaAlias.statusCode, viaAlias.body).toBe(200);
      expect(viaAlias.headers.deprecation).toMatch(/^@\d+$/);
      expect(viaAlias.headers.link).toBe('</docs>; rel="deprecation"; type="text/html"');
      expect(await statusOf(order.id)).toBe(2);
      const both = await patch(order.id, { order_status: 3, status: 3 });
      expect(both.statusCode, both.body).toBe(200);
      expect(both.headers.deprecation).toBeDefined();
      const named = await patch(order.id, { order_status: 4 });
      expect(named.statusCode, named.body).toBe(200);
      expect(named.headers.deprecation).toBeUndefined();
      expect(named.headers.link).toBeUndefined();
    });

    it('both with different values, neither, or a bad alias → 400, the order unchanged', async () => {
      const order = await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
      expectInvalid(await patch(order.id, { order_status: 2, status: 3 }), ['status'], /^status is a deprecated alias of order_status and must not differ/);
      expectInvalid(await patch(order.id, {}), ['order_status'], 'order_status is required');
      expectInvalid(await patch(order.id, { status: 9 }), ['status'], 'status must be one of: 2, 3, 4');
      expect(await statusOf(order.id)).toBe(1);
    });
  });

  describe('a 400 lists every invalid field', () => {
    it('schema violations: one entry per field, in the order of the schema, the message being the first', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/users',
        token: ws.token,
        payload: { first_name: '', last_name: 7, primary_contact_number: '9876500001', password: 'long-enough-secret', user_type: 9 },
      });
      expect(res.statusCode, res.body).toBe(400);
      const { errors, message } = res.json();
      expect(errors.length).toBeGreaterThanOrEqual(4);
      expect(errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['role_id', 'first_name', 'last_name', 'user_type']));
      expect(new Set(errors.map((e: { field: string }) => e.field)).size).toBe(errors.length);
      expect(message).toBe(errors[0].message);
      for (const e of errors) expect(e.message.startsWith(`${e.field} `), e.message).toBe(true);
    });

    it('a union reports its field once; query strings list each parameter', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/orders?page=0&limit=500&status=9&date_from=yesterday', token: ws.token });
      expectInvalid(res, ['page', 'limit', 'status', 'date_from'], 'page must be >= 1');
      const nullable = await t.request({
        method: 'POST',
        url: '/api/v1/orders',
        token: ws.token,
        payload: { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }], delivery_date: 'soon' },
      });
      expectInvalid(nullable, ['delivery_date'], 'delivery_date must be a date in the form YYYY-MM-DD');
    });

    it('a service rule gives one entry; a fault of the request as a whole one entry without a field', async () => {
      const rule = await t.request({ method: 'GET', url: '/api/v1/payments?date_from=2026-02-01&date_to=2026-01-01', token: ws.token });
      expectInvalid(rule, ['date_from'], 'date_from must not be after date_to');
      const notJson = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, headers: { 'content-type': 'application/json' }, payload: '{"town_name":' });
      expectInvalid(notJson, [null], 'Request body is not valid JSON');
      const notObject = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: [1] });
      expectInvalid(notObject, [null], 'Request body must be an object');
    });
  });

  describe('content-type: application/json with an empty body', () => {
    const empty = { 'content-type': 'application/json' };

    it('is no body on routes that take none: DELETE an API key, POST /auth/logout; an unknown path is 404', async () => {
      const key = await createApiKey(t, ws);
      const revoked = await t.request({ method: 'DELETE', url: `/api/v1/developer/api-keys/${key.id}`, token: ws.token, headers: empty });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const unknown = await t.request({ method: 'POST', url: '/api/v1/no-such-thing', token: ws.token, headers: empty });
      expect(unknown.statusCode, unknown.body).toBe(404);
      // GraphQL takes its body unvalidated: an empty one is Apollo's 400, not a 5xx.
      const graphql = await t.request({ method: 'POST', url: '/graphql', token: ws.token, headers: empty });
      expect(graphql.statusCode, graphql.body).toBe(400);
      const other = await createWorkspace(t);
      const logout = await t.request({ method: 'POST', url: '/api/v1/auth/logout', token: other.token, headers: empty });
      expect(logout.statusCode, logout.body).toBe(200);
      expect((await t.request({ method: 'GET', url: '/api/v1/auth/me', token: other.token })).statusCode).toBe(401);
    });

    it('is still refused where a body is required', async () => {
      const towns = await count('town');
      const res = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, headers: empty });
      expectInvalid(res, [null], 'Request body is not valid JSON');
      expect(await count('town')).toBe(towns);
    });
  });
});

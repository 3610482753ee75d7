import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import {
  createApiKey,
  createWorkspace,
  placeOrder,
  seedCatalog,
  unique,
  uniquePhone,
  type Catalog,
  type IssuedKey,
  type Workspace,
} from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/**
 * What an API key may reach: the scope rules over REST and GraphQL, the groups closed to keys,
 * the credential rules, tenant isolation, the workspace gates for keys and how long a cached key
 * outlives a change made elsewhere.
 */

// ---------------------------------------------------------------------------------------------
// The rules, stated once (README: API keys): refused group, then write, then confinement.
// ---------------------------------------------------------------------------------------------

const REFUSED_GROUPS = ['auth', 'signup', 'developer', 'billing', 'platform', 'super-admin', 'portal', 'driver-app', 'support'];

const READ_ONLY = 'This API key is read-only: the write scope is required';
const SESSION_ONLY = 'This operation needs a signed-in user session';
const NO_ADMINS = 'API keys cannot create administrators; an administrator must do it signed in';
const SUSPENDED = 'This workspace is suspended; contact support to reactivate it';
const TRIAL_ENDED = 'The workspace trial has ended: API keys work again once the workspace is on a paid plan';
const INVALID_KEY = 'Invalid API key';
const REVOKED = 'This API key has been revoked';
const TWO_CREDENTIALS = 'Send one credential: either X-API-Key or Authorization, not both';
const refusedGroup = (group: string) => `API keys are not accepted on /${group}: sign in with a session token`;
const notScoped = (group: string, allowed: readonly string[]) => `This API key is not scoped for ${group}: its scopes allow ${allowed.join(', ')}`;

/** The keys of the matrix: the scopes string they are issued with, and what it grants. */
const KEY_SCOPES: Record<string, { write: boolean; groups: readonly string[] | null }> = {
  read: { write: false, groups: null },
  write: { write: true, groups: null },
  '*': { write: true, groups: null },
  orders: { write: false, groups: ['orders'] },
  'orders,write': { write: true, groups: ['orders'] },
  'users,products': { write: false, groups: ['users', 'products'] },
  'write,masters': { write: true, groups: ['masters'] },
};
const SCOPE_NAMES = Object.keys(KEY_SCOPES);

/** The 403 message a key with these scopes gets for `group`, or null when the scope check passes. */
function expectedRefusal(scopes: string, group: string, write: boolean): string | null {
  const grant = KEY_SCOPES[scopes];
  if (REFUSED_GROUPS.includes(group)) return refusedGroup(group);
  if (write && !grant.write) return READ_ONLY;
  if (grant.groups && !grant.groups.includes(group)) return notScoped(group, grant.groups);
  return null;
}

const describeOutcome = (refusal: string | null, passes: number) => (refusal === null ? `passes (${passes})` : `403 "${refusal}"`);

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

function expectErrorBody(res: LightMyRequestResponse, status: number, message: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual(errorEnvelope(status, message));
}

const sql = <T extends Record<string, unknown>[] = Record<string, unknown>[]>(t: TestApp, query: string, params: unknown[] = []) =>
  t.orm.em.fork().getConnection().execute<T>(query, params);

const getOrders = (t: TestApp, apiKey: string) => t.request({ method: 'GET', url: '/api/v1/orders', apiKey });

const ORDERS_QUERY = '{ orders { pageInfo { total } } }';

/** A well-formed key (df_ + 48 lower-case hex) that was never issued. */
const unknownKey = () => `df_${randomBytes(24).toString('hex')}`;

function employeePayload(ws: Workspace, userType: UserType = UserType.EMPLOYEE) {
  const n = unique();
  return {
    first_name: `Keyed${n}`,
    last_name: 'Person',
    official_email: `keyed${n}@example.test`,
    primary_contact_number: uniquePhone(),
    password: 'password123',
    role_id: ws.roles[userType === UserType.ADMIN ? 'Admin' : 'Employee'],
    user_type: userType,
  };
}

// ---------------------------------------------------------------------------------------------
// Scopes, REST and GraphQL, in one workspace (keys issued once for the whole describe)
// ---------------------------------------------------------------------------------------------

describe('API key access', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  let orderId: number;
  /** Keys of `ws` by the scopes string they were issued with. */
  const keys: Record<string, IssuedKey> = {};
  const keyOf = (scopes: string) => keys[scopes].key;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Keyed Dairy');
    catalog = await seedCatalog(t, ws);
    orderId = (await placeOrder(t, ws.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] })).id;
    for (const scopes of SCOPE_NAMES) keys[scopes] = await createApiKey(t, ws, { scopes });
  });
  afterAll(() => t?.close());

  describe('REST scope matrix', () => {
    /** What each route answers once past the scope check: invalid `{}` bodies are a 400, missing routes a 404. */
    const ROUTES: Array<{ group: string; method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH'; path: string; passes: number }> = [
      { group: 'orders', method: 'GET', path: '/orders', passes: 200 },
      { group: 'orders', method: 'HEAD', path: '/orders', passes: 200 },
      { group: 'orders', method: 'POST', path: '/orders', passes: 400 },
      { group: 'orders', method: 'PATCH', path: '/orders/:order/status', passes: 400 },
      { group: 'users', method: 'GET', path: '/users', passes: 200 },
      { group: 'users', method: 'POST', path: '/users', passes: 400 },
      { group: 'products', method: 'GET', path: '/products', passes: 200 },
      { group: 'products', method: 'POST', path: '/products', passes: 400 },
      { group: 'masters', method: 'GET', path: '/masters/towns', passes: 200 },
      { group: 'masters', method: 'POST', path: '/masters/towns', passes: 400 },
      { group: 'workspace', method: 'GET', path: '/workspace/config', passes: 200 },
      { group: 'workspace', method: 'PUT', path: '/workspace/config', passes: 400 },
      { group: 'dashboard', method: 'GET', path: '/dashboard/stats', passes: 200 },
      { group: 'dashboard', method: 'POST', path: '/dashboard/stats', passes: 404 },
      { group: 'exports', method: 'GET', path: '/exports/orders?format=tsv', passes: 400 },
      { group: 'exports', method: 'POST', path: '/exports/orders', passes: 404 },
      { group: 'reports', method: 'GET', path: '/reports/sales', passes: 200 },
      { group: 'reports', method: 'POST', path: '/reports/sales', passes: 404 },
    ];
    const CASES = SCOPE_NAMES.flatMap((scopes) =>
      ROUTES.map((route) => {
        const write = route.method !== 'GET' && route.method !== 'HEAD';
        const refusal = expectedRefusal(scopes, route.group, write);
        return { ...route, scopes, write, refusal, name: `key "${scopes}": ${route.method} ${route.path} → ${describeOutcome(refusal, route.passes)}` };
      }),
    );

    const COUNTED_TABLES = ['town', 'product', 'sales_order', 'app_user', 'order_status_history'];
    const countRows = async () =>
      Object.fromEntries(
        await Promise.all(
          COUNTED_TABLES.map(async (table) => [table, (await sql<{ n: number }[]>(t, `select count(*)::int as n from ${table}`))[0].n]),
        ),
      );
    let rowsBefore: Record<string, number>;
    beforeAll(async () => {
      rowsBefore = await countRows();
    });

    // Loops rather than it.each: it.each shortens object-formatted titles to 40 characters.
    for (const { name, scopes, method, path, write, refusal, passes } of CASES) it(name, async () => {
      const url = `/api/v1${path.replace(':order', String(orderId))}`;
      const res = await t.request({ method, url, apiKey: keyOf(scopes), ...(write ? { payload: {} } : {}) });
      const status = refusal === null ? passes : 403;
      expect(res.statusCode, res.body).toBe(status);
      if (method === 'HEAD') {
        expect(res.body).toBe(''); // no body, whatever the answer
        return;
      }
      if (refusal !== null) expect(res.json()).toEqual({ response_code: 403, message: refusal });
      else if (passes === 404) expect(res.json()).toEqual({ response_code: 404, message: `No endpoint ${method} ${url}` });
      else if (passes === 400) expect(res.json()).toEqual(errorEnvelope(400, expect.any(String)));
      else expect(res.json()).toMatchObject({ response_code: 200, data: expect.anything() });
    });

    it('the matrix wrote nothing: refused writes and invalid bodies leave every table as it was', async () => {
      expect(await countRows()).toEqual(rowsBefore);
    });

    it('a group is matched however its path segment is spelt (percent-encoded, with a query string)', async () => {
      expectErrorBody(await t.request({ method: 'GET', url: '/api/v1/%64eveloper/api-keys', apiKey: keyOf('*') }), 403, refusedGroup('developer'));
      expectErrorBody(await t.request({ method: 'GET', url: '/api/v1/%61uth/me', apiKey: keyOf('*') }), 403, refusedGroup('auth'));
      expectErrorBody(await t.request({ method: 'GET', url: '/api/v1/auth/me?x=1', apiKey: keyOf('*') }), 403, refusedGroup('auth'));
      expectErrorBody(await t.request({ method: 'GET', url: '/api/v1/%75sers', apiKey: keyOf('orders') }), 403, notScoped('users', ['orders']));
      const ok = await t.request({ method: 'GET', url: '/api/v1/orders?limit=1', apiKey: keyOf('orders') });
      expect(ok.statusCode, ok.body).toBe(200);
    });
  });

  describe('REST writes by keys', () => {
    it('a write key creates a town and a product', async () => {
      const n = unique();
      const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', apiKey: keyOf('write'), payload: { town_name: `Key Town ${n}` } });
      expect(town.statusCode, town.body).toBe(201);
      expect(town.json()).toMatchObject({ response_code: 201, data: { id: expect.any(Number), town_name: `Key Town ${n}` } });

      const product = await t.request({
        method: 'POST',
        url: '/api/v1/products',
        apiKey: keyOf('write'),
        payload: {
          product_name: `Key Curd ${n}`,
          product_class_id: catalog.productClassId,
          variants: [{ variant_name: '400 g', item_sku_code: `KC-400-${n}`, mrp: 40, sp: 38 }],
        },
      });
      expect(product.statusCode, product.body).toBe(201);
      const listed = await t.request({ method: 'GET', url: `/api/v1/products?search=${encodeURIComponent(`Key Curd ${n}`)}`, token: ws.token });
      expect(listed.json().data.map((p: { id: number }) => p.id)).toEqual([product.json().data.id]);
    });

    it('an orders-only write key places an order and moves its status; the history names the key, not a user', async () => {
      const key = keys['orders,write'];
      const placed = await t.request({
        method: 'POST',
        url: '/api/v1/orders',
        apiKey: key.key,
        payload: { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[1], quantity: 3 }] },
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const id = placed.json().data.id as number;

      const moved = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, apiKey: key.key, payload: { order_status: 2 } });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toMatchObject({ response_code: 200, data: { order_status: 2 } });

      const history = await sql(
        t,
        'select from_status, to_status, changed_by_user_id, changed_by_api_key_id from order_status_history where order_id = ? order by id',
        [id],
      );
      expect(history).toEqual([
        { from_status: null, to_status: 1, changed_by_user_id: null, changed_by_api_key_id: key.id },
        { from_status: 1, to_status: 2, changed_by_user_id: null, changed_by_api_key_id: key.id },
      ]);
      const detail = await t.request({ method: 'GET', url: `/api/v1/orders/${id}`, token: ws.token });
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json().data.status_history).toMatchObject([
        { changed_by_user_id: null, changed_by_api_key_id: key.id },
        { changed_by_user_id: null, changed_by_api_key_id: key.id },
      ]);
    });

    it('a write key may create an employee but never an administrator', async () => {
      const admin = employeePayload(ws, UserType.ADMIN);
      expectErrorBody(await t.request({ method: 'POST', url: '/api/v1/users', apiKey: keyOf('write'), payload: admin }), 403, NO_ADMINS);
      expect(await sql(t, 'select id from app_user where official_email = ?', [admin.official_email])).toEqual([]);

      const employee = employeePayload(ws);
      const res = await t.request({ method: 'POST', url: '/api/v1/users', apiKey: keyOf('write'), payload: employee });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ official_email: employee.official_email, user_type: UserType.EMPLOYEE });
      await t.settled(); // the invite e-mail
    });

    it('the workspace configuration stays with signed-in admins: PUT with a "*" key is 403 (REST and GraphQL)', async () => {
      const before = await t.request({ method: 'GET', url: '/api/v1/workspace/config', token: ws.token });
      expectErrorBody(
        await t.request({ method: 'PUT', url: '/api/v1/workspace/config', apiKey: keyOf('*'), payload: { org_footer_name: 'Set by a key' } }),
        403,
        SESSION_ONLY,
      );
      expectGraphqlError(
        await t.graphql('mutation { updateWorkspaceConfig(input: { orgFooterName: "Set by a key" }) { orgFooterName } }', {}, { apiKey: keyOf('*') }),
        'FORBIDDEN',
        SESSION_ONLY,
      );
      const after = await t.request({ method: 'GET', url: '/api/v1/workspace/config', token: ws.token });
      expect(after.json().data.config).toEqual(before.json().data.config);
    });
  });

  describe('groups closed to keys', () => {
    const CASES = REFUSED_GROUPS.flatMap((group) =>
      (['GET', 'POST'] as const).flatMap((method) =>
        ['*', 'orders'].map((scopes) => ({ group, method, scopes, url: `/api/v1/${group}/x`, name: `key "${scopes}": ${method} /api/v1/${group}/x` })),
      ),
    );
    for (const { name, group, method, scopes, url } of CASES) it(`${name} → 403, whatever the scopes`, async () => {
      const res = await t.request({ method, url, apiKey: keyOf(scopes), ...(method === 'POST' ? { payload: {} } : {}) });
      expectErrorBody(res, 403, refusedGroup(group));
    });

    it.each([
      ['GET', '/api/v1/auth/me', 'auth'],
      ['POST', '/api/v1/auth/logout', 'auth'],
      ['POST', '/api/v1/signup/register', 'signup'],
      ['GET', '/api/v1/developer/api-keys', 'developer'],
      ['POST', '/api/v1/developer/api-keys', 'developer'],
      ['DELETE', '/api/v1/developer/api-keys/1', 'developer'],
      ['GET', '/api/v1/billing/plans', 'billing'],
    ] as const)('real route %s %s → 403 for a "*" key', async (method, url, group) => {
      const res = await t.request({ method, url, apiKey: keyOf('*'), ...(method === 'POST' ? { payload: {} } : {}) });
      expectErrorBody(res, 403, refusedGroup(group));
    });

    it('a key cannot mint another key: POST /developer/api-keys with a valid body creates nothing', async () => {
      const [{ n: before }] = await sql<{ n: number }[]>(t, 'select count(*)::int as n from api_key');
      const res = await t.request({ method: 'POST', url: '/api/v1/developer/api-keys', apiKey: keyOf('*'), payload: { name: 'Minted by a key', scopes: '*' } });
      expectErrorBody(res, 403, refusedGroup('developer'));
      expect((await sql<{ n: number }[]>(t, 'select count(*)::int as n from api_key'))[0].n).toBe(before);
    });
  });

  describe('GraphQL scope matrix', () => {
    /** Root operations with the group their field belongs to. */
    const OPERATIONS: Array<{ label: string; group: string; write: boolean; field: string; document: () => string }> = [
      { label: 'query orders', group: 'orders', write: false, field: 'orders', document: () => ORDERS_QUERY },
      { label: 'query users', group: 'users', write: false, field: 'users', document: () => '{ users { pageInfo { total } } }' },
      { label: 'query products', group: 'products', write: false, field: 'products', document: () => '{ products { pageInfo { total } } }' },
      { label: 'query workspace', group: 'workspace', write: false, field: 'workspace', document: () => '{ workspace { id } }' },
      {
        label: 'mutation createTown',
        group: 'masters',
        write: true,
        field: 'createTown',
        document: () => `mutation { createTown(input: { name: "GraphQL Key Town ${unique()}" }) { id name } }`,
      },
      { label: 'query me', group: 'auth', write: false, field: 'me', document: () => '{ me { id } }' },
      { label: 'mutation logout', group: 'auth', write: true, field: 'logout', document: () => 'mutation { logout }' },
      { label: 'query apiKeys', group: 'developer', write: false, field: 'apiKeys', document: () => '{ apiKeys { id } }' },
    ];
    const CASES = SCOPE_NAMES.flatMap((scopes) =>
      OPERATIONS.map((op) => {
        const refusal = expectedRefusal(scopes, op.group, op.write);
        return { ...op, scopes, refusal, name: `key "${scopes}": ${op.label} → ${refusal === null ? 'data' : `403 "${refusal}"`}` };
      }),
    );

    const expectForbidden = (res: GraphqlAnswer, message: string) => {
      expect(res.statusCode).toBe(403);
      expectGraphqlError(res, 'FORBIDDEN', message);
    };

    for (const { name, scopes, document, field, refusal } of CASES) it(name, async () => {
      const res = await t.graphql(document(), {}, { apiKey: keyOf(scopes) });
      if (refusal !== null) expectForbidden(res, refusal);
      else expect(expectGraphqlData(res)[field]).toBeTruthy();
    });

    it.each([
      ['a named fragment', 'query { ...Q } fragment Q on Query { users { pageInfo { total } } }'],
      ['an inline fragment', '{ ... on Query { users { pageInfo { total } } } }'],
      ['a fragment nested in a fragment', 'query { ...A } fragment A on Query { ...B } fragment B on Query { users { pageInfo { total } } }'],
      ['an alias', '{ allowed: orders { pageInfo { total } } other: users { pageInfo { total } } }'],
      ['a mixed selection', '{ orders { pageInfo { total } } users { pageInfo { total } } }'],
    ])('root fields reached through %s are checked: an orders-only key is refused users', async (_label, document) => {
      expectForbidden(await t.graphql(document, {}, { apiKey: keyOf('orders') }), notScoped('users', ['orders']));
    });

    it('fields of its own group reached through fragments pass', async () => {
      const res = await t.graphql('query { ...Q ... on Query { again: orders { pageInfo { total } } } } fragment Q on Query { orders { pageInfo { total } } }', {}, {
        apiKey: keyOf('orders'),
      });
      const data = expectGraphqlData(res);
      expect(data.orders.pageInfo.total).toBe(data.again.pageInfo.total);
    });

    it('of several operations in a document, the one named by operationName is checked', async () => {
      const query = 'query Mine { orders { pageInfo { total } } } query Theirs { users { pageInfo { total } } }';
      const send = (operationName: string) =>
        t.request({ method: 'POST', url: '/graphql', apiKey: keyOf('orders'), payload: { query, operationName } });
      const mine = await send('Mine');
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().data.orders.pageInfo.total).toEqual(expect.any(Number));
      const theirs = await send('Theirs');
      expect(theirs.statusCode, theirs.body).toBe(403);
      expectGraphqlError({ ...theirs.json(), statusCode: theirs.statusCode }, 'FORBIDDEN', notScoped('users', ['orders']));
    });

    it('GET /graphql is checked as POST is', async () => {
      const get = (document: string) =>
        t.request({
          method: 'GET',
          url: `/graphql?query=${encodeURIComponent(document)}`,
          apiKey: keyOf('orders'),
          headers: { 'apollo-require-preflight': 'true' }, // Apollo's CSRF rule for GET
        });
      const allowed = await get(ORDERS_QUERY);
      expect(allowed.statusCode, allowed.body).toBe(200);
      const refused = await get('{ users { pageInfo { total } } }');
      expect(refused.statusCode, refused.body).toBe(403);
      expectGraphqlError({ ...refused.json(), statusCode: refused.statusCode }, 'FORBIDDEN', notScoped('users', ['orders']));
    });

    it('a mutation needs write even when a fragment holds its fields', async () => {
      const res = await t.graphql(`mutation { ...M } fragment M on Mutation { createTown(input: { name: "Fragment Town ${unique()}" }) { id } }`, {}, {
        apiKey: keyOf('orders'),
      });
      expectForbidden(res, READ_ONLY);
    });

    it.each(SCOPE_NAMES)('introspection is open to key "%s"', async (scopes) => {
      const data = expectGraphqlData(await t.graphql('{ __typename __schema { queryType { name } } }', {}, { apiKey: keyOf(scopes) }));
      expect(data).toEqual({ __typename: 'Query', __schema: { queryType: { name: 'Query' } } });
    });

    it('an invalid key is refused before any field: 401 UNAUTHENTICATED', async () => {
      const res = await t.graphql('{ __typename }', {}, { apiKey: unknownKey() });
      expect(res.statusCode).toBe(401);
      expectGraphqlError(res, 'UNAUTHENTICATED', INVALID_KEY);
    });
  });

  describe('credentials', () => {
    it('X-API-Key needs no User-Agent, and a tool agent is fine with a key', async () => {
      const bare = await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: { 'x-api-key': keyOf('read'), 'user-agent': undefined } });
      expect(bare.statusCode, bare.body).toBe(200);
      const curl = await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: { 'x-api-key': keyOf('read'), 'user-agent': 'curl/8.5.0' } });
      expect(curl.statusCode, curl.body).toBe(200);
    });

    it('without a key the User-Agent rule applies: no agent → 403', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: { 'user-agent': undefined } });
      expectErrorBody(res, 403, 'A User-Agent header is required');
    });

    it('X-API-Key and Authorization together → 400, even when both are valid', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/orders', apiKey: keyOf('read'), token: ws.token });
      expectErrorBody(res, 400, TWO_CREDENTIALS);
    });

    it.each([
      ['a short string', 'abc'],
      ['non-hex characters', 'df_XYZ'],
      ['upper-case hex', `df_${'AB'.repeat(24)}`],
      ['a 200-character string', `df_${'a'.repeat(197)}`],
      ['an empty header', ''],
      ['a well-formed key never issued', unknownKey()],
    ])('%s → 401 Invalid API key', async (_label, apiKey) => {
      expectErrorBody(await getOrders(t, apiKey), 401, INVALID_KEY);
    });
  });

  describe('tenant isolation', () => {
    let other: Workspace;
    let otherOrderId: number;
    beforeAll(async () => {
      other = await createWorkspace(t, 'Other Dairy');
      const otherCatalog = await seedCatalog(t, other);
      otherOrderId = (await placeOrder(t, other.token, { user_id: otherCatalog.retailerId, items: [{ product_variant_id: otherCatalog.variantIds[0], quantity: 4 }] })).id;
    });

    it("a key reads only its own workspace's orders: another workspace's order is 404, REST and GraphQL", async () => {
      expectErrorBody(await t.request({ method: 'GET', url: `/api/v1/orders/${otherOrderId}`, apiKey: keyOf('read') }), 404, `Order ${otherOrderId} not found`);
      const own = await t.request({ method: 'GET', url: `/api/v1/orders/${orderId}`, apiKey: keyOf('read') });
      expect(own.statusCode, own.body).toBe(200);
      expectGraphqlError(await t.graphql(`{ order(id: ${otherOrderId}) { id } }`, {}, { apiKey: keyOf('read') }), 'NOT_FOUND', `Order ${otherOrderId} not found`);
    });

    it("a key's order list is exactly its workspace's", async () => {
      const ids = async (credential: { apiKey?: string; token?: string }) => {
        const res = await t.request({ method: 'GET', url: '/api/v1/orders?limit=100', ...credential });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.map((o: { id: number }) => o.id).sort();
      };
      const byKey = await ids({ apiKey: keyOf('read') });
      expect(byKey).toContain(orderId);
      expect(byKey).not.toContain(otherOrderId);
      expect(byKey).toEqual(await ids({ token: ws.token }));
    });

    it("a write key cannot move another workspace's order: 404 and the order is unchanged", async () => {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${otherOrderId}/status`, apiKey: keyOf('*'), payload: { order_status: 2 } });
      expectErrorBody(res, 404, `Order ${otherOrderId} not found`);
      expect(await sql(t, 'select status from sales_order where id = ?', [otherOrderId])).toEqual([{ status: 1 }]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Workspace gates for keys (no key cache, so every change shows at once)
// ---------------------------------------------------------------------------------------------

describe('workspace gates for API keys', () => {
  let t: TestApp;
  let ws: Workspace;
  let key: IssuedKey;
  let original: { status: number; trial_ends_at: Date | null };

  beforeAll(async () => {
    t = await buildTestApp({}, { apiKeyCacheTtlMs: 0 });
    ws = await createWorkspace(t, 'Gated Dairy');
    key = await createApiKey(t, ws, { scopes: '*' });
    [original] = await sql<(typeof original)[]>(t, 'select status, trial_ends_at from organization where id = ?', [ws.organizationId]);
  });
  afterEach(() => sql(t, 'update organization set status = ?, trial_ends_at = ? where id = ?', [original.status, original.trial_ends_at, ws.organizationId]));
  afterAll(() => t?.close());

  /** Sets the workspace's status and its trial end `days` from now (negative: in the past). */
  const setWorkspace = (status: number, trialEndsInDays: number) =>
    sql(t, `update organization set status = ?, trial_ends_at = now() + (? * interval '1 day') where id = ?`, [status, trialEndsInDays, ws.organizationId]);
  const townCount = async () => (await sql<{ n: number }[]>(t, 'select count(*)::int as n from town where organization_id = ?', [ws.organizationId]))[0].n;
  const keyRequests = () => [
    t.request({ method: 'GET', url: '/api/v1/orders', apiKey: key.key }),
    t.request({ method: 'GET', url: '/api/v1/workspace/config', apiKey: key.key }),
    t.request({ method: 'POST', url: '/api/v1/masters/towns', apiKey: key.key, payload: { town_name: `Gate Town ${unique()}` } }),
  ];

  it('the workspace starts as a trial that has not ended, and its key works', async () => {
    expect(original.status).toBe(2);
    expect(new Date(original.trial_ends_at!).getTime()).toBeGreaterThan(Date.now());
    expect((await getOrders(t, key.key)).statusCode).toBe(200);
  });

  it('suspended: every key request is 403 (REST and GraphQL), and nothing is written; reactivation lifts it', async () => {
    const towns = await townCount();
    await setWorkspace(0, 10);
    for (const res of await Promise.all(keyRequests())) expectErrorBody(res, 403, SUSPENDED);
    const gql = await t.graphql(ORDERS_QUERY, {}, { apiKey: key.key });
    expect(gql.statusCode).toBe(403);
    expectGraphqlError(gql, 'FORBIDDEN', SUSPENDED);
    expect(await townCount()).toBe(towns);

    await setWorkspace(1, 10);
    expect((await getOrders(t, key.key)).statusCode).toBe(200);
  });

  it('trial ended: every key request, reads included, is 402 (REST and GraphQL); the admin session still works', async () => {
    const towns = await townCount();
    await setWorkspace(2, -1);
    for (const res of await Promise.all(keyRequests())) expectErrorBody(res, 402, TRIAL_ENDED);
    const head = await t.request({ method: 'HEAD', url: '/api/v1/orders', apiKey: key.key });
    expect(head.statusCode).toBe(402);
    const gql = await t.graphql(ORDERS_QUERY, {}, { apiKey: key.key });
    expect(gql.statusCode).toBe(402);
    expectGraphqlError(gql, 'PAYMENT_REQUIRED', TRIAL_ENDED);
    expect(await townCount()).toBe(towns);

    const session = await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token });
    expect(session.statusCode, session.body).toBe(200);
  });

  it.each([
    ['active (status 1) with a trial end in the past', 1, -1],
    ['a trial (status 2) ending tomorrow', 2, 1],
  ])('%s: the key works, REST and GraphQL', async (_label, status, days) => {
    await setWorkspace(status, days);
    const res = await getOrders(t, key.key);
    expect(res.statusCode, res.body).toBe(200);
    expectGraphqlData(await t.graphql(ORDERS_QUERY, {}, { apiKey: key.key }));
  });
});

// ---------------------------------------------------------------------------------------------
// The key cache: a change made elsewhere is noticed within apiKeyCacheTtlMs
// ---------------------------------------------------------------------------------------------

describe('API key cache bound (two instances, apiKeyCacheTtlMs 1500)', () => {
  // Long enough that two requests right after caching land inside it even on a loaded machine.
  const TTL_MS = 1500;
  let t: TestApp;
  let t2: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({}, { apiKeyCacheTtlMs: TTL_MS });
    t2 = await buildTestApp({}, { sharedDatabase: t.db, apiKeyCacheTtlMs: TTL_MS });
  });
  afterAll(async () => {
    await t2?.close(); // does not drop the shared database
    await t?.close();
  });

  it('revocation: the revoking instance refuses at once, the other one within the TTL', async () => {
    const ws = await createWorkspace(t);
    const key = await createApiKey(t, ws);
    for (const instance of [t, t2]) expect((await getOrders(instance, key.key)).statusCode).toBe(200);

    const revoke = await t.request({ method: 'DELETE', url: `/api/v1/developer/api-keys/${key.id}`, token: ws.token });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expectErrorBody(await getOrders(t, key.key), 401, REVOKED);

    // Instance 2 may still trust its cached copy for a moment...
    const early = await getOrders(t2, key.key);
    if (early.statusCode !== 200) expectErrorBody(early, 401, REVOKED);
    // ...but never longer than the TTL.
    await sleep(TTL_MS + 100);
    expectErrorBody(await getOrders(t2, key.key), 401, REVOKED);
  });

  it('suspension through SQL: a cached key passes within the TTL, is 403 after it, and works again once reactivated', async () => {
    const ws = await createWorkspace(t);
    const key = await createApiKey(t, ws);
    const setStatus = (status: number) => sql(t, 'update organization set status = ? where id = ?', [status, ws.organizationId]);
    for (const instance of [t, t2]) expect((await getOrders(instance, key.key)).statusCode).toBe(200);

    await setStatus(0);
    try {
      for (const instance of [t, t2]) expect((await getOrders(instance, key.key)).statusCode).toBe(200); // still cached (the first uses above started the TTL)
      await sleep(TTL_MS + 100);
      for (const instance of [t, t2]) expectErrorBody(await getOrders(instance, key.key), 403, SUSPENDED);
    } finally {
      await setStatus(2);
    }
    await sleep(TTL_MS + 100);
    for (const instance of [t, t2]) expect((await getOrders(instance, key.key)).statusCode).toBe(200);
  });
});

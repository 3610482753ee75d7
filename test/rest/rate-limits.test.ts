import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { budgetsOf, callerKey } from '../../src/context/rate-limits';
import { UserType } from '../../src/domains/users/user.entity';
import { expectGraphqlError } from '../helpers/graphql-assertions';
import { createApiKey, createUser, createWorkspace, unique, type IssuedKey, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Rate limits (interface: Limits): the general budget per caller (API key, else signed-in user,
 * else client address) shared by REST and GraphQL, the tighter of its two windows, the export and
 * report budgets, the bad-key throttle per address, the rate-limit headers on every kind of answer,
 * and counters shared by instances over Redis. The signup and sign-in budgets (and their headers)
 * are covered by signup.test.ts, sign-in-password.test.ts and sign-in-codes.test.ts.
 *
 * Every budget here is counted in a window of at least a minute that starts at the caller's first
 * request, so each scenario uses a caller (user, key or address) no other scenario touches.
 */

type Res = LightMyRequestResponse;
type RequestOptions = Parameters<TestApp['request']>[0];

const TOO_MANY = 'Too many requests, please try again later';
const BAD_KEYS = 'Too many invalid API keys from this address; try again later';
const MINUTE_S = 60;
const HOUR_S = 3600;
const BAD_KEY_WINDOW_S = 15 * 60;

/** An address no other scenario uses (the anonymous budget and the bad-key throttle are per address). */
const freshAddress = () => {
  const n = unique();
  return `10.77.${Math.floor(n / 250) % 250}.${1 + (n % 250)}`;
};
/** A well-formed key no workspace holds. */
const unknownKey = () => `df_${randomBytes(24).toString('hex')}`;

/** The rate-limit headers of an answer, whatever its status. */
function expectBudget(res: Res, limit: number, remaining: number): void {
  expect(
    { limit: res.headers['x-ratelimit-limit'], remaining: res.headers['x-ratelimit-remaining'] },
    `${res.statusCode} ${res.body}`,
  ).toEqual({ limit: String(limit), remaining: String(remaining) });
}

/** A 429: exact REST body, the spent window's figures and a Retry-After of 1..maxRetryAfter seconds. */
function expectRefused(res: Res, limit: number, maxRetryAfter: number, message = TOO_MANY): number {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual({ response_code: 429, message });
  expectBudget(res, limit, 0);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter), String(res.headers['retry-after'])).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  return retryAfter;
}

/**
 * Sends until the budget of `limit` is spent: the requests numbered `alreadySpent + 1` .. `limit`
 * must pass the limiter (any status but 429) showing the remaining count going down to 0; the next
 * one must be 429, and is returned.
 */
async function spendUntil429(send: () => Promise<Res>, limit: number, alreadySpent = 0): Promise<Res> {
  for (let n = alreadySpent + 1; n <= limit; n++) {
    const res = await send();
    expect(res.statusCode, `request ${n} of ${limit}: ${res.body}`).not.toBe(429);
    expectBudget(res, limit, limit - n);
  }
  const refused = await send();
  expect(refused.statusCode, `request ${limit + 1} of ${limit}: ${refused.body}`).toBe(429);
  return refused;
}

/** A GraphQL operation sent with any credential or address (t.graphql cannot set the address). */
function graphqlRequest(t: TestApp, query: string, options: { token?: string; apiKey?: string; remoteAddress?: string } = {}) {
  return t.request({ method: 'POST', url: '/graphql', payload: { query }, ...options });
}

const me = (t: TestApp, token: string, extra: Partial<InjectOptions> = {}) =>
  t.request({ method: 'GET', url: '/api/v1/auth/me', token, ...extra });
const ordersWithKey = (t: TestApp, apiKey: string, extra: Partial<InjectOptions> = {}) =>
  t.request({ method: 'GET', url: '/api/v1/orders', apiKey, ...extra });

describe('budgetsOf and callerKey (the Limits table)', () => {
  it('states every budget of the interface table, the general one from the configuration', () => {
    const MIN = 60_000;
    const HOUR = 60 * MIN;
    expect(budgetsOf(loadConfig({}))).toEqual({
      general: [
        { max: 120, timeWindow: MIN },
        { max: 2000, timeWindow: HOUR },
      ],
      exports: [
        { max: 5, timeWindow: MIN },
        { max: 50, timeWindow: HOUR },
      ],
      reports: [
        { max: 20, timeWindow: MIN },
        { max: 200, timeWindow: HOUR },
      ],
      signup: [{ max: 5, timeWindow: HOUR }],
      signIn: [{ max: 20, timeWindow: 15 * MIN }],
      badKey: [{ max: 30, timeWindow: 15 * MIN }],
    });
    const custom = budgetsOf(loadConfig({ RATE_LIMIT_PER_MINUTE: '7', RATE_LIMIT_PER_HOUR: '70' }));
    expect(custom.general).toEqual([
      { max: 7, timeWindow: MIN },
      { max: 70, timeWindow: HOUR },
    ]);
    expect(custom.exports).toEqual(budgetsOf(loadConfig({})).exports); // fixed, whatever the configuration
  });

  it('keys the caller on the API key, else the signed-in user, else the address', () => {
    const scopes = {} as never; // callerKey reads only the kind and the ids
    expect(callerKey({ kind: 'apiKey', organizationId: 3, apiKeyId: 41, scopes }, '10.0.0.1')).toBe('key:41');
    expect(
      callerKey({ kind: 'session', organizationId: 3, userId: 41, userType: UserType.EMPLOYEE, sessionId: 's' }, '10.0.0.1'),
    ).toBe('user:41');
    expect(callerKey(null, '10.0.0.1')).toBe('ip:10.0.0.1');
    expect(callerKey(null, '::1')).toBe('ip:::1');
  });
});

describe('rate-limit headers on every kind of answer (120/min, 2000/h)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '120', RATE_LIMIT_PER_HOUR: '2000' });
  });
  afterAll(() => t.close());

  /** Each answer must have the status given and show the caller's remaining count, from 119 down. */
  async function expectCountdown(steps: Array<[number, () => Promise<Res>]>): Promise<void> {
    let remaining = 120;
    for (const [status, send] of steps) {
      const res = await send();
      remaining -= 1;
      expect(res.statusCode, res.body).toBe(status);
      expectBudget(res, 120, remaining);
      expect(res.headers['retry-after']).toBeUndefined();
    }
  }

  it('a session: 200, 201, 400, 403 (User-Agent), 404 (path and id), GraphQL data and error', async () => {
    const ws = await createWorkspace(t); // through the service: the admin has made no request yet
    const admin = (options: RequestOptions) => t.request({ token: ws.token, ...options });
    await expectCountdown([
      [200, () => admin({ method: 'GET', url: '/api/v1/orders' })],
      [201, () => admin({ method: 'POST', url: '/api/v1/masters/product-classes', payload: { product_class: `Curd ${unique()}`, unit: 'kg' } })],
      [400, () => admin({ method: 'POST', url: '/api/v1/masters/product-classes', payload: { unit: 'kg' } })],
      [400, () => admin({ method: 'POST', url: '/api/v1/orders', payload: '{not json', headers: { 'content-type': 'application/json' } })],
      [403, () => admin({ method: 'GET', url: '/api/v1/orders', headers: { 'user-agent': 'curl/8.5.0' } })],
      [404, () => admin({ method: 'GET', url: '/api/v1/no-such-endpoint' })],
      [404, () => admin({ method: 'GET', url: '/api/v1/orders/999999' })],
      [200, () => graphqlRequest(t, '{ me { id } }', { token: ws.token })],
      [400, () => graphqlRequest(t, '{ noSuchField }', { token: ws.token })],
    ]);
    const gql = await graphqlRequest(t, '{ me { id } }', { token: ws.token });
    expect(gql.json().data).toEqual({ me: { id: ws.adminId } });
    expectBudget(gql, 120, 110);
  });

  it('anonymous callers (one address): 401 without or with a bad credential, 400 on a public route and for two credentials', async () => {
    const remoteAddress = freshAddress();
    const anon = (options: RequestOptions) => t.request({ remoteAddress, ...options });
    await expectCountdown([
      [401, () => anon({ method: 'GET', url: '/api/v1/orders' })],
      [401, () => anon({ method: 'GET', url: '/api/v1/orders', token: 'not-a-session-token' })],
      [401, () => anon({ method: 'GET', url: '/api/v1/orders', headers: { authorization: 'Basic dXNlcjpwYXNz' } })],
      [400, () => anon({ method: 'POST', url: '/api/v1/auth/login', payload: {} })],
      [400, () => anon({ method: 'GET', url: '/api/v1/orders', headers: { 'x-api-key': unknownKey(), authorization: 'Bearer x' } })],
      [403, () => anon({ method: 'POST', url: '/api/v1/auth/login', payload: {}, headers: { 'user-agent': 'python-requests/2.31' } })],
      [404, () => anon({ method: 'GET', url: '/api/v1/no-such-endpoint' })],
      [200, () => graphqlRequest(t, '{ __typename }', { remoteAddress })],
    ]);
    const refused = await graphqlRequest(t, '{ me { id } }', { remoteAddress });
    expectGraphqlError({ ...refused.json(), statusCode: refused.statusCode }, 'UNAUTHENTICATED');
    expectBudget(refused, 120, 111);
  });

  it('an API key: 200, 403 out of scope, 403 on a refused group, 404; its count is its own', async () => {
    const ws = await createWorkspace(t);
    const key = await createApiKey(t, ws, { scopes: 'orders' });
    await expectCountdown([
      [200, () => ordersWithKey(t, key.key)],
      [403, () => t.request({ method: 'GET', url: '/api/v1/users', apiKey: key.key })],
      [403, () => t.request({ method: 'POST', url: '/api/v1/orders', apiKey: key.key, payload: {} })],
      [403, () => t.request({ method: 'GET', url: '/api/v1/developer/api-keys', apiKey: key.key })],
      [404, () => t.request({ method: 'GET', url: '/api/v1/orders/999999', apiKey: key.key })],
      [200, () => graphqlRequest(t, '{ orders { nodes { id } } }', { apiKey: key.key })],
      [403, () => graphqlRequest(t, '{ users { nodes { id } } }', { apiKey: key.key })],
    ]);
    // The admin made one request (issuing the key): the key's requests were not counted as the admin's.
    expectBudget(await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token }), 120, 118);
  });
});

describe('the general budget per caller (5/min, 1000/h)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_PER_HOUR: '1000' });
  });
  afterAll(() => t.close());

  it('a signed-in user: the 6th request within the minute → 429 (body, headers, Retry-After); another user of the workspace is unaffected', async () => {
    const ws = await createWorkspace(t);
    const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    const refused = await spendUntil429(() => me(t, a.token), 5);
    expectRefused(refused, 5, MINUTE_S);
    expectRefused(await t.request({ method: 'GET', url: '/api/v1/orders', token: a.token }), 5, MINUTE_S); // every route
    const other = await me(t, b.token);
    expect(other.statusCode, other.body).toBe(200);
    expectBudget(other, 5, 4);
    const admin = await me(t, ws.token); // spent 2 creating the users
    expect(admin.statusCode, admin.body).toBe(200);
    expectBudget(admin, 5, 2);
  });

  it('anonymous requests are counted per address', async () => {
    const [first, second] = [freshAddress(), freshAddress()];
    const anon = (remoteAddress: string) => t.request({ method: 'GET', url: '/api/v1/auth/me', remoteAddress });
    expectRefused(await spendUntil429(() => anon(first), 5), 5, MINUTE_S);
    // A public route from the same address is refused too (the budget is the address's, not the route's).
    expectRefused(await t.request({ method: 'POST', url: '/api/v1/auth/login', payload: {}, remoteAddress: first }), 5, MINUTE_S);
    const other = await anon(second);
    expect(other.statusCode, other.body).toBe(401);
    expectBudget(other, 5, 4);
  });

  it("an API key has its own budget: apart from the admin who issued it and from the workspace's other keys", async () => {
    const ws = await createWorkspace(t);
    const [key1, key2] = [await createApiKey(t, ws), await createApiKey(t, ws)]; // the admin has spent 2
    expectRefused(await spendUntil429(() => me(t, ws.token), 5, 2), 5, MINUTE_S);
    const first = await ordersWithKey(t, key1.key);
    expect(first.statusCode, first.body).toBe(200);
    expectBudget(first, 5, 4);
    expectRefused(await spendUntil429(() => ordersWithKey(t, key1.key), 5, 1), 5, MINUTE_S);
    const other = await ordersWithKey(t, key2.key);
    expect(other.statusCode, other.body).toBe(200);
    expectBudget(other, 5, 4);
    expectRefused(await me(t, ws.token), 5, MINUTE_S); // the admin is still refused
  });

  it('REST and GraphQL requests draw on the same budget; a spent GraphQL request → HTTP 429 RATE_LIMITED', async () => {
    const ws = await createWorkspace(t);
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const sends = [
      () => me(t, user.token),
      () => graphqlRequest(t, '{ me { id } }', { token: user.token }),
      () => me(t, user.token),
      () => graphqlRequest(t, '{ me { id } }', { token: user.token }),
      () => graphqlRequest(t, '{ me { id } }', { token: user.token }),
    ];
    for (const [i, send] of sends.entries()) {
      const res = await send();
      expect(res.statusCode, res.body).toBe(200);
      expectBudget(res, 5, 4 - i);
    }
    const refused = await graphqlRequest(t, '{ me { id } }', { token: user.token });
    expect(refused.statusCode).toBe(429);
    expectGraphqlError({ ...refused.json(), statusCode: refused.statusCode }, 'RATE_LIMITED', TOO_MANY);
    expectBudget(refused, 5, 0);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(MINUTE_S);
    expectRefused(await me(t, user.token), 5, MINUTE_S);
  });

  it('a key over GraphQL spends the key budget, not the admin one', async () => {
    const ws = await createWorkspace(t);
    const key = await createApiKey(t, ws);
    const send = () => graphqlRequest(t, '{ orders { nodes { id } } }', { apiKey: key.key });
    const refused = await spendUntil429(send, 5);
    expectGraphqlError({ ...refused.json(), statusCode: refused.statusCode }, 'RATE_LIMITED', TOO_MANY);
    expectRefused(await ordersWithKey(t, key.key), 5, MINUTE_S);
    expectBudget(await me(t, ws.token), 5, 3);
  });
});

describe('the tighter window is reported and enforced (100/min, 3/h)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '3' });
  });
  afterAll(() => t.close());

  it('headers show the hour window (limit 3); the 4th request → 429 with a Retry-After of the hour', async () => {
    const ws = await createWorkspace(t);
    const refused = await spendUntil429(() => me(t, ws.token), 3);
    const retryAfter = expectRefused(refused, 3, HOUR_S);
    expect(retryAfter).toBeGreaterThan(MINUTE_S); // not the minute window
  });

  it('the same for an API key over GraphQL and for an address', async () => {
    const ws = await createWorkspace(t);
    const key = await createApiKey(t, ws);
    const gql = await spendUntil429(() => graphqlRequest(t, '{ orders { nodes { id } } }', { apiKey: key.key }), 3);
    expect(gql.json().errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(Number(gql.headers['retry-after'])).toBeGreaterThan(MINUTE_S);
    const remoteAddress = freshAddress();
    const anon = await spendUntil429(() => t.request({ method: 'GET', url: '/api/v1/orders', remoteAddress }), 3);
    expect(expectRefused(anon, 3, HOUR_S)).toBeGreaterThan(MINUTE_S);
  });

  it('when both windows are spent at once, Retry-After names the later one (3/min and 3/h)', async () => {
    const both = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '3' });
    try {
      const ws = await createWorkspace(both);
      const refused = await spendUntil429(() => me(both, ws.token), 3);
      expect(expectRefused(refused, 3, HOUR_S)).toBeGreaterThan(MINUTE_S);
    } finally {
      await both.close();
    }
  });
});

describe('export and report budgets (on top of the general 120/min, 2000/h)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '120', RATE_LIMIT_PER_HOUR: '2000' });
  });
  afterAll(() => t.close());

  const exportOrders = (credential: { token?: string; apiKey?: string }) =>
    t.request({ method: 'GET', url: '/api/v1/exports/orders', ...credential });
  const notFound = (res: Res, path: string) => {
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual({ response_code: 404, message: `No endpoint GET ${path}` });
  };
  const exported = (res: Res) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  };

  it('/exports: 5 a minute per caller (the export figures shown), the 6th → 429; other routes keep the general figures', async () => {
    const ws = await createWorkspace(t);
    for (let n = 1; n <= 5; n++) {
      const res = await exportOrders({ token: ws.token });
      exported(res);
      expectBudget(res, 5, 5 - n);
    }
    expectRefused(await t.request({ method: 'GET', url: '/api/v1/exports/sales?from=2024-01-01', token: ws.token }), 5, MINUTE_S);
    const orders = await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token });
    expect(orders.statusCode, orders.body).toBe(200);
    expectBudget(orders, 120, 113); // 6 export requests and this one
  });

  it('/exports is counted per caller: another user and an API key of the workspace have their own', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const key = await createApiKey(t, ws);
    expectRefused(await spendUntil429(() => exportOrders({ token: ws.token }), 5), 5, MINUTE_S);
    const other = await exportOrders({ token: employee.token });
    expect(other.statusCode, other.body).toBe(403); // employees may not export, but the request counts
    expectBudget(other, 5, 4);
    const byKey = await exportOrders({ apiKey: key.key });
    exported(byKey);
    expectBudget(byKey, 5, 4);
  });

  it('/reports: 20 a minute per caller, the 21st → 429; apart from the export budget', async () => {
    const ws = await createWorkspace(t);
    // A path no route serves spends the group's budget too (GET /reports/sales is tested in reports-sales.test.ts).
    const reports = () => t.request({ method: 'GET', url: '/api/v1/reports/no-such-report', token: ws.token });
    const first = await reports();
    notFound(first, '/api/v1/reports/no-such-report');
    expectBudget(first, 20, 19);
    expectRefused(await spendUntil429(reports, 20, 1), 20, MINUTE_S);
    const exports = await exportOrders({ token: ws.token });
    exported(exports);
    expectBudget(exports, 5, 4);
    expectBudget(await me(t, ws.token), 120, 120 - 23);
  });
});

describe('bad-key throttle: 30 unknown, revoked or expired keys per address per 15 minutes', () => {
  let t: TestApp;
  let ws: Workspace;
  let key: IssuedKey;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    key = await createApiKey(t, ws);
  });
  afterAll(() => t.close());

  /** 30 unknown keys from the address: 401 each, showing the throttle's countdown. */
  async function spendBadKeys(app: TestApp, remoteAddress: string): Promise<void> {
    for (let n = 1; n <= 30; n++) {
      const res = await ordersWithKey(app, unknownKey(), { remoteAddress });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: 'Invalid API key' });
      expectBudget(res, 30, 30 - n);
    }
  }

  it('the 31st key request from the address → 429 even with a valid key; other addresses and sessions are unaffected', async () => {
    const throttled = freshAddress();
    await spendBadKeys(t, throttled);
    const valid = await ordersWithKey(t, key.key, { remoteAddress: throttled });
    expectRefused(valid, 30, BAD_KEY_WINDOW_S, BAD_KEYS);
    expectRefused(await ordersWithKey(t, unknownKey(), { remoteAddress: throttled }), 30, BAD_KEY_WINDOW_S, BAD_KEYS);
    const gql = await graphqlRequest(t, '{ orders { nodes { id } } }', { apiKey: key.key, remoteAddress: throttled });
    expect(gql.statusCode).toBe(429);
    expectGraphqlError({ ...gql.json(), statusCode: gql.statusCode }, 'RATE_LIMITED', BAD_KEYS);
    expectBudget(gql, 30, 0);

    const elsewhere = await ordersWithKey(t, key.key, { remoteAddress: freshAddress() });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const session = await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token, remoteAddress: throttled });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.headers['retry-after']).toBeUndefined();
    const anonymous = await t.request({ method: 'GET', url: '/api/v1/orders', remoteAddress: throttled });
    expect(anonymous.statusCode, anonymous.body).toBe(401); // no key: the throttle does not apply
  });

  it('revoked, expired and malformed keys count as bad keys too', async () => {
    const [revoked, expired] = [await createApiKey(t, ws), await createApiKey(t, ws, { expires_in_days: 1 })];
    const revoke = await t.request({ method: 'DELETE', url: `/api/v1/developer/api-keys/${revoked.id}`, token: ws.token });
    expect(revoke.statusCode, revoke.body).toBe(200);
    await t.orm.em.fork().getConnection().execute("update api_key set expires_at = now() - interval '1 minute' where id = ?", [expired.id]);
    const address = freshAddress();
    for (let n = 1; n <= 30; n++) {
      const [presented, message] = [
        [revoked.key, 'This API key has been revoked'],
        [expired.key, 'This API key has expired'],
        ['df_not-a-key', 'Invalid API key'],
      ][n % 3];
      const res = await ordersWithKey(t, presented, { remoteAddress: address });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message });
      expectBudget(res, 30, 30 - n);
    }
    expectRefused(await ordersWithKey(t, key.key, { remoteAddress: address }), 30, BAD_KEY_WINDOW_S, BAD_KEYS);
  });

  it("a valid key's requests (and its refusals, a closed workspace's included) spend nothing of the throttle", async () => {
    const address = freshAddress();
    const scoped = await createApiKey(t, ws, { scopes: 'orders' });
    const closed = await createWorkspace(t);
    const closedKey = await createApiKey(t, closed);
    await t.orm.em.fork().getConnection().execute('update organization set status = 0 where id = ?', [closed.organizationId]);
    const bad = await ordersWithKey(t, unknownKey(), { remoteAddress: address });
    expectBudget(bad, 30, 29);
    for (let i = 0; i < 3; i++) {
      expect((await ordersWithKey(t, key.key, { remoteAddress: address })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/api/v1/users', apiKey: scoped.key, remoteAddress: address })).statusCode).toBe(403);
      const suspended = await ordersWithKey(t, closedKey.key, { remoteAddress: address });
      expect(suspended.statusCode, suspended.body).toBe(403);
      expect(suspended.json().message).toBe('This workspace is suspended; contact support to reactivate it');
    }
    expectBudget(await ordersWithKey(t, unknownKey(), { remoteAddress: address }), 30, 28);
  });
});

describe('bad-key throttle window (in-process counters, clock moved)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { inProcessLimits: true });
  });
  afterAll(() => t.close());

  it('the throttle clears 15 minutes after the first bad key: the valid key works again', async () => {
    const ws = await createWorkspace(t);
    const key = await createApiKey(t, ws);
    const address = freshAddress();
    for (let n = 1; n <= 30; n++) {
      const res = await ordersWithKey(t, unknownKey(), { remoteAddress: address });
      expect(res.statusCode, res.body).toBe(401);
      expectBudget(res, 30, 30 - n);
    }
    expectRefused(await ordersWithKey(t, key.key, { remoteAddress: address }), 30, BAD_KEY_WINDOW_S, BAD_KEYS);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 14 * 60 * 1000);
      expectRefused(await ordersWithKey(t, key.key, { remoteAddress: address }), 30, 60 + 1, BAD_KEYS); // a minute left
      vi.setSystemTime(Date.now() + 60 * 1000 + 1000);
      const res = await ordersWithKey(t, key.key, { remoteAddress: address });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['retry-after']).toBeUndefined();
      expectBudget(await ordersWithKey(t, unknownKey(), { remoteAddress: address }), 30, 29); // a fresh window
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)('budgets shared by instances over Redis', () => {
  const ENV = { RATE_LIMIT_PER_MINUTE: '10' };
  const namespace = `shared-${randomBytes(6).toString('hex')}`;
  let t1: TestApp;
  let t2: TestApp;
  let apart: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t1 = await buildTestApp(ENV, { rateLimitNamespace: namespace });
    t2 = await buildTestApp(ENV, { sharedDatabase: t1.db, rateLimitNamespace: namespace });
    apart = await buildTestApp(ENV, { sharedDatabase: t1.db }); // another namespace
    ws = await createWorkspace(t1);
  });
  afterAll(async () => {
    await t2?.close();
    await apart?.close();
    await t1?.close();
  });

  /** Sends on t1 and t2 in turn: together exactly 10 pass, the 11th is 429 on either. */
  async function alternate(send: (t: TestApp) => Promise<Res>): Promise<void> {
    for (let n = 1; n <= 10; n++) {
      const res = await send(n % 2 ? t1 : t2);
      expect(res.statusCode, `request ${n} on t${n % 2 ? 1 : 2}: ${res.body}`).toBe(200);
      expectBudget(res, 10, 10 - n);
    }
    expectRefused(await send(t1), 10, MINUTE_S);
    expectRefused(await send(t2), 10, MINUTE_S);
  }

  it('one session across two instances: 10 pass in all, the 11th → 429 on both; another namespace is unaffected', async () => {
    const user = await createUser(t1, ws, UserType.EMPLOYEE);
    await alternate((t) => me(t, user.token));
    const res = await me(apart, user.token);
    expect(res.statusCode, res.body).toBe(200);
    expectBudget(res, 10, 9);
  });

  it('one API key across two instances: 10 pass in all, the 11th → 429 on both; another namespace is unaffected', async () => {
    const key = await createApiKey(t1, ws);
    await alternate((t) => ordersWithKey(t, key.key));
    const res = await ordersWithKey(apart, key.key);
    expect(res.statusCode, res.body).toBe(200);
    expectBudget(res, 10, 9);
  });

  it('the bad-key throttle is shared: 15 failures on each instance, then every key request → 429 on either', async () => {
    // The general budget (10/min) would stop an address long before 30 bad keys: these instances keep the test default.
    const ns = `shared-${randomBytes(6).toString('hex')}`;
    const u1 = await buildTestApp({}, { sharedDatabase: t1.db, rateLimitNamespace: ns });
    const u2 = await buildTestApp({}, { sharedDatabase: t1.db, rateLimitNamespace: ns });
    const other = await buildTestApp({}, { sharedDatabase: t1.db });
    try {
      const key = await createApiKey(t1, ws);
      const address = freshAddress();
      for (let n = 1; n <= 30; n++) {
        const res = await ordersWithKey(n % 2 ? u1 : u2, unknownKey(), { remoteAddress: address });
        expect(res.statusCode, res.body).toBe(401);
        expectBudget(res, 30, 30 - n);
      }
      expectRefused(await ordersWithKey(u1, key.key, { remoteAddress: address }), 30, BAD_KEY_WINDOW_S, BAD_KEYS);
      expectRefused(await ordersWithKey(u2, key.key, { remoteAddress: address }), 30, BAD_KEY_WINDOW_S, BAD_KEYS);
      const apartRes = await ordersWithKey(other, key.key, { remoteAddress: address });
      expect(apartRes.statusCode, apartRes.body).toBe(200);
    } finally {
      await u1.close();
      await u2.close();
      await other.close();
    }
  });
});

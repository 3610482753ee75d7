import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWorkspace, unique } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * X-RateLimit-Reset (seconds until the reported window starts over) beside X-RateLimit-Limit and
 * -Remaining, on every kind of answer, in memory and over Redis; and a URL Fastify cannot decode
 * is charged to its caller like any request, so it carries the same headers.
 */

const MALFORMED = '/api/v1/users/%E0%A4%A';
const PER_MINUTE = 5;

/** An address no other scenario uses (the anonymous budget is per address). */
const freshAddress = () => `10.88.${unique() % 250}.${1 + (unique() % 250)}`;

/** The three rate-limit headers as numbers. */
function budgetOf(res: LightMyRequestResponse) {
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
  };
}

/** Limit and remaining as given, and a reset of a whole number of seconds within the minute window. */
function expectBudget(res: LightMyRequestResponse, remaining: number, maxReset = 60): void {
  const budget = budgetOf(res);
  expect({ limit: budget.limit, remaining: budget.remaining }, `${res.statusCode} ${res.body}`).toEqual({ limit: PER_MINUTE, remaining });
  expect(Number.isInteger(budget.reset), String(res.headers['x-ratelimit-reset'])).toBe(true);
  expect(budget.reset).toBeGreaterThanOrEqual(1);
  expect(budget.reset).toBeLessThanOrEqual(maxReset);
}

/** The scenarios every store must pass. */
function resetScenarios(app: () => TestApp) {
  it('every kind of answer carries the reset: 200, 400, 404, 401, GraphQL', async () => {
    const t = app();
    const { token } = await createWorkspace(t);
    expectBudget(await t.request({ method: 'GET', url: '/api/v1/orders', token }), 4);
    expectBudget(await t.request({ method: 'GET', url: '/api/v1/orders?page=0', token }), 3);
    expectBudget(await t.request({ method: 'GET', url: '/api/v1/nowhere', token }), 2);
    expectBudget(await t.request({ method: 'POST', url: '/graphql', token, payload: { query: '{ me { id } }' } }), 1);
    const address = freshAddress();
    const anonymous = await t.request({ method: 'GET', url: '/api/v1/orders', remoteAddress: address });
    expect(anonymous.statusCode).toBe(401);
    expectBudget(anonymous, 4);
  });

  it('a malformed URL carries the headers and spends the caller’s own budget; once spent it is 429', async () => {
    const t = app();
    const { token } = await createWorkspace(t);
    expectBudget(await t.request({ method: 'GET', url: '/api/v1/orders', token }), 4);
    const malformed = await t.request({ method: 'GET', url: MALFORMED, token });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ response_code: 400, message: 'Malformed request URL', errors: [{ field: null, message: 'Malformed request URL' }] });
    expectBudget(malformed, 3);
    expectBudget(await t.request({ method: 'GET', url: '/api/v1/orders', token }), 2);
    expectBudget(await t.request({ method: 'GET', url: MALFORMED, token }), 1);
    expectBudget(await t.request({ method: 'GET', url: MALFORMED, token }), 0);
    const refused = await t.request({ method: 'GET', url: MALFORMED, token });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ response_code: 429, message: 'Too many requests, please try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectBudget(refused, 0);
  });
}

describe('rate-limit headers, in-process counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) }, { inProcessLimits: true });
  });
  afterAll(() => t.close());

  resetScenarios(() => t);

  it('counts down with the window and starts over when it ends', async () => {
    const { token } = await createWorkspace(t);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(budgetOf(await t.request({ method: 'GET', url: '/api/v1/orders', token })).reset).toBe(60);
      vi.setSystemTime(Date.now() + 20_500);
      expect(budgetOf(await t.request({ method: 'GET', url: '/api/v1/orders', token }))).toEqual({ limit: PER_MINUTE, remaining: 3, reset: 40 });
      vi.setSystemTime(Date.now() + 40_000);
      expect(budgetOf(await t.request({ method: 'GET', url: '/api/v1/orders', token }))).toEqual({ limit: PER_MINUTE, remaining: 4, reset: 60 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)('rate-limit headers, counters in Redis', () => {
  const namespace = `reset-${randomBytes(6).toString('hex')}`;
  let t: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) }, { rateLimitNamespace: namespace });
    second = await buildTestApp({ RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) }, { sharedDatabase: t.db, rateLimitNamespace: namespace });
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  resetScenarios(() => t);

  it('two instances report one window: the second counts on and resets when the first does', async () => {
    const { token } = await createWorkspace(t);
    const first = budgetOf(await t.request({ method: 'GET', url: '/api/v1/orders', token }));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const next = budgetOf(await second.request({ method: 'GET', url: '/api/v1/orders', token }));
    expect(next.remaining).toBe(first.remaining - 1);
    expect(next.reset).toBeLessThanOrEqual(first.reset - 1);
    expect(next.reset).toBeGreaterThanOrEqual(first.reset - 2);
  });
});

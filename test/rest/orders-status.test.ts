import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, placeOrder, seedCatalog, signIn, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

interface History {
  from_status: number | null;
  to_status: number;
  changed_at: string;
  changed_by_user_id: number | null;
  changed_by_api_key_id: number | null;
}

describe('PATCH /api/v1/orders/{id}/status', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;
  let otherCatalog: Catalog;
  let employee: { id: number; token: string };
  let retailerToken: string;

  const newOrder = async (w: Workspace = ws, c: Catalog = catalog) =>
    (await placeOrder(t, w.token, { user_id: c.distributorId, items: [{ product_variant_id: c.variantIds[0], quantity: 2 }] })).id;

  const patch = (id: number | string, payload: unknown, token = ws.token) =>
    t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token, payload: payload as Record<string, unknown> });

  const detail = async (id: number, w: Workspace = ws) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/orders/${id}`, token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { order_status: number; status_history: History[]; delivery: { delivered_at: string | null }; updatedAt: string };
  };

  /** Moves an order to `status` along the flow, as the admin. */
  const advance = async (id: number, status: number) => {
    for (let s = (await detail(id)).order_status + 1; s <= status; s += 1) {
      const res = await patch(id, { order_status: s });
      expect(res.statusCode, res.body).toBe(200);
    }
  };

  /** Asserts the order is still at `status` with `entries` history entries. */
  const unchanged = async (id: number, status: number, entries: number) => {
    const d = await detail(id);
    expect(d.order_status).toBe(status);
    expect(d.status_history).toHaveLength(entries);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    otherCatalog = await seedCatalog(t, other);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    retailerToken = await signIn(t, ws, catalog.retailerId);
  });
  afterAll(() => t?.close());

  it.each([
    ['the admin', () => ({ token: ws.token, userId: ws.adminId })],
    ['an employee', () => ({ token: employee.token, userId: employee.id })],
  ])('%s moves an order 1 → 2 → 3 → 4, each step recorded', async (_who, actor) => {
    const { token, userId } = actor();
    const id = await newOrder();
    let previousUpdatedAt = (await detail(id)).updatedAt;
    for (const status of [2, 3, 4]) {
      if (status === 4) expect((await detail(id)).delivery.delivered_at).toBeNull();
      const res = await patch(id, { order_status: status }, token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'message', 'response_code']);
      expect(body.response_code).toBe(200);
      expect(body.message).toEqual(expect.any(String));
      expect(Object.keys(body.data).sort()).toEqual(['id', 'order_status', 'updatedAt']);
      expect(body.data).toMatchObject({ id, order_status: status });
      expect(Date.parse(body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(previousUpdatedAt));
      previousUpdatedAt = body.data.updatedAt;
      expect((await detail(id)).order_status).toBe(status);
    }
    const d = await detail(id);
    expect(d.status_history.map((h) => [h.from_status, h.to_status, h.changed_by_user_id, h.changed_by_api_key_id])).toEqual([
      [null, 1, ws.adminId, null],
      [1, 2, userId, null],
      [2, 3, userId, null],
      [3, 4, userId, null],
    ]);
    const times = d.status_history.map((h) => Date.parse(h.changed_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(d.delivery.delivered_at).not.toBeNull();
    expect(d.delivery.delivered_at).toBe(d.status_history[3].changed_at);
  });

  describe('invalid moves are 409 naming the allowed next status, and change nothing', () => {
    it('skip 1 → 3', async () => {
      const id = await newOrder();
      const res = await patch(id, { order_status: 3 });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ response_code: 409, message: expect.stringContaining('the only allowed next status is Forwarded (2)') });
      await unchanged(id, 1, 1);
    });

    it('skip 1 → 4', async () => {
      const id = await newOrder();
      const res = await patch(id, { order_status: 4 });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('the only allowed next status is Forwarded (2)');
      await unchanged(id, 1, 1);
      expect((await detail(id)).delivery.delivered_at).toBeNull();
    });

    it('back 3 → 2', async () => {
      const id = await newOrder();
      await advance(id, 3);
      const res = await patch(id, { order_status: 2 });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ response_code: 409, message: expect.stringContaining('the only allowed next status is Delivered (4)') });
      await unchanged(id, 3, 3);
    });

    it('repeat 2 → 2', async () => {
      const id = await newOrder();
      await advance(id, 2);
      const res = await patch(id, { order_status: 2 });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ response_code: 409, message: expect.stringContaining('the only allowed next status is Approved (3)') });
      await unchanged(id, 2, 2);
    });

    it('anything after 4', async () => {
      const id = await newOrder();
      await advance(id, 4);
      const deliveredAt = (await detail(id)).delivery.delivered_at;
      for (const status of [2, 3, 4]) {
        const res = await patch(id, { order_status: status }, employee.token);
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toEqual({ response_code: 409, message: expect.stringContaining('can no longer change') });
        expect(res.json().message).not.toContain('allowed next status');
      }
      await unchanged(id, 4, 4);
      expect((await detail(id)).delivery.delivered_at).toBe(deliveredAt);
    });
  });

  describe('bad order_status values are 400 and change nothing', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['1', { order_status: 1 }, /^order_status /],
      ['5', { order_status: 5 }, /^order_status /],
      ['0', { order_status: 0 }, /^order_status /],
      ["'2' (a string)", { order_status: '2' }, /^order_status /],
      ['2.5', { order_status: 2.5 }, /^order_status /],
      ['null', { order_status: null }, /^order_status /],
      ['missing', {}, /^order_status is required$/],
      // `status` alone is the deprecated alias (input-hardening.test.ts); a bad value is still refused.
      ['the alias status with a bad value', { status: 5 }, /^status must be one of: 2, 3, 4$/],
    ];
    it.each(cases)('%s', async (_name, payload, message) => {
      const id = await newOrder();
      const res = await patch(id, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
      await unchanged(id, 1, 1);
    });

    it('a bad id is 400', async () => {
      for (const id of ['0', 'abc']) {
        const res = await patch(id, { order_status: 2 });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^id /)));
      }
    });
  });

  it('customers get 403 and the order is unchanged, even their own', async () => {
    const id = await newOrder();
    for (const token of [catalog.distributorToken, retailerToken]) {
      const res = await patch(id, { order_status: 2 }, token);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
    }
    await unchanged(id, 1, 1);
  });

  it('answers 401 without a token', async () => {
    const id = await newOrder();
    const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, payload: { order_status: 2 } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
    await unchanged(id, 1, 1);
  });

  it("answers 404 for an unknown order and for another workspace's order, which stays unchanged", async () => {
    const foreign = await newOrder(other, otherCatalog);
    for (const id of [99_999_999, foreign]) {
      const res = await patch(id, { order_status: 2 });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ response_code: 404, message: expect.any(String) });
    }
    const d = await detail(foreign, other);
    expect(d.order_status).toBe(1);
    expect(d.status_history).toHaveLength(1);
  });

  it('two concurrent moves to the same next status: exactly one wins', async () => {
    const id = await newOrder();
    const [a, b] = await Promise.all([patch(id, { order_status: 2 }), patch(id, { order_status: 2 }, employee.token)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().message).toContain('the only allowed next status is Approved (3)');
    const d = await detail(id);
    expect(d.order_status).toBe(2);
    expect(d.status_history.map((h) => [h.from_status, h.to_status])).toEqual([
      [null, 1],
      [1, 2],
    ]);
  });

  it('concurrent moves to consecutive statuses never skip a step', async () => {
    const id = await newOrder();
    const results = await Promise.all([2, 3, 2, 3].map((s) => patch(id, { order_status: s })));
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    const d = await detail(id);
    expect(d.order_status).toBe(1 + ok);
    expect(d.status_history.map((h) => h.to_status)).toEqual([1, 2, 3].slice(0, 1 + ok));
    for (const [i, h] of d.status_history.entries()) if (i > 0) expect(h.from_status).toBe(h.to_status - 1);
  });
});

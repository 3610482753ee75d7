import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Approvals: policies by amount (auto, one tier, two tiers), the inbox per caller, turns, delegates on leave. */
describe('approvals', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  type Who = { token?: string; apiKey?: string };
  let manager: Who & { id: number };
  let employee: Who & { id: number };
  let stand: Who & { id: number };
  let admin2: Who & { id: number };
  const as = ({ token, apiKey }: Who) => (apiKey ? { apiKey } : { token });
  const req = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url: `/api/v1${url}`, ...as(who), ...(payload ? { payload } : {}) });
  const today = () => new Date().toISOString().slice(0, 10);
  /** Submits a FOC request of `qty` units of the 55.00 variant; its body. */
  const submit = async (who: Who, qty: number) => {
    const res = await req(who, 'POST', '/foc/requests', { customer_id: cat.distributorId, reason: 1, items: [{ product_variant_id: cat.variantIds[1], quantity: qty }] });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; status: number; approval_id: number; total_cost: number };
  };
  const approval = async (id: number) => (await req({ token: ws.token }, 'GET', `/approvals/${id}`)).json().data;
  const inboxIds = async (who: Who) => {
    const res = await req(who, 'GET', '/approvals/inbox?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((a: { id: number }) => a.id);
  };
  const decide = (who: Who, id: number, action: 'approve' | 'reject', comment?: string) => req(who, 'POST', `/approvals/${id}/${action}`, comment ? { comment } : undefined);

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    manager = await createUser(t, ws, UserType.EMPLOYEE);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    stand = await createUser(t, ws, UserType.EMPLOYEE);
    admin2 = await createUser(t, ws, UserType.ADMIN);
  });
  afterAll(() => t.close());

  it('without a policy: one tier for any administrator, never the requester', async () => {
    const policy = await req({ token: ws.token }, 'GET', '/approvals/policies/foc');
    expect(policy.json().data).toEqual({ kind: 'foc', is_default: true, tiers: [{ min_amount: 0, approver_user_id: null, approver_role_id: null }] });
    const foc = await submit({ token: ws.token }, 1);
    expect(foc.status).toBe(1);
    expect(await inboxIds({ token: ws.token })).not.toContain(foc.approval_id); // the requester
    expect(await inboxIds(admin2)).toContain(foc.approval_id);
    expect(await inboxIds(employee)).not.toContain(foc.approval_id);
    expect((await decide({ token: ws.token }, foc.approval_id, 'approve')).statusCode).toBe(409);
    expect((await decide(employee, foc.approval_id, 'approve')).statusCode).toBe(404); // not theirs to see
    const done = await decide(admin2, foc.approval_id, 'approve', 'ok');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 2, current_tier: null, steps: [{ tier: 1, status: 3, acted_by_user_id: admin2.id, comment: 'ok' }] });
    expect((await req({ token: ws.token }, 'GET', `/foc/requests/${foc.id}`)).json().data.status).toBe(2);
    expect((await decide(admin2, foc.approval_id, 'reject')).statusCode).toBe(409); // decided already
  });

  describe('with a policy of two thresholds', () => {
    beforeAll(async () => {
      const res = await req({ token: ws.token }, 'PUT', '/approvals/policies/foc', {
        tiers: [{ min_amount: 100, approver_user_id: manager.id }, { min_amount: 1000 }],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({
        kind: 'foc',
        is_default: false,
        tiers: [
          { min_amount: 100, approver_user_id: manager.id, approver_role_id: null },
          { min_amount: 1000, approver_user_id: null, approver_role_id: null },
        ],
      });
    });

    it('auto-approves under the first threshold (no steps)', async () => {
      const foc = await submit(employee, 1); // 55.00
      expect(foc.status).toBe(2);
      expect(await approval(foc.approval_id)).toMatchObject({ kind: 'foc', entity_id: foc.id, amount: 55, status: 2, steps: [] });
    });

    it('needs one tier from the first threshold: only its approver decides, once', async () => {
      const foc = await submit(employee, 2); // 110.00
      expect(foc.status).toBe(1);
      expect(await inboxIds(manager)).toContain(foc.approval_id);
      expect(await inboxIds({ token: ws.token })).not.toContain(foc.approval_id);
      const notTurn = await decide({ token: ws.token }, foc.approval_id, 'approve');
      expect(notTurn.statusCode).toBe(409);
      expect(notTurn.json().message).toMatch(/not your turn/);
      expect((await decide(manager, foc.approval_id, 'approve')).json().data.status).toBe(2);
      expect((await decide(manager, foc.approval_id, 'approve')).statusCode).toBe(409);
      expect(await inboxIds(manager)).not.toContain(foc.approval_id);
    });

    it('needs two tiers from the second threshold, in order, by two people', async () => {
      const foc = await submit(employee, 20); // 1,100.00
      const a = await approval(foc.approval_id);
      expect(a.steps.map((s: { tier: number; status: number }) => [s.tier, s.status])).toEqual([[1, 2], [2, 1]]);
      expect(await inboxIds(admin2)).not.toContain(foc.approval_id); // tier 2 waits for tier 1
      expect((await decide(admin2, foc.approval_id, 'approve')).statusCode).toBe(409);
      const first = await decide(manager, foc.approval_id, 'approve');
      expect(first.json().data).toMatchObject({ status: 1, current_tier: 2 });
      expect((await req({ token: ws.token }, 'GET', `/foc/requests/${foc.id}`)).json().data.status).toBe(1);
      expect(await inboxIds(admin2)).toContain(foc.approval_id);
      expect(await inboxIds(manager)).not.toContain(foc.approval_id);
      expect((await decide(admin2, foc.approval_id, 'approve')).json().data.status).toBe(2);
      expect((await req({ token: ws.token }, 'GET', `/foc/requests/${foc.id}`)).json().data.status).toBe(2);
    });

    it('rejects the request at any tier, skipping the tiers after it', async () => {
      const foc = await submit(employee, 20);
      const res = await decide(manager, foc.approval_id, 'reject', 'Too much');
      expect(res.json().data).toMatchObject({ status: 3, steps: [{ status: 4, comment: 'Too much' }, { status: 5 }] });
      expect((await req({ token: ws.token }, 'GET', `/foc/requests/${foc.id}`)).json().data.status).toBe(3);
      expect((await decide(admin2, foc.approval_id, 'approve')).statusCode).toBe(409);
    });

    it("routes the tier of an approver on approved leave today to their delegate", async () => {
      const foc = await submit(employee, 2);
      expect((await req(employee, 'PUT', `/approvals/delegates/${manager.id}`, { delegate_user_id: stand.id })).statusCode).toBe(403);
      const self = await req(manager, 'PUT', `/approvals/delegates/${manager.id}`, { delegate_user_id: manager.id });
      expect(self.statusCode).toBe(400);
      expect(self.json().errors[0].field).toBe('delegate_user_id');
      const set = await req(manager, 'PUT', `/approvals/delegates/${manager.id}`, { delegate_user_id: stand.id });
      expect(set.json().data).toEqual({ user_id: manager.id, delegate_user_id: stand.id });
      expect((await req(manager, 'GET', `/approvals/delegates/${manager.id}`)).json().data.delegate_user_id).toBe(stand.id);
      // Not on leave yet: the delegate has nothing to decide.
      expect(await inboxIds(stand)).not.toContain(foc.approval_id);
      expect((await decide(stand, foc.approval_id, 'approve')).statusCode).toBe(404);
      const leave = await req(manager, 'POST', '/leaves', { leave_type: 1, from_date: today(), to_date: today(), reason: 'Away' });
      expect(leave.statusCode, leave.body).toBe(201);
      expect((await req({ token: ws.token }, 'POST', `/leaves/${leave.json().data.id}/approve`)).statusCode).toBe(200);
      expect(await inboxIds(stand)).toContain(foc.approval_id);
      const res = await decide(stand, foc.approval_id, 'approve');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.steps[0]).toMatchObject({ acted_by_user_id: stand.id, delegated_from_user_id: manager.id, status: 3 });
      // Removing the delegate: nothing more reaches them.
      expect((await req({ token: ws.token }, 'PUT', `/approvals/delegates/${manager.id}`, { delegate_user_id: null })).json().data.delegate_user_id).toBeNull();
      const next = await submit(employee, 2);
      expect(await inboxIds(stand)).not.toContain(next.approval_id);
      expect(await inboxIds(manager)).toContain(next.approval_id); // still theirs while away
    });

    it("hands a tier whose approver asked for the request to any administrator", async () => {
      const foc = await submit(manager, 2); // the manager's own tier
      expect(await inboxIds(manager)).not.toContain(foc.approval_id);
      expect((await decide(manager, foc.approval_id, 'approve')).statusCode).toBe(409);
      expect(await inboxIds(admin2)).toContain(foc.approval_id);
      expect((await decide(admin2, foc.approval_id, 'approve')).json().data).toMatchObject({ status: 2, steps: [{ acted_by_user_id: admin2.id }] });
    });

    it('lets a role decide a tier', async () => {
      const res = await req({ token: ws.token }, 'PUT', '/approvals/policies/foc', { tiers: [{ min_amount: 0, approver_role_id: ws.roles.Employee }] });
      expect(res.statusCode, res.body).toBe(200);
      const foc = await submit({ token: ws.token }, 1);
      expect(await inboxIds(stand)).toContain(foc.approval_id);
      expect(await inboxIds(admin2)).not.toContain(foc.approval_id);
      expect((await decide(stand, foc.approval_id, 'approve')).json().data.status).toBe(2);
    });
  });

  it('refuses bad policies naming the field, changing nothing', async () => {
    const before = (await req({ token: ws.token }, 'GET', '/approvals/policies/foc')).json().data;
    const cases: Array<[object, string]> = [
      [{ tiers: [{ min_amount: 100 }, { min_amount: 50 }] }, 'tiers[1].min_amount'],
      [{ tiers: [{ min_amount: 1, approver_user_id: manager.id, approver_role_id: ws.roles.Admin }] }, 'tiers[0].approver_role_id'],
      [{ tiers: [{ min_amount: 1, approver_user_id: cat.distributorId }] }, 'tiers[0].approver_user_id'],
      [{ tiers: [{ min_amount: 1.234 }] }, 'tiers[0].min_amount'],
    ];
    for (const [body, field] of cases) {
      const res = await req({ token: ws.token }, 'PUT', '/approvals/policies/foc', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[0].field).toBe(field);
    }
    const unknown = await req({ token: ws.token }, 'GET', '/approvals/policies/nope');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('kind');
    expect((await req(employee, 'PUT', '/approvals/policies/foc', { tiers: [] })).statusCode).toBe(403);
    expect((await req({ token: ws.token }, 'GET', '/approvals/policies/foc')).json().data).toEqual(before);
  });

  it('refuses customers (403) and API keys where a person decides; another workspace gets 404', async () => {
    const foc = await submit(employee, 3);
    for (const [method, url] of [['GET', '/approvals/inbox'], ['GET', `/approvals/${foc.approval_id}`], ['POST', `/approvals/${foc.approval_id}/approve`], ['GET', '/approvals/policies/foc']] as const) {
      expect((await req({ token: cat.distributorToken }, method, url)).statusCode, `${method} ${url}`).toBe(403);
    }
    const key = await createApiKey(t, ws, { scopes: 'read,write,approvals' });
    expect((await req({ apiKey: key.key }, 'GET', '/approvals/inbox')).statusCode).toBe(403);
    expect((await req({ apiKey: key.key }, 'GET', `/approvals/${foc.approval_id}`)).statusCode).toBe(200);
    const other = await createWorkspace(t);
    expect((await req({ token: other.token }, 'GET', `/approvals/${foc.approval_id}`)).statusCode).toBe(404);
    expect((await req({ token: other.token }, 'POST', `/approvals/${foc.approval_id}/approve`)).statusCode).toBe(404);
    expect((await req({ token: other.token }, 'PUT', `/approvals/delegates/${manager.id}`, { delegate_user_id: null })).statusCode).toBe(404);
    expect(await inboxIds({ token: other.token })).toEqual([]);
    expect((await approval(foc.approval_id)).status).toBe(1);
  });
});

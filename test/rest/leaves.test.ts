import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Leaves: apply → approve | reject (an admin, never their own) → cancel; overlaps refused under a lock. */
describe('leaves', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Webhook hosts resolve to a public address, so an endpoint can be registered (no delivery runs: no worker).
    t = await buildTestApp({}, { resolveHost: async () => [{ address: '93.184.216.34', family: 4 }] });
  });
  afterAll(() => t.close());

  /** Today in UTC (a new workspace's time zone), as YYYY-MM-DD. */
  const today = () => new Date().toISOString().slice(0, 10);
  const day = (offset: number) => shiftDay(today(), offset);
  type Credential = { token?: string; apiKey?: string };
  /** Only the credential of a fixture (a user fixture also carries its `body`, which must not become the request's). */
  const as = ({ token, apiKey }: Credential) => (apiKey ? { apiKey } : { token });
  const apply = (who: Credential, payload: object) => t.request({ method: 'POST', url: '/api/v1/leaves', ...as(who), payload });
  const act = (who: Credential, id: number, action: 'approve' | 'reject' | 'cancel', payload?: object) =>
    t.request({ method: 'POST', url: `/api/v1/leaves/${id}/${action}`, ...as(who), ...(payload ? { payload } : {}) });
  const get = (who: Credential, id: number) => t.request({ method: 'GET', url: `/api/v1/leaves/${id}`, ...as(who) });
  const list = (who: Credential, query = '') => t.request({ method: 'GET', url: `/api/v1/leaves${query}`, ...as(who) });
  const leave = (from: number, to = from, extra: object = {}) => ({ leave_type: 1, from_date: day(from), to_date: day(to), reason: 'Family function', ...extra });
  /** Applies and expects a 201; the leave's id. */
  const applied = async (who: Credential, payload: object): Promise<number> => {
    const res = await apply(who, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  };
  /** Every leave of the workspace, as the admin lists them. */
  const snapshot = async (ws: Workspace) => (await list({ token: ws.token }, '?limit=100')).json();

  describe('applying', () => {
    it('lets an employee apply for themselves, counting calendar days, and half a day for one day', async () => {
      const ws = await createWorkspace(t);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const res = await apply(employee, leave(3, 9, { leave_type: 2, reason: '  Fever  ' }));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        response_code: 201,
        message: 'Leave applied',
        data: {
          id: expect.any(Number),
          user_id: employee.id,
          user_name: `${employee.body.first_name} ${employee.body.last_name}`,
          leave_type: 2,
          from_date: day(3),
          to_date: day(9),
          half_day: false,
          days: 7, // calendar days, weekends included
          reason: 'Fever',
          status: 1,
          decided_by_user_id: null,
          decided_at: null,
          decision_note: null,
          cancelled_at: null,
          created_at: expect.any(String),
        },
      });
      const half = await apply(employee, leave(20, 20, { half_day: true }));
      expect(half.json().data).toMatchObject({ days: 0.5, half_day: true, status: 1 });
      const id = res.json().data.id;
      expect((await get(employee, id)).json()).toEqual({ response_code: 200, data: res.json().data });
    });

    it('lets an admin apply for themselves or on behalf of an employee, and an API key for a named user', async () => {
      const ws = await createWorkspace(t);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      expect((await apply({ token: ws.token }, leave(1))).json().data.user_id).toBe(ws.adminId);
      expect((await apply({ token: ws.token }, leave(1, 2, { user_id: employee.id }))).json().data).toMatchObject({ user_id: employee.id, status: 1 });
      const key = await createApiKey(t, ws, { scopes: 'read,write,leaves' });
      const byKey = await apply({ apiKey: key.key }, leave(5, 5, { user_id: employee.id }));
      expect(byKey.statusCode, byKey.body).toBe(201);
      const noUser = await apply({ apiKey: key.key }, leave(7));
      expect(noUser.statusCode).toBe(400);
      expect(noUser.json().errors[0].field).toBe('user_id');
    });

    it('refuses customers (403), read-only keys and keys of other groups (403), and other people’s or unknown users (400)', async () => {
      const ws = await createWorkspace(t);
      const [employee, other] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
      const retailer = await createUser(t, ws, UserType.RETAILER);
      const distributor = await createUser(t, ws, UserType.DISTRIBUTOR);
      expect((await apply(retailer, leave(1))).json()).toEqual({ response_code: 403, message: 'Only workspace staff may do this' });
      expect((await apply(distributor, leave(1))).statusCode).toBe(403);
      expect((await list(retailer)).statusCode).toBe(403);
      const readOnly = await createApiKey(t, ws, { scopes: 'read,leaves' });
      expect((await apply({ apiKey: readOnly.key }, leave(1, 1, { user_id: employee.id }))).statusCode).toBe(403);
      expect((await list({ apiKey: readOnly.key })).statusCode).toBe(200);
      const elsewhere = await createApiKey(t, ws, { scopes: 'read,write,orders' });
      expect((await list({ apiKey: elsewhere.key })).statusCode).toBe(403);

      const otherWs = await createWorkspace(t);
      const stranger = await createUser(t, otherWs, UserType.EMPLOYEE);
      for (const [who, userId, message] of [
        [employee, other.id, 'user_id must be your own user id: employees apply for themselves'],
        [{ token: ws.token }, retailer.id, 'user_id must name an active employee or admin of this workspace'],
        [{ token: ws.token }, stranger.id, 'user_id must name an active employee or admin of this workspace'],
        [{ token: ws.token }, 999_999, 'user_id must name an active employee or admin of this workspace'],
      ] as const) {
        const res = await apply(who, leave(1, 1, { user_id: userId }));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect((await snapshot(ws)).pagination.total).toBe(0);
      expect((await snapshot(otherWs)).pagination.total).toBe(0);
    });

    it('answers every bad field with a 400 naming it, and records nothing', async () => {
      const ws = await createWorkspace(t);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const cases: Array<[object, string, RegExp | string]> = [
        [{ ...leave(1), leave_type: 5 }, 'leave_type', /^leave_type /],
        [{ ...leave(1), leave_type: 'sick' }, 'leave_type', /^leave_type /],
        [{ ...leave(1), from_date: '2026-02-30' }, 'from_date', /^from_date /],
        [{ ...leave(1), to_date: 'tomorrow' }, 'to_date', /^to_date /],
        [leave(5, 4), 'to_date', 'to_date must not be before from_date'],
        [leave(1, 61), 'to_date', /^to_date must be at most 60 days from from_date/],
        [leave(400), 'from_date', /^from_date must be within 365 days of today/],
        [leave(-400), 'from_date', /^from_date must be within 365 days of today/],
        [leave(1, 2, { half_day: true }), 'half_day', 'half_day is only allowed for a one-day leave (from_date = to_date)'],
        [{ ...leave(1), half_day: 'yes' }, 'half_day', /^half_day /],
        [{ ...leave(1), reason: '   ' }, 'reason', 'reason is required'],
        [{ ...leave(1), reason: 'x'.repeat(501) }, 'reason', /^reason /],
        [{ leave_type: 1, from_date: day(1), to_date: day(1) }, 'reason', /reason/],
        [{ ...leave(1), user_id: 0 }, 'user_id', /^user_id /],
        [{ ...leave(1), approver: 3 }, 'approver', /approver/],
      ];
      for (const [payload, field, message] of cases) {
        const res = await apply(employee, payload);
        expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
        expect(res.json().errors[0].field, res.body).toBe(field);
        if (typeof message === 'string') expect(res.json().message).toBe(message);
        else expect(res.json().message).toMatch(message);
      }
      expect((await snapshot(ws)).pagination.total).toBe(0);
      // The edges pass: 60 days, a leave starting 365 days ago, a reason of 500 characters.
      await applied(employee, leave(1, 60));
      await applied(employee, leave(-365, -365, { reason: 'x'.repeat(500) }));
    });
  });

  describe('overlaps', () => {
    it('refuses a leave overlapping an open or approved one of the same user (409), not a rejected or cancelled one', async () => {
      const ws = await createWorkspace(t);
      const [employee, colleague] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
      const open = await applied(employee, leave(10, 12));
      const overlap = await apply(employee, leave(12, 14));
      expect(overlap.json()).toEqual({ response_code: 409, message: `Overlaps leave ${open} (${day(10)} to ${day(12)}, open) of user ${employee.id}` });
      expect((await apply(employee, leave(8, 20))).statusCode).toBe(409); // around it
      expect((await apply(employee, leave(11, 11, { half_day: true }))).statusCode).toBe(409); // inside it, half a day too
      expect((await apply({ token: ws.token }, leave(11, 11, { user_id: employee.id }))).statusCode).toBe(409); // on behalf, too
      await applied(employee, leave(13, 14)); // the next day is free
      await applied(colleague, leave(10, 12)); // another user's days are theirs

      expect((await act({ token: ws.token }, open, 'approve')).statusCode).toBe(200);
      expect((await apply(employee, leave(10, 10))).json().message).toMatch(/, approved\) of user/);

      const rejected = await applied(employee, leave(30, 31));
      expect((await act({ token: ws.token }, rejected, 'reject')).statusCode).toBe(200);
      await applied(employee, leave(30, 31)); // a rejected leave blocks nothing
      const cancelled = await applied(employee, leave(40, 41));
      expect((await act(employee, cancelled, 'cancel')).statusCode).toBe(200);
      await applied(employee, leave(41, 42)); // nor does a cancelled one
    });

    it('lets only one of many concurrent overlapping applications of a user through', async () => {
      const ws = await createWorkspace(t);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const colleague = await createUser(t, ws, UserType.EMPLOYEE);
      for (let round = 0; round < 3; round++) {
        const base = 100 + round * 20;
        // Different ranges that all share day base+5, sent at once: the user's row lock makes each wait for the one before.
        const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => apply(employee, leave(base + (i % 5), base + 5 + (i % 3)))));
        const statuses = answers.map((r) => r.statusCode).sort();
        expect(statuses, answers.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      }
      // Another user's applications are not held up by, nor refused for, the first user's.
      const both = await Promise.all([apply(employee, leave(200, 201)), apply(colleague, leave(200, 201))]);
      expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
      const mine = (await list({ token: ws.token }, `?user_id=${employee.id}&limit=100`)).json();
      expect(mine.pagination.total).toBe(4);
    });
  });

  describe('decisions', () => {
    it('lets an admin approve or reject an open leave with an optional note, once', async () => {
      const ws = await createWorkspace(t);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const a = await applied(employee, leave(1, 2));
      const approved = await act({ token: ws.token }, a, 'approve', { note: ' Enjoy ' });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({
        response_code: 200,
        message: 'Leave approved',
        data: { id: a, status: 2, decided_by_user_id: ws.adminId, decided_at: expect.any(String), decision_note: 'Enjoy' },
      });
      expect((await act({ token: ws.token }, a, 'approve')).json()).toEqual({ response_code: 409, message: `Leave ${a} is approved: only an open leave can be approved` });
      expect((await act({ token: ws.token }, a, 'reject')).json()).toEqual({ response_code: 409, message: `Leave ${a} is approved: only an open leave can be rejected` });

      const b = await applied(employee, leave(5));
      const rejected = await act({ token: ws.token }, b, 'reject'); // no body: no note
      expect(rejected.json().data).toMatchObject({ status: 3, decided_by_user_id: ws.adminId, decision_note: null });
      expect((await act({ token: ws.token }, b, 'approve')).json().message).toBe(`Leave ${b} is rejected: only an open leave can be approved`);
      expect((await act(employee, b, 'cancel')).json()).toEqual({ response_code: 409, message: `Leave ${b} is rejected: only an open or approved leave can be cancelled` });
    });

    it('refuses employees, customers, API keys and an admin deciding their own leave (403), and bad notes (400)', async () => {
      const ws = await createWorkspace(t);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const secondAdmin = await createUser(t, ws, UserType.ADMIN);
      const retailer = await createUser(t, ws, UserType.RETAILER);
      const key = await createApiKey(t, ws, { scopes: '*' });
      const id = await applied(employee, leave(1));
      const own = await applied({ token: ws.token }, leave(3));
      const before = await snapshot(ws);
      for (const action of ['approve', 'reject'] as const) {
        expect((await act(employee, id, action)).json()).toEqual({ response_code: 403, message: 'Only workspace administrators may do this' });
        expect((await act(retailer, id, action)).statusCode).toBe(403);
        expect((await act({ apiKey: key.key }, id, action)).json()).toEqual({ response_code: 403, message: 'This operation needs a signed-in user session' });
        expect((await act({ token: ws.token }, own, action)).json()).toEqual({
          response_code: 403,
          message: 'An administrator cannot approve or reject their own leave: another administrator decides it',
        });
        const long = await act({ token: ws.token }, id, action, { note: 'x'.repeat(501) });
        expect(long.statusCode).toBe(400);
        expect(long.json().errors[0].field).toBe('note');
        expect((await act({ token: ws.token }, id, action, { note: 5 })).statusCode).toBe(400);
      }
      expect(await snapshot(ws)).toEqual(before);
      // Any other admin of the workspace decides the admin's own leave.
      expect((await act(secondAdmin, own, 'approve')).json().data).toMatchObject({ status: 2, decided_by_user_id: secondAdmin.id });
    });
  });

  describe('cancelling', () => {
    it('lets the applicant or an admin cancel an open or approved leave that has a day left', async () => {
      const ws = await createWorkspace(t);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const open = await applied(employee, leave(1, 3));
      const res = await act(employee, open, 'cancel');
      expect(res.json()).toMatchObject({ response_code: 200, message: 'Leave cancelled', data: { status: 4, cancelled_at: expect.any(String) } });
      expect((await act(employee, open, 'cancel')).json()).toEqual({ response_code: 409, message: `Leave ${open} is cancelled: only an open or approved leave can be cancelled` });

      const approved = await applied(employee, leave(5));
      await act({ token: ws.token }, approved, 'approve');
      expect((await act({ token: ws.token }, approved, 'cancel')).json().data.status).toBe(4);
      // A started leave (its last day today) may still be cancelled; a key may cancel too.
      const started = await applied(employee, leave(-2, 0));
      const key = await createApiKey(t, ws, { scopes: 'read,write,leaves' });
      expect((await act({ apiKey: key.key }, started, 'cancel')).json().data.status).toBe(4);
      expect((await act({ apiKey: key.key }, started, 'approve')).statusCode).toBe(403);
    });

    it('refuses a leave whose days have all passed (409), another employee’s (404) and customers (403)', async () => {
      const ws = await createWorkspace(t);
      const [employee, other] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
      const retailer = await createUser(t, ws, UserType.RETAILER);
      const past = await applied(employee, leave(-5, -1));
      await act({ token: ws.token }, past, 'approve');
      const before = await snapshot(ws);
      expect((await act(employee, past, 'cancel')).json()).toEqual({
        response_code: 409,
        message: `Leave ${past} ended on ${day(-1)}: a leave whose days have all passed cannot be cancelled`,
      });
      expect((await act({ token: ws.token }, past, 'cancel')).statusCode).toBe(409);
      expect((await act(other, past, 'cancel')).json()).toEqual({ response_code: 404, message: `Leave ${past} not found` });
      expect((await act(retailer, past, 'cancel')).statusCode).toBe(403);
      expect(await snapshot(ws)).toEqual(before);
    });
  });

  describe('reading', () => {
    it('lists everyone’s for admins and only their own for employees, with filters and sort', async () => {
      const ws = await createWorkspace(t);
      const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
      const a1 = await applied(a, leave(1, 3));
      const a2 = await applied(a, leave(10, 10, { leave_type: 2 }));
      const b1 = await applied(b, leave(5, 8, { leave_type: 3 }));
      const b2 = await applied({ token: ws.token }, leave(20, 21, { user_id: b.id, leave_type: 4 }));
      await act({ token: ws.token }, a2, 'approve');
      await act({ token: ws.token }, b1, 'reject');
      const ids = async (who: Credential, query = '') => {
        const res = await list(who, query);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.map((l: { id: number }) => l.id);
      };
      expect(await ids({ token: ws.token })).toEqual([b2, a2, b1, a1]); // latest first day first
      expect(await ids({ token: ws.token }, '?sort=from_date')).toEqual([a1, b1, a2, b2]);
      expect(await ids({ token: ws.token }, '?sort=-days,id')).toEqual([b1, a1, b2, a2]);
      expect(await ids(a)).toEqual([a2, a1]);
      expect(await ids(a, `?user_id=${b.id}`)).toEqual([]); // a filter never widens what an employee sees
      expect(await ids({ token: ws.token }, `?user_id=${b.id}`)).toEqual([b2, b1]);
      expect(await ids({ token: ws.token }, '?status=2')).toEqual([a2]);
      expect(await ids({ token: ws.token }, '?leave_type=3')).toEqual([b1]);
      // Overlapping the range: any leave with a day in [date_from, date_to].
      expect(await ids({ token: ws.token }, `?date_from=${day(3)}&date_to=${day(5)}`)).toEqual([b1, a1]);
      expect(await ids({ token: ws.token }, `?date_from=${day(9)}`)).toEqual([b2, a2]);
      expect(await ids({ token: ws.token }, `?date_to=${day(1)}`)).toEqual([a1]);
      const page = (await list({ token: ws.token }, '?limit=2&page=2')).json();
      expect(page.pagination).toEqual({ total: 4, page: 2, limit: 2, total_pages: 2 });
      for (const [query, field] of [
        [`?date_from=${day(5)}&date_to=${day(3)}`, 'date_from'],
        ['?date_from=2026-13-01', 'date_from'],
        ['?status=5', 'status'],
        ['?leave_type=0', 'leave_type'],
        ['?sort=reason', 'sort'],
        ['?approver=1', 'approver'],
      ] as const) {
        const res = await list({ token: ws.token }, query);
        expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
        expect(res.json().errors[0].field, res.body).toBe(field);
      }
      expect((await get(b, a1)).statusCode).toBe(404); // another employee's leave is not found
      expect((await get(a, a1)).json().data.id).toBe(a1);
    });

    it('answers another workspace’s leave as not found on every route, and changes nothing', async () => {
      const [A, B] = [await createWorkspace(t), await createWorkspace(t)];
      const employee = await createUser(t, A, UserType.EMPLOYEE);
      const id = await applied(employee, leave(2, 3));
      const before = await snapshot(A);
      expect((await get({ token: B.token }, id)).json()).toEqual({ response_code: 404, message: `Leave ${id} not found` });
      for (const action of ['approve', 'reject', 'cancel'] as const) expect((await act({ token: B.token }, id, action)).statusCode).toBe(404);
      const keyOfB = await createApiKey(t, B, { scopes: '*' });
      expect((await get({ apiKey: keyOfB.key }, id)).statusCode).toBe(404);
      expect((await act({ apiKey: keyOfB.key }, id, 'cancel')).statusCode).toBe(404);
      expect((await list({ token: B.token })).json().pagination.total).toBe(0);
      expect(await snapshot(A)).toEqual(before);
    });
  });

  it('queues leave.approved and leave.rejected for subscribed webhooks in the decision’s transaction', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const hook = await t.request({
      method: 'POST',
      url: '/api/v1/developer/webhooks',
      token: ws.token,
      payload: { name: 'HR', url: 'https://erp.example.test/hooks', events: ['leave.approved', 'leave.rejected'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const [a, b] = [await applied(employee, leave(1)), await applied(employee, leave(2))];
    await act({ token: ws.token }, a, 'approve', { note: 'ok' });
    await act({ token: ws.token }, b, 'reject');
    await act({ token: ws.token }, b, 'approve'); // 409: no event
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ event_type: string; event_data: Record<string, unknown> }>>(
        'select event_type, event_data from webhook_delivery where organization_id = ? order by id',
        [ws.organizationId],
      );
    expect(rows.map((r) => r.event_type)).toEqual(['leave.approved', 'leave.rejected']);
    expect(rows[0].event_data).toMatchObject({ id: a, user_id: employee.id, status: 2, decided_by_user_id: ws.adminId, decision_note: 'ok', days: 1, from_date: day(1) });
    expect(rows[1].event_data).toMatchObject({ id: b, status: 3, decision_note: null });
  });
});

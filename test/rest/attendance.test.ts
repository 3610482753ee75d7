import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { expectGraphqlError } from '../helpers/graphql-assertions';
import { createApiKey, createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Attendance: one check-in and one check-out per local day (the workspace's time zone). */
describe('attendance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const checkIn = (token: string, payload?: object) => t.request({ method: 'POST', url: '/api/v1/attendance/check-in', token, payload });
  const checkOut = (token: string) => t.request({ method: 'POST', url: '/api/v1/attendance/check-out', token });
  const list = (token: string, query = '') => t.request({ method: 'GET', url: `/api/v1/attendance${query}`, token });
  const setZone = (ws: Workspace, zone: string) =>
    t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { time_zone: zone } });
  /** Today in `zone`, as YYYY-MM-DD. */
  const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

  it('checks an employee in and out once a day, in the workspace’s local day', async () => {
    const ws = await createWorkspace(t);
    // A zone whose date differs from UTC's right now (UTC+14 from 10:00 UTC, else UTC−11), so the
    // test tells the local day from the UTC day whenever it runs.
    const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    expect(todayIn(zone)).not.toBe(todayIn('UTC'));
    expect((await setZone(ws, zone)).statusCode).toBe(200);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const first = await checkIn(employee.token, { latitude: 22.5645, longitude: 72.9289 });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({
      response_code: 201,
      message: 'Checked in',
      data: {
        id: expect.any(Number),
        user_id: employee.id,
        user_name: `${employee.body.first_name} ${employee.body.last_name}`,
        date: todayIn(zone),
        check_in_at: expect.any(String),
        check_out_at: null,
        latitude: 22.5645,
        longitude: 72.9289,
      },
    });
    const again = await checkIn(employee.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ response_code: 409, message: `Already checked in today (${todayIn(zone)})` });

    const out = await checkOut(employee.token);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json().data.check_out_at).toEqual(expect.any(String));
    expect((await checkOut(employee.token)).json()).toEqual({ response_code: 409, message: `Already checked out today (${todayIn(zone)})` });
  });

  it('refuses a check-out without a check-in, customers, API keys and bad coordinates', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expect((await checkOut(employee.token)).json()).toEqual({ response_code: 409, message: `Not checked in today (${todayIn('UTC')})` });
    const retailer = await createUser(t, ws, UserType.RETAILER);
    expect((await checkIn(retailer.token)).json()).toEqual({ response_code: 403, message: 'Only employees and admins record attendance' });
    const key = await createApiKey(t, ws, { scopes: '*' });
    const byKey = await t.request({ method: 'POST', url: '/api/v1/attendance/check-in', apiKey: key.key });
    expect(byKey.json()).toEqual({ response_code: 403, message: 'This operation needs a signed-in user session' });
    for (const [payload, message] of [
      [{ latitude: 91, longitude: 0 }, 'latitude must be <= 90'],
      [{ latitude: 10 }, 'longitude is required with the other coordinate'],
      [{ latitude: '10', longitude: 5 }, /^latitude /],
    ] as const) {
      const res = await checkIn(employee.token, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await list(ws.token)).json().pagination.total).toBe(0); // nothing was recorded
  });

  it('lists everyone’s records for admins and only their own for employees, with date and user filters', async () => {
    const ws = await createWorkspace(t);
    const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    for (const who of [a, b, { token: ws.token }]) expect((await checkIn(who.token)).statusCode).toBe(201);
    const all = await list(ws.token);
    expect(all.json().pagination.total).toBe(3);
    expect((await list(a.token)).json().data.map((r: { user_id: number }) => r.user_id)).toEqual([a.id]);
    expect((await list(ws.token, `?user_id=${b.id}`)).json().data.map((r: { user_id: number }) => r.user_id)).toEqual([b.id]);
    expect((await list(ws.token, `?date=${todayIn('UTC')}`)).json().pagination.total).toBe(3);
    expect((await list(ws.token, '?date=2001-01-01')).json().pagination.total).toBe(0);
    expect((await list(ws.token, '?date=2001-02-30')).statusCode).toBe(400);
    const other = await createWorkspace(t);
    expect((await list(other.token)).json().pagination.total).toBe(0); // another workspace sees nothing
    const customer = await createUser(t, ws, UserType.DISTRIBUTOR);
    expect((await list(customer.token)).statusCode).toBe(403);
  });

  it('works over GraphQL', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const done = await t.graphql<{ checkIn: { day: string; user: { id: number } } }>('mutation { checkIn { day user { id } } }', {}, employee.token);
    expect(done.data?.checkIn).toEqual({ day: todayIn('UTC'), user: { id: employee.id } });
    expectGraphqlError(await t.graphql('mutation { checkIn { id } }', {}, employee.token), 'CONFLICT');
    const out = await t.graphql<{ checkOut: { checkOutAt: string } }>('mutation { checkOut { checkOutAt } }', {}, employee.token);
    expect(out.data?.checkOut.checkOutAt).toEqual(expect.any(String));
    const page = await t.graphql<{ attendance: { pageInfo: { total: number } } }>('{ attendance { pageInfo { total } } }', {}, ws.token);
    expect(page.data?.attendance.pageInfo.total).toBe(1);
  });
});

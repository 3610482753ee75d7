import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { haversineMetres } from '../../src/domains/tracking/distance';
import { createApiKey, createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { checkInBody, checkOutBody, createOutlet } from '../helpers/visit-fixtures';
import { checkInHoursAgo, positionCount, secondsFromNow, todayIn, useNoonZone } from '../helpers/tracking-fixtures';

/** Live tracking over REST: duty-bounded positions, the live map, the day's trail. */
describe('tracking', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const post = (token: string, positions: unknown[]) => t.request({ method: 'POST', url: '/api/v1/tracking/positions', token, payload: { positions } });
  const live = (credential: { token?: string; apiKey?: string }, query = '') => t.request({ method: 'GET', url: `/api/v1/tracking/live${query}`, ...credential });
  const trail = (credential: { token?: string; apiKey?: string }, query = '') => t.request({ method: 'GET', url: `/api/v1/tracking/trail${query}`, ...credential });
  const fix = (secondsAgo: number, extra: Record<string, unknown> = {}) => ({ device_time: secondsFromNow(-secondsAgo), latitude: 22.5645, longitude: 72.9289, ...extra });

  /** A workspace at local noon with one employee checked in three hours ago. */
  async function onDuty(): Promise<{ ws: Workspace; zone: string; employee: Awaited<ReturnType<typeof createUser>> }> {
    const ws = await createWorkspace(t);
    const zone = await useNoonZone(t, ws);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    await checkInHoursAgo(t, ws, employee);
    return { ws, zone, employee };
  }

  describe('posting positions', () => {
    it('is refused with 409 and stores nothing before a check-in and after the check-out', async () => {
      const ws = await createWorkspace(t);
      const zone = await useNoonZone(t, ws);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const before = await post(employee.token, [fix(0)]);
      expect(before.json()).toEqual({ response_code: 409, message: `Not checked in today (${todayIn(zone)}): positions are accepted only while on duty` });
      expect(await positionCount(t, ws)).toBe(0);

      await checkInHoursAgo(t, ws, employee, 1);
      const during = await post(employee.token, [fix(60), fix(30)]);
      expect(during.statusCode, during.body).toBe(201);
      expect(during.json()).toEqual({
        response_code: 201,
        message: '2 positions stored',
        data: { accepted: 2, rejected: [], checked_in_at: expect.any(String) },
      });
      expect(await positionCount(t, ws)).toBe(2);

      expect((await t.request({ method: 'POST', url: '/api/v1/attendance/check-out', token: employee.token })).statusCode).toBe(200);
      const after = await post(employee.token, [fix(10)]);
      expect(after.json()).toEqual({ response_code: 409, message: `Checked out today (${todayIn(zone)}): positions are accepted only while on duty` });
      expect(await positionCount(t, ws)).toBe(2);
    });

    it('lets admins track themselves; refuses customers and API keys', async () => {
      const ws = await createWorkspace(t);
      await useNoonZone(t, ws);
      await checkInHoursAgo(t, ws, { id: ws.adminId, token: ws.token });
      expect((await post(ws.token, [fix(5)])).statusCode).toBe(201);
      const retailer = await createUser(t, ws, UserType.RETAILER);
      expect((await post(retailer.token, [fix(5)])).json()).toEqual({ response_code: 403, message: 'Only employees and admins post positions' });
      const key = await createApiKey(t, ws, { scopes: 'write,tracking' });
      const byKey = await t.request({ method: 'POST', url: '/api/v1/tracking/positions', apiKey: key.key, payload: { positions: [fix(5)] } });
      expect(byKey.json()).toEqual({ response_code: 403, message: 'This operation needs a signed-in user session' });
      expect(await positionCount(t, ws)).toBe(1);
    });

    it('takes 1 to 500 positions a batch, in one statement', async () => {
      const { ws, employee } = await onDuty();
      for (const positions of [[], Array.from({ length: 501 }, (_, i) => fix(i))]) {
        const res = await post(employee.token, positions);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().errors[0].field).toBe('positions');
      }
      expect((await t.request({ method: 'POST', url: '/api/v1/tracking/positions', token: employee.token, payload: {} })).statusCode).toBe(400);
      expect(await positionCount(t, ws)).toBe(0);
      t.queries.reset();
      const full = await post(employee.token, Array.from({ length: 500 }, (_, i) => fix(i, { battery_pct: 80 })));
      expect(full.statusCode, full.body).toBe(201);
      expect(full.json().data.accepted).toBe(500);
      expect(t.queries.statements.filter((s) => /insert into user_position/i.test(s))).toHaveLength(1);
      expect(await positionCount(t, ws)).toBe(500);
    });

    it('refuses the whole batch when a field is malformed, naming positions[i].field', async () => {
      const { ws, employee } = await onDuty();
      for (const [bad, field] of [
        [{ latitude: 91 }, 'positions[1].latitude'],
        [{ longitude: -180.5 }, 'positions[1].longitude'],
        [{ latitude: undefined }, 'positions[1].latitude'],
        [{ device_time: undefined }, 'positions[1].device_time'],
        [{ device_time: 'yesterday' }, 'positions[1].device_time'],
        [{ device_time: '2026-11-27 10:00' }, 'positions[1].device_time'],
        [{ accuracy_m: -1 }, 'positions[1].accuracy_m'],
        [{ speed_mps: -0.1 }, 'positions[1].speed_mps'],
        [{ heading: 361 }, 'positions[1].heading'],
        [{ battery_pct: 101 }, 'positions[1].battery_pct'],
        [{ battery_pct: 50.5 }, 'positions[1].battery_pct'],
        [{ is_charging: 'yes' }, 'positions[1].is_charging'],
        [{ is_mock: 1 }, 'positions[1].is_mock'],
      ] as const) {
        const res = await post(employee.token, [fix(20), fix(10, bad)]);
        expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(400);
        expect(res.json().errors[0].field, JSON.stringify(bad)).toBe(field);
      }
      expect(await positionCount(t, ws)).toBe(0);
    });

    it('skips positions outside the open attendance span and re-sent ones, reporting each by index', async () => {
      const { ws, employee } = await onDuty(); // checked in 3 hours ago
      const res = await post(employee.token, [
        fix(4 * 3600), // before the check-in
        fix(60, { is_mock: true }),
        fix(-10 * 60), // 10 minutes ahead of the server
        fix(-2 * 60), // 2 minutes ahead: within the clock-skew tolerance
        fix(30),
      ]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toEqual({
        accepted: 3,
        rejected: [
          { index: 0, reason: 'before_check_in' },
          { index: 2, reason: 'in_future' },
        ],
        checked_in_at: expect.any(String),
      });
      expect(await positionCount(t, ws)).toBe(3);

      // Nothing valid: nothing stored, 200 with the reasons.
      const none = await post(employee.token, [fix(5 * 3600), fix(-3600)]);
      expect(none.statusCode, none.body).toBe(200);
      expect(none.json()).toEqual({
        response_code: 200,
        message: 'No positions stored',
        data: { accepted: 0, rejected: [{ index: 0, reason: 'before_check_in' }, { index: 1, reason: 'in_future' }], checked_in_at: expect.any(String) },
      });

      // A re-sent batch (and a fix repeated within one) stores each device time once.
      const once = [fix(100), fix(90)];
      expect((await post(employee.token, once)).json().data.accepted).toBe(2);
      const again = await post(employee.token, [once[0], fix(80), once[1], fix(80 - 0)]);
      expect(again.json().data.accepted).toBe(1);
      expect(again.json().data.rejected.map((r: { index: number; reason: string }) => [r.index, r.reason])).toEqual([
        [0, 'duplicate'],
        [2, 'duplicate'],
        [3, 'duplicate'],
      ]);
      expect(await positionCount(t, ws)).toBe(6);
    });
  });

  describe('the live map', () => {
    it('answers each staff member’s latest position with staleness, battery and duty', async () => {
      const { ws, employee: a } = await onDuty();
      const b = await createUser(t, ws, UserType.EMPLOYEE);
      await checkInHoursAgo(t, ws, b);
      const idle = await createUser(t, ws, UserType.EMPLOYEE); // never posted: not on the map
      expect((await post(a.token, [fix(600, { battery_pct: 90 }), fix(120, { battery_pct: 15, is_charging: false, accuracy_m: 8.5, speed_mps: 1.25, heading: 90 }), fix(900)])).statusCode).toBe(201);
      expect((await post(b.token, [fix(30, { battery_pct: 60, is_charging: true })])).statusCode).toBe(201);
      expect((await t.request({ method: 'POST', url: '/api/v1/attendance/check-out', token: b.token })).statusCode).toBe(200);

      const res = await live({ token: ws.token });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.pagination).toEqual({ total: 2, page: 1, limit: 20, total_pages: 1 });
      // Freshest first by default.
      expect(body.data.map((r: { user_id: number }) => r.user_id)).toEqual([b.id, a.id]);
      const rowA = body.data[1];
      expect(rowA).toEqual({
        id: expect.any(Number),
        user_id: a.id,
        user_name: `${a.body.first_name} ${a.body.last_name}`,
        user_type: 1,
        latitude: 22.5645,
        longitude: 72.9289,
        accuracy_m: 8.5,
        speed_mps: 1.25,
        heading: 90,
        battery_pct: 15,
        is_charging: false,
        is_mock: null,
        recorded_at: expect.any(String),
        received_at: expect.any(String),
        staleness_seconds: expect.any(Number),
        on_duty: true,
        current_visit_id: null,
      });
      expect(rowA.staleness_seconds).toBeGreaterThanOrEqual(119);
      expect(rowA.staleness_seconds).toBeLessThan(180);
      expect(new Date(rowA.received_at).getTime()).toBeGreaterThan(new Date(rowA.recorded_at).getTime());
      expect(body.data[0]).toMatchObject({ user_id: b.id, battery_pct: 60, is_charging: true, on_duty: false });

      // The current visit: the user's visit in progress, until checked out.
      const outletId = await createOutlet(t, ws);
      const visit = await t.request({ method: 'POST', url: '/api/v1/visits/check-in', token: a.token, payload: checkInBody(outletId) });
      expect(visit.statusCode, visit.body).toBe(201);
      const visitId = visit.json().data.id;
      const currentVisits = async () => Object.fromEntries((await live({ token: ws.token })).json().data.map((r: { user_id: number; current_visit_id: number | null }) => [r.user_id, r.current_visit_id]));
      expect(await currentVisits()).toEqual({ [a.id]: visitId, [b.id]: null });
      expect((await t.request({ method: 'POST', url: `/api/v1/visits/${visitId}/check-out`, token: a.token, payload: checkOutBody() })).statusCode).toBe(200);
      expect(await currentVisits()).toEqual({ [a.id]: null, [b.id]: null });

      expect((await live({ token: ws.token }, '?on_duty=true')).json().data.map((r: { user_id: number }) => r.user_id)).toEqual([a.id]);
      expect((await live({ token: ws.token }, '?on_duty=false')).json().data.map((r: { user_id: number }) => r.user_id)).toEqual([b.id]);
      expect((await live({ token: ws.token }, `?user_id=${a.id}`)).json().data.map((r: { user_id: number }) => r.user_id)).toEqual([a.id]);
      expect((await live({ token: ws.token }, `?user_id=${idle.id}`)).json().pagination.total).toBe(0);
      expect((await live({ token: ws.token }, '?sort=battery_pct')).json().data.map((r: { battery_pct: number }) => r.battery_pct)).toEqual([15, 60]);
      expect((await live({ token: ws.token }, '?limit=1&page=2')).json().data.map((r: { user_id: number }) => r.user_id)).toEqual([a.id]);
      expect((await live({ token: ws.token }, '?sort=speed')).json().errors[0].field).toBe('sort');
      expect((await live({ token: ws.token }, '?on_duty=maybe')).statusCode).toBe(400);

      // Employees see their own row only; API keys with the scope read the map.
      expect((await live({ token: a.token })).json().data.map((r: { user_id: number }) => r.user_id)).toEqual([a.id]);
      expect((await live({ token: a.token }, `?user_id=${b.id}`)).json()).toEqual({ response_code: 403, message: 'Employees see only their own position' });
      const key = await createApiKey(t, ws, { scopes: 'read,tracking' });
      expect((await live({ apiKey: key.key })).json().pagination.total).toBe(2);
      const elsewhere = await createApiKey(t, ws, { scopes: 'read,orders' });
      expect((await live({ apiKey: elsewhere.key })).statusCode).toBe(403);
      const distributor = await createUser(t, ws, UserType.DISTRIBUTOR);
      expect((await live({ token: distributor.token })).statusCode).toBe(403);
      // A customer or another workspace's user named as the filter: 400 naming user_id.
      for (const id of [distributor.id, (await createWorkspace(t)).adminId]) {
        const res = await live({ token: ws.token }, `?user_id=${id}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[0]).toEqual({ field: 'user_id', message: 'user_id does not name an employee or admin of this workspace' });
      }
    });

    it('never shows another workspace’s positions', async () => {
      const { employee } = await onDuty();
      expect((await post(employee.token, [fix(5)])).statusCode).toBe(201);
      const other = await createWorkspace(t);
      expect((await live({ token: other.token })).json().pagination.total).toBe(0);
      expect((await trail({ token: other.token }, `?user_id=${employee.id}`)).json()).toEqual({ response_code: 404, message: `User ${employee.id} not found` });
    });
  });

  describe('the trail', () => {
    it('answers the day’s breadcrumb in device-time order with its haversine distance', async () => {
      const { ws, zone, employee } = await onDuty();
      // Sent out of order, in two batches: the trail orders by device time.
      const points = [
        { s: 3000, lat: 22.5645, lon: 72.9289 },
        { s: 2000, lat: 22.5745, lon: 72.9289 },
        { s: 1000, lat: 22.5745, lon: 72.9389 },
      ];
      expect((await post(employee.token, [fix(points[2].s, { latitude: points[2].lat, longitude: points[2].lon })])).statusCode).toBe(201);
      expect((await post(employee.token, [points[1], points[0]].map((p) => fix(p.s, { latitude: p.lat, longitude: p.lon })))).statusCode).toBe(201);

      const res = await trail({ token: employee.token });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ user_id: employee.id, date: todayIn(zone), truncated: false });
      expect(data.points.map((p: { latitude: number; longitude: number }) => [p.latitude, p.longitude])).toEqual(points.map((p) => [p.lat, p.lon]));
      const times = data.points.map((p: { recorded_at: string }) => new Date(p.recorded_at).getTime());
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      // 0.01° of latitude (~1,112 m) then 0.01° of longitude at 22.57° N (~1,027 m).
      const expected = haversineMetres({ latitude: 22.5645, longitude: 72.9289 }, { latitude: 22.5745, longitude: 72.9289 }) + haversineMetres({ latitude: 22.5745, longitude: 72.9289 }, { latitude: 22.5745, longitude: 72.9389 });
      expect(data.distance_m).toBe(Math.round(expected));
      expect(data.distance_m).toBeGreaterThan(2_100);
      expect(data.distance_m).toBeLessThan(2_180);
      expect(data.points[0]).toEqual({
        id: expect.any(Number),
        recorded_at: expect.any(String),
        received_at: expect.any(String),
        latitude: 22.5645,
        longitude: 72.9289,
        accuracy_m: null,
        speed_mps: null,
        heading: null,
        battery_pct: null,
        is_charging: null,
        is_mock: null,
      });

      // The admin names the user; another day is empty; a bad date is a 400.
      expect((await trail({ token: ws.token }, `?user_id=${employee.id}&date=${todayIn(zone)}`)).json().data.points).toHaveLength(3);
      const yesterday = await trail({ token: ws.token }, `?user_id=${employee.id}&date=2001-01-01`);
      expect(yesterday.json().data).toMatchObject({ points: [], distance_m: 0, truncated: false });
      expect((await trail({ token: ws.token }, `?user_id=${employee.id}&date=2001-02-30`)).json().errors[0].field).toBe('date');
    });

    it('is the employee’s own, names the user for API keys, and 404s users of other workspaces', async () => {
      const { ws, employee } = await onDuty();
      const colleague = await createUser(t, ws, UserType.EMPLOYEE);
      expect((await trail({ token: employee.token }, `?user_id=${colleague.id}`)).json()).toEqual({ response_code: 403, message: 'Employees see only their own trail' });
      const key = await createApiKey(t, ws, { scopes: 'read,tracking' });
      const noUser = await trail({ apiKey: key.key });
      expect(noUser.statusCode).toBe(400);
      expect(noUser.json().errors[0].field).toBe('user_id');
      expect((await trail({ apiKey: key.key }, `?user_id=${employee.id}`)).statusCode).toBe(200);
      const retailer = await createUser(t, ws, UserType.RETAILER);
      expect((await trail({ token: retailer.token })).statusCode).toBe(403);
      expect((await trail({ token: ws.token }, `?user_id=${retailer.id}`)).json()).toEqual({ response_code: 404, message: `User ${retailer.id} not found` });
      expect((await trail({ token: ws.token }, '?user_id=2147483647')).statusCode).toBe(404);
    });
  });

  describe('the retention setting', () => {
    it('defaults to 90 days and takes 1 to 3650', async () => {
      const ws = await createWorkspace(t);
      const get = await t.request({ method: 'GET', url: '/api/v1/workspace/config', token: ws.token });
      expect(get.json().data.config.position_retention_days).toBe(90);
      for (const bad of [0, 3651, 2.5, '30']) {
        const res = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { position_retention_days: bad } });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[0].field).toBe('position_retention_days');
      }
      const set = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { position_retention_days: 30 } });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().data.position_retention_days).toBe(30);
    });
  });
});

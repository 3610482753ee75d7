import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { visitFacts } from '../../src/domains/visits/visit-facts';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { checkInBody, checkOutBody, createNoSaleReason, createOutlet, northOfOutlet, OUTLET_AT, visitCount } from '../helpers/visit-fixtures';

type Credential = { token?: string; apiKey?: string };

/** Visits over REST: check-in, check-out, abandon, geo-verification, outcomes, the list. */
describe('visits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const checkIn = (who: Credential, payload: unknown) => t.request({ method: 'POST', url: '/api/v1/visits/check-in', ...who, payload: payload as Record<string, unknown> });
  const checkOut = (who: Credential, id: number, payload: unknown) => t.request({ method: 'POST', url: `/api/v1/visits/${id}/check-out`, ...who, payload: payload as Record<string, unknown> });
  const abandon = (who: Credential, id: number) => t.request({ method: 'POST', url: `/api/v1/visits/${id}/abandon`, ...who });
  const get = (who: Credential, id: number) => t.request({ method: 'GET', url: `/api/v1/visits/${id}`, ...who });
  const list = (who: Credential, query = '') => t.request({ method: 'GET', url: `/api/v1/visits${query}`, ...who });

  /** A workspace with an employee and a tagged outlet. */
  async function field(): Promise<{ ws: Workspace; employee: Awaited<ReturnType<typeof createUser>>; outletId: number }> {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const outletId = await createOutlet(t, ws);
    return { ws, employee, outletId };
  }

  async function visitIn(who: Credential, outletId: number, minutesAgo = 10, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await checkIn(who, checkInBody(outletId, minutesAgo, extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  }

  describe('check-in', () => {
    it('creates a visit in progress with the distance from the outlet’s tag', async () => {
      const { ws, employee, outletId } = await field();
      const body = checkInBody(outletId, 10, { ...northOfOutlet(50), accuracy_m: 12.5, is_mock: false });
      const res = await checkIn({ token: employee.token }, body);
      expect(res.statusCode, res.body).toBe(201);
      const visit = res.json().data;
      expect(visit).toMatchObject({
        client_ref: body.client_ref,
        user_id: employee.id,
        outlet_id: outletId,
        status: 2,
        check_in_device_time: body.device_time,
        check_in_accuracy_m: 12.5,
        check_in_is_mock: false,
        check_out_at: null,
        geo_verified: null,
        outcome: null,
      });
      expect(visit.distance_from_outlet_m).toBeCloseTo(50, 0);
      expect(visit.visit_date).toBe(body.device_time.slice(0, 10)); // the workspace's zone is UTC
      expect((await get({ token: employee.token }, visit.id)).json().data).toEqual(visit);
      expect(await visitCount(t, ws)).toBe(1);
    });

    it('answers the first visit again for a re-sent client_ref, whatever the body, never a second', async () => {
      const { ws, employee, outletId } = await field();
      const other = await createOutlet(t, ws);
      const body = checkInBody(outletId);
      const first = await checkIn({ token: employee.token }, body);
      expect(first.statusCode).toBe(201);
      const again = await checkIn({ token: employee.token }, { ...body, outlet_id: other, latitude: 10, client_ref: body.client_ref.toUpperCase() });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toEqual(first.json().data);
      // Even once checked out: the same visit, not a new one.
      expect((await checkOut({ token: employee.token }, first.json().data.id, checkOutBody())).statusCode).toBe(200);
      const later = await checkIn({ token: employee.token }, body);
      expect(later.statusCode).toBe(200);
      expect(later.json().data).toMatchObject({ id: first.json().data.id, status: 3 });
      expect(await visitCount(t, ws)).toBe(1);
      // Another user's client_ref is a conflict, not their visit.
      const colleague = await createUser(t, ws, UserType.EMPLOYEE);
      const stolen = await checkIn({ token: colleague.token }, body);
      expect(stolen.statusCode).toBe(409);
      expect(stolen.json().data).toBeUndefined();
      expect(await visitCount(t, ws)).toBe(1);
    });

    it('answers concurrent re-sends of one client_ref with one visit', async () => {
      const { ws, employee, outletId } = await field();
      const body = checkInBody(outletId);
      const answers = await Promise.all(Array.from({ length: 6 }, () => checkIn({ token: employee.token }, body)));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.json().data.id)).size).toBe(1);
      expect(await visitCount(t, ws)).toBe(1);
    });

    it('keeps one visit in progress per employee: 409 naming it, also when check-ins race', async () => {
      const { ws, employee, outletId } = await field();
      const open = await visitIn({ token: employee.token }, outletId);
      const second = await checkIn({ token: employee.token }, checkInBody(outletId));
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toMatch(new RegExp(`^Visit ${open} \\(outlet Outlet \\d+\\) is still in progress`));
      expect(await visitCount(t, ws)).toBe(1);

      const racer = await createUser(t, ws, UserType.EMPLOYEE);
      const answers = await Promise.all(Array.from({ length: 6 }, () => checkIn({ token: racer.token }, checkInBody(outletId))));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const winner = answers.find((r) => r.statusCode === 201)!.json().data.id;
      for (const lost of answers.filter((r) => r.statusCode === 409)) expect(lost.json().message).toMatch(new RegExp(`^Visit ${winner} `));
      expect(await visitCount(t, ws)).toBe(2);

      // Once checked out (or abandoned), the next visit may start.
      expect((await checkOut({ token: employee.token }, open, checkOutBody())).statusCode).toBe(200);
      await visitIn({ token: employee.token }, outletId);
    });

    it('refuses bad fields with a 400 naming them, and stores nothing', async () => {
      const { ws, employee, outletId } = await field();
      const otherWs = await createWorkspace(t);
      const foreignOutlet = await createOutlet(t, otherWs);
      const inactive = await createOutlet(t, ws);
      expect((await t.request({ method: 'DELETE', url: `/api/v1/masters/outlets/${inactive}`, token: ws.token })).statusCode).toBe(200);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ client_ref: 'not-a-uuid' }, 'client_ref'],
        [{ client_ref: undefined }, 'client_ref'],
        [{ outlet_id: undefined }, 'outlet_id'],
        [{ outlet_id: foreignOutlet }, 'outlet_id'],
        [{ outlet_id: inactive }, 'outlet_id'],
        [{ outlet_id: 99_999_999 }, 'outlet_id'],
        [{ device_time: 'yesterday' }, 'device_time'],
        [{ device_time: new Date(Date.now() + 3_600_000).toISOString() }, 'device_time'],
        [{ latitude: 91 }, 'latitude'],
        [{ longitude: undefined }, 'longitude'],
        [{ accuracy_m: -1 }, 'accuracy_m'],
        [{ is_mock: 'yes' }, 'is_mock'],
      ];
      for (const [change, fieldName] of cases) {
        const res = await checkIn({ token: employee.token }, { ...checkInBody(outletId), ...change });
        expect(res.statusCode, `${fieldName}: ${res.body}`).toBe(400);
        expect(res.json().errors[0].field).toBe(fieldName);
      }
      expect(await visitCount(t, ws)).toBe(0);
    });
  });

  describe('check-out', () => {
    it('completes the visit with its dwell and outcome; a second check-out or an abandon is 409', async () => {
      const { ws, employee, outletId } = await field();
      const id = await visitIn({ token: employee.token }, outletId, 10);
      const res = await checkOut({ token: employee.token }, id, checkOutBody({ accuracy_m: 5, remarks: '  Owner away  ' }));
      expect(res.statusCode, res.body).toBe(200);
      const done = res.json().data;
      expect(done).toMatchObject({ status: 3, outcome: 3, check_out_accuracy_m: 5, remarks: 'Owner away', geo_verified: true, radius_m: 100, min_dwell_minutes: 2 });
      expect(done.dwell_seconds).toBeGreaterThanOrEqual(599);
      expect(done.dwell_seconds).toBeLessThanOrEqual(601);
      const again = await checkOut({ token: employee.token }, id, checkOutBody({ outcome: 4 }));
      expect(again.json()).toEqual({ response_code: 409, message: `Visit ${id} is completed, not in progress` });
      expect((await abandon({ token: employee.token }, id)).statusCode).toBe(409);
      expect((await get({ token: ws.token }, id)).json().data).toEqual(done);
    });

    it('abandons a visit in progress (its visitor or an admin); then check-out is 409', async () => {
      const { ws, employee, outletId } = await field();
      const id = await visitIn({ token: employee.token }, outletId);
      const res = await abandon({ token: ws.token }, id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ status: 4, check_out_at: null, geo_verified: null });
      expect((await checkOut({ token: employee.token }, id, checkOutBody())).json()).toEqual({ response_code: 409, message: `Visit ${id} is abandoned, not in progress` });
      expect((await abandon({ token: employee.token }, id)).statusCode).toBe(409);
      const own = await visitIn({ token: employee.token }, outletId);
      expect((await abandon({ token: employee.token }, own)).statusCode).toBe(200);
    });

    it('geo-verifies within the radius and the minimum dwell; not outside, not short, not untagged', async () => {
      const { ws, employee, outletId } = await field();
      const untagged = await createOutlet(t, ws, { tagged: false });
      const visitAndOut = async (outlet: number, minutesAgo: number, at: { latitude: number; longitude: number }) => {
        const inRes = await checkIn({ token: employee.token }, checkInBody(outlet, minutesAgo, at));
        expect(inRes.statusCode, inRes.body).toBe(201);
        const out = await checkOut({ token: employee.token }, inRes.json().data.id, checkOutBody());
        expect(out.statusCode, out.body).toBe(200);
        return out.json().data;
      };
      const within = await visitAndOut(outletId, 5, northOfOutlet(80));
      expect(within.distance_from_outlet_m).toBeCloseTo(80, 0);
      expect(within.geo_verified).toBe(true);
      const outside = await visitAndOut(outletId, 5, northOfOutlet(150));
      expect(outside.distance_from_outlet_m).toBeCloseTo(150, 0);
      expect(outside.geo_verified).toBe(false);
      const short = await visitAndOut(outletId, 1, OUTLET_AT); // 60 s < 2 minutes
      expect(short).toMatchObject({ distance_from_outlet_m: 0, geo_verified: false, dwell_seconds: 60 });
      const noTag = await visitAndOut(untagged, 30, OUTLET_AT);
      expect(noTag).toMatchObject({ distance_from_outlet_m: null, geo_verified: false, radius_m: 100 });
      // A mocked location, reported at check-in or at check-out, is never verified.
      const mockedIn = await checkIn({ token: employee.token }, checkInBody(outletId, 5, { ...OUTLET_AT, is_mock: true }));
      expect(mockedIn.statusCode, mockedIn.body).toBe(201);
      const mockedInOut = await checkOut({ token: employee.token }, mockedIn.json().data.id, checkOutBody());
      expect(mockedInOut.json().data).toMatchObject({ distance_from_outlet_m: 0, check_in_is_mock: true, geo_verified: false });
      const honestIn = await checkIn({ token: employee.token }, checkInBody(outletId, 5));
      const mockedOut = await checkOut({ token: employee.token }, honestIn.json().data.id, checkOutBody({ is_mock: true }));
      expect(mockedOut.json().data).toMatchObject({ check_out_is_mock: true, geo_verified: false });

      // The workspace's settings decide, and are stored with the visit.
      const set = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { visit_radius_m: 200, visit_min_dwell_minutes: 0 } });
      expect(set.statusCode, set.body).toBe(200);
      expect(await visitAndOut(outletId, 5, northOfOutlet(150))).toMatchObject({ geo_verified: true, radius_m: 200, min_dwell_minutes: 0 });
      expect(await visitAndOut(outletId, 0, OUTLET_AT)).toMatchObject({ geo_verified: true });
      // Earlier visits keep what they were decided with.
      expect((await get({ token: ws.token }, outside.id)).json().data).toMatchObject({ geo_verified: false, radius_m: 100 });
    });

    it('checks the outcome: a 400 naming the field, and the visit stays in progress', async () => {
      const { ws, employee, outletId } = await field();
      const catalog = await seedCatalog(t, ws);
      const items = [{ product_variant_id: catalog.variantIds[0], quantity: 1 }];
      const ownOrder = (await placeOrder(t, employee.token, { user_id: catalog.retailerId, items })).id;
      const adminsOrder = (await placeOrder(t, ws.token, { user_id: catalog.retailerId, items })).id;
      const cancelled = (await placeOrder(t, employee.token, { user_id: catalog.retailerId, items })).id;
      expect((await t.request({ method: 'POST', url: `/api/v1/orders/${cancelled}/cancel`, token: ws.token, payload: { reason: 'Test' } })).statusCode).toBe(200);
      const reason = await createNoSaleReason(t, ws);
      const retired = await createNoSaleReason(t, ws);
      expect((await t.request({ method: 'DELETE', url: `/api/v1/masters/no-sale-reasons/${retired}`, token: ws.token })).statusCode).toBe(200);
      const otherWs = await createWorkspace(t);
      const foreignReason = await createNoSaleReason(t, otherWs);

      const id = await visitIn({ token: employee.token }, outletId);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ outcome: undefined }, 'outcome'],
        [{ outcome: 5 }, 'outcome'],
        [{ outcome: 1 }, 'order_id'],
        [{ outcome: 1, order_id: adminsOrder }, 'order_id'],
        [{ outcome: 1, order_id: cancelled }, 'order_id'],
        [{ outcome: 1, order_id: 99_999_999 }, 'order_id'],
        [{ outcome: 3, order_id: ownOrder }, 'order_id'],
        [{ outcome: 2 }, 'no_sale_reason_id'],
        [{ outcome: 2, no_sale_reason_id: retired }, 'no_sale_reason_id'],
        [{ outcome: 2, no_sale_reason_id: foreignReason }, 'no_sale_reason_id'],
        [{ outcome: 4, no_sale_reason_id: reason }, 'no_sale_reason_id'],
        [{ remarks: 'x'.repeat(501) }, 'remarks'],
        [{ device_time: new Date(Date.now() - 3_600_000).toISOString() }, 'device_time'], // before the check-in
        [{ latitude: undefined }, 'latitude'],
      ];
      for (const [change, fieldName] of cases) {
        const res = await checkOut({ token: employee.token }, id, { ...checkOutBody(), ...change });
        expect(res.statusCode, `${fieldName}: ${res.body}`).toBe(400);
        expect(res.json().errors[0].field).toBe(fieldName);
      }
      expect((await get({ token: employee.token }, id)).json().data).toMatchObject({ status: 2, outcome: null, check_out_at: null });

      const ordered = await checkOut({ token: employee.token }, id, checkOutBody({ outcome: 1, order_id: ownOrder }));
      expect(ordered.json().data).toMatchObject({ status: 3, outcome: 1, order_id: ownOrder, no_sale_reason_id: null });
      const next = await visitIn({ token: employee.token }, outletId);
      // An order is the outcome of one visit only (it would count twice as a productive call): 409, the visit stays open.
      const twice = await checkOut({ token: employee.token }, next, checkOutBody({ outcome: 1, order_id: ownOrder }));
      expect(twice.statusCode, twice.body).toBe(409);
      expect(twice.json().message).toBe(`Order ${ownOrder} is already the outcome of visit ${id}`);
      expect((await get({ token: employee.token }, next)).json().data).toMatchObject({ status: 2, order_id: null });
      const noSale = await checkOut({ token: employee.token }, next, checkOutBody({ outcome: 2, no_sale_reason_id: reason }));
      expect(noSale.json().data).toMatchObject({ outcome: 2, no_sale_reason_id: reason, order_id: null });
      // Deactivating a reason that visits name is not blocked.
      expect((await t.request({ method: 'DELETE', url: `/api/v1/masters/no-sale-reasons/${reason}`, token: ws.token })).statusCode).toBe(200);
      expect((await get({ token: employee.token }, next)).json().data.no_sale_reason_id).toBe(reason);
    });
  });

  describe('the list', () => {
    it('filters by user, outlet, date, status and outcome, sorts, and shows employees their own', async () => {
      const { ws, employee: a, outletId } = await field();
      const b = await createUser(t, ws, UserType.EMPLOYEE);
      const otherOutlet = await createOutlet(t, ws);
      const a1 = await visitIn({ token: a.token }, outletId, 30);
      expect((await checkOut({ token: a.token }, a1, checkOutBody({ outcome: 4 }))).statusCode).toBe(200);
      const a2 = await visitIn({ token: a.token }, otherOutlet, 5);
      const b1 = await visitIn({ token: b.token }, outletId, 20);
      const ids = async (who: Credential, query = '') => {
        const res = await list(who, query);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.map((v: { id: number }) => v.id);
      };
      // Newest check-in (the server's time) first.
      expect(await ids({ token: ws.token })).toEqual([b1, a2, a1]);
      expect(await ids({ token: ws.token }, '?sort=check_in_at')).toEqual([a1, a2, b1]);
      expect(await ids({ token: ws.token }, `?user_id=${a.id}`)).toEqual([a2, a1]);
      expect(await ids({ token: ws.token }, `?outlet_id=${outletId}`)).toEqual([b1, a1]);
      expect(await ids({ token: ws.token }, '?status=2')).toEqual([b1, a2]);
      expect(await ids({ token: ws.token }, '?status=1')).toEqual([]);
      expect(await ids({ token: ws.token }, '?outcome=4')).toEqual([a1]);
      // The local day of the device's check-in time (not the server's today: a run just after midnight differs).
      const day = (await get({ token: ws.token }, a2)).json().data.visit_date;
      expect(await ids({ token: ws.token }, `?date=${day}`)).toContain(a2);
      expect(await ids({ token: ws.token }, '?date=2001-01-01')).toEqual([]);
      for (const bad of ['?status=5', '?outcome=0', '?sort=outlet', '?date=2026-13-01', '?user_id=x']) expect((await list({ token: ws.token }, bad)).statusCode, bad).toBe(400);

      expect(await ids({ token: a.token })).toEqual([a2, a1]);
      expect((await list({ token: a.token }, `?user_id=${b.id}`)).statusCode).toBe(403);
      expect((await get({ token: a.token }, b1)).statusCode).toBe(404);
      const key = await createApiKey(t, ws, { scopes: 'read,visits' });
      expect(await ids({ apiKey: key.key })).toEqual([b1, a2, a1]);
    });
  });

  describe('roles and workspaces', () => {
    it('refuses customers and API keys on writes; employees reach only their own visits', async () => {
      const { ws, employee, outletId } = await field();
      const retailer = await createUser(t, ws, UserType.RETAILER);
      expect((await checkIn({ token: retailer.token }, checkInBody(outletId))).json()).toEqual({ response_code: 403, message: 'Only employees and admins make visits' });
      expect((await list({ token: retailer.token })).statusCode).toBe(403);
      const key = await createApiKey(t, ws, { scopes: 'write,visits' });
      expect((await checkIn({ apiKey: key.key }, checkInBody(outletId))).json()).toEqual({ response_code: 403, message: 'This operation needs a signed-in user session' });
      expect(await visitCount(t, ws)).toBe(0);

      // Admins check themselves in too.
      const adminVisit = await visitIn({ token: ws.token }, outletId);
      const id = await visitIn({ token: employee.token }, outletId);
      const colleague = await createUser(t, ws, UserType.EMPLOYEE);
      expect((await checkOut({ token: colleague.token }, id, checkOutBody())).statusCode).toBe(404);
      expect((await abandon({ token: colleague.token }, id)).statusCode).toBe(404);
      expect((await checkOut({ token: ws.token }, id, checkOutBody())).json()).toEqual({ response_code: 403, message: 'Only the visiting user checks a visit out' });
      expect((await checkOut({ token: retailer.token }, id, checkOutBody())).statusCode).toBe(403);
      expect((await get({ token: employee.token }, adminVisit)).statusCode).toBe(404);
      expect((await get({ token: employee.token }, id)).json().data.status).toBe(2);
    });

    it('answers 404 for another workspace’s visit and changes nothing', async () => {
      const { employee, outletId } = await field();
      const id = await visitIn({ token: employee.token }, outletId);
      const other = await field();
      expect((await get({ token: other.ws.token }, id)).statusCode).toBe(404);
      expect((await checkOut({ token: other.employee.token }, id, checkOutBody())).statusCode).toBe(404);
      expect((await abandon({ token: other.ws.token }, id)).statusCode).toBe(404);
      expect((await list({ token: other.ws.token })).json().pagination.total).toBe(0);
      // The other workspace's outlet is not one to check in on, and its client_refs are its own.
      const body = checkInBody(other.outletId);
      expect((await checkIn({ token: employee.token }, body)).json().errors[0].field).toBe('outlet_id');
      expect((await checkIn({ token: other.employee.token }, body)).statusCode).toBe(201);
      expect((await get({ token: employee.token }, id)).json().data.status).toBe(2);
    });
  });

  describe('visitFacts', () => {
    it('reads a workspace’s visits of a day range, by user, in one statement, never another workspace’s', async () => {
      const { ws, employee: a, outletId } = await field();
      const b = await createUser(t, ws, UserType.EMPLOYEE);
      const reason = await createNoSaleReason(t, ws);
      const a1 = await visitIn({ token: a.token }, outletId, 10);
      expect((await checkOut({ token: a.token }, a1, checkOutBody({ outcome: 2, no_sale_reason_id: reason }))).statusCode).toBe(200);
      const b1 = await visitIn({ token: b.token }, outletId, 5);
      const other = await field();
      await visitIn({ token: other.employee.token }, other.outletId);
      // Device times a few minutes ago: just after midnight they fall on yesterday, so the range spans both.
      const today = new Date().toISOString().slice(0, 10);
      const visitDate = (await get({ token: ws.token }, a1)).json().data.visit_date;
      const em = t.orm.em.fork();
      t.queries.reset();
      const facts = await visitFacts(em, ws.organizationId, null, shiftDay(today, -1), today);
      expect(t.queries.count).toBe(1);
      expect(facts.map((f) => f.visitId).sort()).toEqual([a1, b1].sort());
      expect(facts.find((f) => f.visitId === a1)).toEqual({
        visitId: a1,
        userId: a.id,
        outletId,
        visitDate,
        status: 3,
        outcome: 2,
        orderId: null,
        geoVerified: true,
        checkInAt: expect.any(Date),
        checkOutAt: expect.any(Date),
        noSaleReasonId: reason,
      });
      expect(facts.find((f) => f.visitId === b1)).toMatchObject({ userId: b.id, status: 2, outcome: null, geoVerified: null, checkOutAt: null });
      expect((await visitFacts(em, ws.organizationId, [b.id], shiftDay(today, -1), today)).map((f) => f.visitId)).toEqual([b1]);
      expect(await visitFacts(em, ws.organizationId, [], today, today)).toEqual([]);
      expect(await visitFacts(em, ws.organizationId, null, '2001-01-01', '2001-01-31')).toEqual([]);
    });
  });

  describe('no-sale reasons master and workspace settings', () => {
    it('manages no-sale reasons like other masters', async () => {
      const ws = await createWorkspace(t);
      const created = await t.request({ method: 'POST', url: '/api/v1/masters/no-sale-reasons', token: ws.token, payload: { no_sale_reason: 'Stock sufficient' } });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toEqual({ id: expect.any(Number), no_sale_reason: 'Stock sufficient', status: 1, createdAt: expect.any(String) });
      const id = created.json().data.id;
      expect((await t.request({ method: 'POST', url: '/api/v1/masters/no-sale-reasons', token: ws.token, payload: { no_sale_reason: 'Stock sufficient' } })).statusCode).toBe(409);
      expect((await t.request({ method: 'POST', url: '/api/v1/masters/no-sale-reasons', token: ws.token, payload: { no_sale_reason: '' } })).json().errors[0].field).toBe('no_sale_reason');
      const renamed = await t.request({ method: 'PUT', url: `/api/v1/masters/no-sale-reasons/${id}`, token: ws.token, payload: { no_sale_reason: 'Shop closed' } });
      expect(renamed.json().data.no_sale_reason).toBe('Shop closed');
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      expect((await t.request({ method: 'POST', url: '/api/v1/masters/no-sale-reasons', token: employee.token, payload: { no_sale_reason: 'x' } })).statusCode).toBe(403);
      const listed = await t.request({ method: 'GET', url: '/api/v1/masters/no-sale-reasons', token: employee.token });
      expect(listed.json().data.map((r: { no_sale_reason: string }) => r.no_sale_reason)).toEqual(['Shop closed']);
      expect((await t.request({ method: 'DELETE', url: `/api/v1/masters/no-sale-reasons/${id}`, token: ws.token })).json().data.status).toBe(0);
    });

    it('sets the visit radius (10–5000 m) and minimum dwell (0–240 minutes)', async () => {
      const ws = await createWorkspace(t);
      const { config } = (await t.request({ method: 'GET', url: '/api/v1/workspace/config', token: ws.token })).json().data;
      expect(config).toMatchObject({ visit_radius_m: 100, visit_min_dwell_minutes: 2 });
      for (const [fieldName, bad] of [['visit_radius_m', 9], ['visit_radius_m', 5001], ['visit_min_dwell_minutes', -1], ['visit_min_dwell_minutes', 241], ['visit_radius_m', 50.5]] as const) {
        const res = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { [fieldName]: bad } });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[0].field).toBe(fieldName);
      }
      const set = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { visit_radius_m: 5000, visit_min_dwell_minutes: 0 } });
      expect(set.json().data).toMatchObject({ visit_radius_m: 5000, visit_min_dwell_minutes: 0 });
    });
  });
});

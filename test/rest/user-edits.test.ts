import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, unique, uniquePhone, type Catalog, type Workspace } from '../helpers/fixtures';
import { errorEnvelope } from '../helpers/envelope';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Users after create: the list's role/town/route filters, PUT /users/{id} (with the user_type rule),
 * PATCH /users/{id}/status (sessions, last admin, user limit) and POST /users/{id}/password-reset.
 */

type Body = Record<string, unknown>;
type Method = 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE';
const PASSWORD = 'password123';

describe('REST user edits', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let cat: Catalog;
  let key: string;
  let employee: { id: number; token: string };
  let otherEmployeeId: number;
  let place: { townId: number; routeId: number; town2Id: number; route2Id: number; otherTownId: number; otherRouteId: number };

  const req = (method: Method, url: string, payload?: Body, token: string = ws.token) => t.request({ method, url: `/api/v1${url}`, token, payload });
  const byKey = (method: Method, url: string, payload?: Body, apiKey = key) => t.request({ method, url: `/api/v1${url}`, apiKey, payload });
  const read = async (id: number): Promise<Body> => {
    const res = await req('GET', `/users/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const sql = async <R>(query: string, params: unknown[] = []) => (await t.orm.em.fork().getConnection().execute(query, params)) as unknown as R[];
  const expectError = (res: { statusCode: number; body: string; json(): unknown }, status: number, message: string | RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual(errorEnvelope(status, typeof message === 'string' ? message : expect.stringMatching(message)));
  };
  const login = (email: string, password = PASSWORD) =>
    t.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password, challenge_token: 'x' } });
  const me = (token: string) => t.request({ method: 'GET', url: '/api/v1/auth/me', token });

  async function newPlace(owner: Workspace) {
    const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: owner.token, payload: { town_name: `Town ${unique()}` } });
    expect(town.statusCode, town.body).toBe(201);
    const route = await t.request({ method: 'POST', url: '/api/v1/masters/routes', token: owner.token, payload: { route_name: `Route ${unique()}`, town_id: town.json().data.id } });
    expect(route.statusCode, route.body).toBe(201);
    return { townId: town.json().data.id as number, routeId: route.json().data.id as number };
  }

  beforeAll(async () => {
    t = await buildTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' });
    ws = await createWorkspace(t, 'User Edits Dairy');
    other = await createWorkspace(t, 'Other User Edits Dairy');
    cat = await seedCatalog(t, ws);
    key = (await createApiKey(t, ws, { scopes: 'read,write' })).key;
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    otherEmployeeId = (await createUser(t, other, UserType.EMPLOYEE)).id;
    const [a, b, o] = [await newPlace(ws), await newPlace(ws), await newPlace(other)];
    place = { ...a, town2Id: b.townId, route2Id: b.routeId, otherTownId: o.townId, otherRouteId: o.routeId };
  });
  afterAll(() => t.close());

  describe('GET /users filters', () => {
    it('role_id, town_id and route_id narrow the list; each must name a record of the workspace (400 naming it)', async () => {
      const inRoute = await createUser(t, ws, UserType.RETAILER, { town_id: place.town2Id, route_id: place.route2Id });
      const inTown = await createUser(t, ws, UserType.DISTRIBUTOR, { town_id: place.town2Id });
      const ids = async (query: string) => {
        const res = await req('GET', `/users?limit=100&${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.map((u: Body) => u.id).sort();
      };
      expect(await ids(`town_id=${place.town2Id}`)).toEqual([inRoute.id, inTown.id].sort());
      expect(await ids(`route_id=${place.route2Id}`)).toEqual([inRoute.id]);
      expect(await ids(`town_id=${place.town2Id}&role_id=${ws.roles.Distributor}`)).toEqual([inTown.id]);
      const retailers = (await sql<{ id: number }>('select id from app_user where organization_id = ? and role_id = ?', [ws.organizationId, ws.roles.Retailer])).map((r) => r.id);
      expect(await ids(`role_id=${ws.roles.Retailer}`)).toEqual(retailers.sort());

      expectError(await req('GET', `/users?role_id=${other.roles.Admin}`), 400, 'role_id does not name a record of this workspace');
      expectError(await req('GET', `/users?town_id=${place.otherTownId}`), 400, 'town_id does not name a record of this workspace');
      expectError(await req('GET', `/users?route_id=${place.otherRouteId}`), 400, 'route_id does not name a record of this workspace');
      expectError(await req('GET', '/users?route_id=999999999'), 400, /^route_id /);
      expectError(await req('GET', '/users?town_id=abc'), 400, /town_id/);
    });
  });

  describe('PUT /users/{id}', () => {
    it('changes the given fields and keeps the others; the answer is what GET shows', async () => {
      const u = await createUser(t, ws, UserType.DISTRIBUTOR);
      const before = await read(u.id);
      const n = unique();
      const res = await req('PUT', `/users/${u.id}`, {
        first_name: 'Meera',
        official_email: `Meera.${n}@Example.test`,
        store_name: `Meera Stores ${n}`,
        town_id: place.townId,
        route_id: place.routeId,
        user_type: UserType.RETAILER,
        role_id: ws.roles.Retailer,
      });
      expect(res.statusCode, res.body).toBe(200);
      const { role: _role, organization: _organization, ...listed } = await read(u.id);
      expect(res.json()).toEqual({
        response_code: 200,
        message: 'User updated',
        data: {
          ...listed,
          first_name: 'Meera',
          last_name: before.last_name,
          official_email: `meera.${n}@example.test`,
          primary_contact_number: before.primary_contact_number,
          store_name: `Meera Stores ${n}`,
          user_type: UserType.RETAILER,
          role_id: ws.roles.Retailer,
          role_name: 'Retailer',
          town_id: place.townId,
          route_id: place.routeId,
        },
      });
      // A route alone sets its town; null clears e-mail, shop name, town and route.
      const moved = await req('PUT', `/users/${u.id}`, { route_id: place.route2Id, town_id: place.town2Id });
      expect(moved.json().data).toMatchObject({ town_id: place.town2Id, route_id: place.route2Id, first_name: 'Meera' });
      const cleared = await req('PUT', `/users/${u.id}`, { official_email: null, store_name: null, town_id: null, route_id: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().data).toMatchObject({ official_email: null, store_name: null, town_id: null, route_id: null, first_name: 'Meera' });
      const empty = await req('PUT', `/users/${u.id}`, {});
      expect(empty.statusCode).toBe(200);
      expect(empty.json().data).toEqual(cleared.json().data);
    });

    it.each([
      ['blank first_name', { first_name: '   ' }, 'first_name is required'],
      ['bad official_email', { official_email: 'not-an-email' }, 'official_email must be a valid e-mail address'],
      ['bad primary_contact_number', { primary_contact_number: '12' }, /^primary_contact_number must be a phone number/],
      ['unknown user_type', { user_type: 7 }, /user_type/],
      ['role of another workspace', { role_id: 0 }, /role_id/],
      ['store_name on an employee', { store_name: 'Shop' }, 'store_name is only for distributors and retailers'],
      ['unknown property', { password: 'new-password-1' }, /password/],
    ])('%s → 400 naming the field, nothing changed', async (_name, body, message) => {
      const before = await read(employee.id);
      expectError(await req('PUT', `/users/${employee.id}`, { last_name: 'Would change', ...body }), 400, message);
      expect(await read(employee.id)).toEqual(before);
    });

    it('role, town and route must be the workspace’s and agree (400 naming the field), nothing changed', async () => {
      const u = await createUser(t, ws, UserType.DISTRIBUTOR, { town_id: place.townId, route_id: place.routeId });
      const before = await read(u.id);
      const put = (body: Body) => req('PUT', `/users/${u.id}`, { first_name: 'Would change', ...body });
      expectError(await put({ role_id: other.roles.Distributor }), 400, 'role_id does not name an active role of this workspace');
      expectError(await put({ town_id: place.otherTownId }), 400, 'town_id does not name a town of this workspace');
      expectError(await put({ route_id: place.otherRouteId }), 400, 'route_id does not name a route of this workspace');
      expectError(await put({ town_id: place.town2Id }), 400, 'route_id is not a route of the given town');
      expectError(await put({ town_id: null }), 400, 'town_id cannot be cleared while the user keeps a route; clear route_id too');
      expect(await read(u.id)).toEqual(before);
    });

    it('an inactive town or route takes no new users (400 naming it); a user already there may be saved with it unchanged', async () => {
      const fresh = await newPlace(ws);
      const u = await createUser(t, ws, UserType.RETAILER, { town_id: fresh.townId, route_id: fresh.routeId });
      await sql('update route set status = 0 where id = ?', [fresh.routeId]);
      await sql('update town set status = 0 where id = ?', [fresh.townId]);
      const created = await req('POST', '/users', {
        first_name: 'New',
        last_name: 'Comer',
        primary_contact_number: uniquePhone(),
        password: PASSWORD,
        role_id: ws.roles.Retailer,
        user_type: 3,
        town_id: fresh.townId,
      });
      expectError(created, 400, 'town_id names an inactive town');
      const moved = await req('PUT', `/users/${employee.id}`, { town_id: fresh.townId });
      expectError(moved, 400, 'town_id names an inactive town');
      const unchanged = await req('PUT', `/users/${u.id}`, { first_name: 'Kept', town_id: fresh.townId, route_id: fresh.routeId });
      expect(unchanged.statusCode, unchanged.body).toBe(200);
      expect(unchanged.json().data).toMatchObject({ first_name: 'Kept', town_id: fresh.townId, route_id: fresh.routeId });
    });

    it('e-mail and phone stay unique (409, any workspace, any case); the user’s own are no conflict', async () => {
      const u = await createUser(t, ws, UserType.EMPLOYEE);
      const taken = await read(employee.id);
      const [otherUser] = await sql<{ official_email: string; primary_contact_number: string }>('select official_email, primary_contact_number from app_user where id = ?', [otherEmployeeId]);
      const before = await read(u.id);
      expectError(await req('PUT', `/users/${u.id}`, { first_name: 'X', official_email: String(taken.official_email).toUpperCase() }), 409, 'A user with this e-mail address already exists');
      expectError(await req('PUT', `/users/${u.id}`, { first_name: 'X', primary_contact_number: taken.primary_contact_number }), 409, 'A user with this phone number already exists');
      expectError(await req('PUT', `/users/${u.id}`, { official_email: otherUser.official_email }), 409, 'A user with this e-mail address already exists');
      expectError(await req('PUT', `/users/${u.id}`, { primary_contact_number: otherUser.primary_contact_number }), 409, 'A user with this phone number already exists');
      expect(await read(u.id)).toEqual(before);
      const same = await req('PUT', `/users/${u.id}`, { official_email: String(before.official_email).toUpperCase(), primary_contact_number: before.primary_contact_number, first_name: 'Kept' });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json().data).toMatchObject({ official_email: before.official_email, primary_contact_number: before.primary_contact_number, first_name: 'Kept' });
      const phone = uniquePhone();
      expect((await req('PUT', `/users/${u.id}`, { primary_contact_number: phone })).json().data.primary_contact_number).toBe(phone);
    });

    it('another workspace’s user → 404; employees and customers → 403; nothing changed', async () => {
      expectError(await req('PUT', `/users/${otherEmployeeId}`, { first_name: 'Intruder' }), 404, /not found/i);
      expectError(await req('PUT', '/users/999999999', { first_name: 'Nobody' }), 404, /not found/i);
      const before = await read(employee.id);
      expectError(await req('PUT', `/users/${employee.id}`, { first_name: 'Self' }, employee.token), 403, 'Only workspace administrators may do this');
      expectError(await req('PUT', `/users/${employee.id}`, { first_name: 'Cust' }, cat.distributorToken), 403, /administrators/);
      expect(await read(employee.id)).toEqual(before);
      const [row] = await sql<{ first_name: string }>('select first_name from app_user where id = ?', [otherEmployeeId]);
      expect(row.first_name).not.toBe('Intruder');
    });

    it('API keys may edit staff and customers, but not make an administrator nor change one (403)', async () => {
      const u = await createUser(t, ws, UserType.EMPLOYEE);
      const res = await byKey('PUT', `/users/${u.id}`, { last_name: 'ByKey' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.last_name).toBe('ByKey');
      expectError(await byKey('PUT', `/users/${u.id}`, { user_type: UserType.ADMIN }), 403, 'API keys cannot make a user an administrator; an administrator must do it signed in');
      const admin = await read(ws.adminId);
      expectError(await byKey('PUT', `/users/${ws.adminId}`, { official_email: `taken.over.${unique()}@example.test` }), 403, 'API keys cannot change an administrator; an administrator must do it signed in');
      expect(await read(ws.adminId)).toEqual(admin);
      expect((await read(u.id)).user_type).toBe(UserType.EMPLOYEE);
      expectError(await byKey('PUT', `/users/${otherEmployeeId}`, { last_name: 'x' }), 404, /not found/i);
    });

    it('emits user.updated (the fields it changed) to subscribed endpoints; a change that changes nothing emits nothing', async () => {
      const hook = await req('POST', '/developer/webhooks', { name: 'Users', url: 'https://127.0.0.1:9/users', events: ['user.updated'] });
      expect(hook.statusCode, hook.body).toBe(201);
      const u = await createUser(t, ws, UserType.EMPLOYEE);
      const deliveries = () =>
        sql<{ event_type: string; event_data: Body }>('select event_type, event_data from webhook_delivery where webhook_id = ? order by id', [hook.json().data.id]);
      expect(await deliveries(), 'user.created is not subscribed').toEqual([]);
      await req('PUT', `/users/${u.id}`, { first_name: 'Evented', last_name: 'Same' });
      await req('PUT', `/users/${u.id}`, { first_name: 'Evented' });
      await req('PATCH', `/users/${u.id}/status`, { status: 0 });
      const rows = await deliveries();
      expect(rows.map((r) => r.event_type)).toEqual(['user.updated', 'user.updated']);
      expect(rows[0].event_data).toEqual({
        id: u.id,
        first_name: 'Evented',
        last_name: 'Same',
        official_email: expect.any(String),
        primary_contact_number: expect.any(String),
        user_type: UserType.EMPLOYEE,
        role_id: ws.roles.Employee,
        status: 1,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        changed_fields: ['first_name', 'last_name'],
      });
      expect(rows[1].event_data).toMatchObject({ id: u.id, status: 0, changed_fields: ['status'] });
      await req('DELETE', `/developer/webhooks/${hook.json().data.id}`);
    });
  });

  describe('PUT /users/{id}: the user_type rule', () => {
    const order = (customerId: number, token = ws.token) => placeOrder(t, token, { user_id: customerId, items: [{ product_variant_id: cat.variantIds[0], quantity: 1 }] });

    it('a customer with orders stays a customer (409), may move between distributor and retailer', async () => {
      const d = await createUser(t, ws, UserType.DISTRIBUTOR);
      await order(d.id);
      const before = await read(d.id);
      expectError(
        await req('PUT', `/users/${d.id}`, { user_type: UserType.EMPLOYEE, role_id: ws.roles.Employee }),
        409,
        'This user has 1 order(s) as customer or placer, so they cannot change from a distributor to an employee; create a separate account instead',
      );
      expectError(await req('PUT', `/users/${d.id}`, { user_type: UserType.ADMIN }), 409, /cannot change from a distributor to an administrator/);
      expect(await read(d.id)).toEqual(before);
      const retailer = await req('PUT', `/users/${d.id}`, { user_type: UserType.RETAILER });
      expect(retailer.statusCode, retailer.body).toBe(200);
      expect(retailer.json().data).toMatchObject({ user_type: UserType.RETAILER, store_name: before.store_name });
    });

    it('staff who placed orders stay staff (409); a customer without orders may become staff and loses the shop name', async () => {
      const placer = await createUser(t, ws, UserType.EMPLOYEE);
      await order(cat.retailerId, placer.token);
      expectError(await req('PUT', `/users/${placer.id}`, { user_type: UserType.RETAILER }), 409, /has 1 order\(s\) as customer or placer, so they cannot change from an employee to a retailer/);
      expect((await read(placer.id)).user_type).toBe(UserType.EMPLOYEE);

      const fresh = await createUser(t, ws, UserType.DISTRIBUTOR);
      const res = await req('PUT', `/users/${fresh.id}`, { user_type: UserType.EMPLOYEE, role_id: ws.roles.Employee });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ user_type: UserType.EMPLOYEE, role_id: ws.roles.Employee });
      expect(res.json().data).not.toHaveProperty('store_name');
      const [row] = await sql<{ store_name: string | null }>('select store_name from app_user where id = ?', [fresh.id]);
      expect(row.store_name).toBeNull();
      const back = await req('PUT', `/users/${fresh.id}`, { user_type: UserType.DISTRIBUTOR, store_name: 'Back Again' });
      expect(back.json().data).toMatchObject({ user_type: UserType.DISTRIBUTOR, store_name: 'Back Again' });
    });

    it('an admin never becomes a customer; the last active admin stays admin (409); with another admin, demotion works', async () => {
      const w = await createWorkspace(t);
      expectError(await t.request({ method: 'PUT', url: `/api/v1/users/${w.adminId}`, token: w.token, payload: { user_type: UserType.DISTRIBUTOR } }), 409, 'An administrator cannot become a distributor; create a separate customer account instead');
      expectError(
        await t.request({ method: 'PUT', url: `/api/v1/users/${w.adminId}`, token: w.token, payload: { user_type: UserType.EMPLOYEE } }),
        409,
        "Cannot change the type of the workspace's last active administrator; make another user an administrator first",
      );
      const second = await createUser(t, w, UserType.ADMIN);
      expectError(await t.request({ method: 'PUT', url: `/api/v1/users/${second.id}`, token: w.token, payload: { user_type: UserType.RETAILER } }), 409, /An administrator cannot become a retailer/);
      const demoted = await t.request({ method: 'PUT', url: `/api/v1/users/${second.id}`, token: w.token, payload: { user_type: UserType.EMPLOYEE } });
      expect(demoted.statusCode, demoted.body).toBe(200);
      expect(demoted.json().data.user_type).toBe(UserType.EMPLOYEE);
      // The demotion applies to the demoted user's next request; promotion back is free.
      expectError(await t.request({ method: 'GET', url: '/api/v1/developer/api-keys', token: second.token }), 403, /administrators/);
      const promoted = await t.request({ method: 'PUT', url: `/api/v1/users/${second.id}`, token: w.token, payload: { user_type: UserType.ADMIN, role_id: w.roles.Admin } });
      expect(promoted.json().data).toMatchObject({ user_type: UserType.ADMIN, role_name: 'Admin' });
      expect((await t.request({ method: 'GET', url: '/api/v1/developer/api-keys', token: second.token })).statusCode).toBe(200);
    });
  });

  describe('PATCH /users/{id}/status', () => {
    it('deactivation ends the session at once and keeps the orders; reactivation lets the user sign in again', async () => {
      const d = await createUser(t, ws, UserType.DISTRIBUTOR);
      const placed = await placeOrder(t, d.token, { user_id: d.id, items: [{ product_variant_id: cat.variantIds[1], quantity: 2 }] });
      expect((await me(d.token)).statusCode).toBe(200);

      const off = await req('PATCH', `/users/${d.id}/status`, { status: 0 });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toMatchObject({ response_code: 200, message: 'User deactivated', data: { id: d.id, status: 0 } });
      expectError(await me(d.token), 401, 'Session has ended; sign in again');
      expectError(await login(String(d.body.official_email)), 403, 'This account is inactive; ask a workspace administrator to reactivate it');
      const kept = await req('GET', `/orders/${placed.id}`);
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json().data).toMatchObject({ id: placed.id, user_id: d.id });
      expect((await req('GET', `/users?status=0&limit=100`)).json().data.map((u: Body) => u.id)).toContain(d.id);

      const again = await req('PATCH', `/users/${d.id}/status`, { status: 0 });
      expect(again.statusCode, 'setting the status it has changes nothing').toBe(200);

      const on = await req('PATCH', `/users/${d.id}/status`, { status: 1 });
      expect(on.json()).toMatchObject({ response_code: 200, message: 'User activated', data: { id: d.id, status: 1 } });
      expectError(await me(d.token), 401, 'Session has ended; sign in again');
      const signedIn = await login(String(d.body.official_email));
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect((await me(signedIn.json().token)).statusCode).toBe(200);
    });

    it('the token of a user deactivated mid-session answers 401 on GraphQL too', async () => {
      const e = await createUser(t, ws, UserType.EMPLOYEE);
      expect((await t.graphql('{ me { id } }', {}, e.token)).statusCode).toBe(200);
      expect((await byKey('PATCH', `/users/${e.id}/status`, { status: 0 })).statusCode).toBe(200);
      const res = await t.graphql('{ me { id } }', {}, e.token);
      expect(res.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('an admin cannot deactivate themselves; nobody can deactivate the last active admin (409)', async () => {
      const w = await createWorkspace(t);
      const wKey = (await createApiKey(t, w, { scopes: 'read,write' })).key;
      const patch = (id: number, status: number, token = w.token) => t.request({ method: 'PATCH', url: `/api/v1/users/${id}/status`, token, payload: { status } });
      const keyPatch = (id: number, status: number) => t.request({ method: 'PATCH', url: `/api/v1/users/${id}/status`, apiKey: wKey, payload: { status } });
      expectError(await patch(w.adminId, 0), 409, 'You cannot deactivate your own account; another administrator can');
      expectError(await keyPatch(w.adminId, 0), 409, "Cannot deactivate the workspace's last active administrator; make another user an administrator first");

      const second = await createUser(t, w, UserType.ADMIN);
      const res = await patch(second.id, 0);
      expect(res.statusCode, res.body).toBe(200);
      expectError(await patch(w.adminId, 0), 409, /your own account/);
      expectError(await keyPatch(w.adminId, 0), 409, /last active administrator/);
      const [row] = await sql<{ status: number }>('select status from app_user where id = ?', [w.adminId]);
      expect(row.status).toBe(1);
      expect((await me(w.token)).statusCode).toBe(200);
    });

    it('concurrent deactivations of every admin: all but one pass, one active admin remains', async () => {
      const w = await createWorkspace(t);
      const wKey = (await createApiKey(t, w, { scopes: 'read,write' })).key;
      const admins = [w.adminId];
      for (let i = 0; i < 5; i += 1) admins.push((await createUser(t, w, UserType.ADMIN)).id);
      const answers = await Promise.all(
        admins.map((id) => t.request({ method: 'PATCH', url: `/api/v1/users/${id}/status`, apiKey: wKey, payload: { status: 0 } })),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 409]);
      const [row] = await sql<{ n: number }>('select count(*)::int as n from app_user where organization_id = ? and user_type = 0 and status = 1', [w.organizationId]);
      expect(row.n).toBe(1);
    });

    it('reactivation takes a seat of max_users (400 when full, nothing changed)', async () => {
      const w = await createWorkspace(t);
      const e = await createUser(t, w, UserType.EMPLOYEE);
      const patch = (id: number, status: number) => t.request({ method: 'PATCH', url: `/api/v1/users/${id}/status`, token: w.token, payload: { status } });
      expect((await patch(e.id, 0)).statusCode).toBe(200);
      await sql('update organization set max_users = 2 where id = ?', [w.organizationId]);
      await createUser(t, w, UserType.EMPLOYEE);
      expectError(await patch(e.id, 1), 400, 'This workspace has reached its limit of 2 active users');
      const [row] = await sql<{ status: number }>('select status from app_user where id = ?', [e.id]);
      expect(row.status).toBe(0);
      await sql('update organization set max_users = 3 where id = ?', [w.organizationId]);
      expect((await patch(e.id, 1)).statusCode).toBe(200);
    });

    it('bad status → 400 naming it; employees → 403; another workspace’s user → 404; nothing changed', async () => {
      expectError(await req('PATCH', `/users/${employee.id}/status`, { status: 2 }), 400, /^status /);
      expectError(await req('PATCH', `/users/${employee.id}/status`, {}), 400, /status/);
      expectError(await req('PATCH', `/users/${cat.retailerId}/status`, { status: 0 }, employee.token), 403, 'Only workspace administrators may do this');
      expectError(await req('PATCH', `/users/${otherEmployeeId}/status`, { status: 0 }), 404, /not found/i);
      expectError(await byKey('PATCH', `/users/${otherEmployeeId}/status`, { status: 0 }), 404, /not found/i);
      const rows = await sql<{ id: number; status: number }>('select id, status from app_user where id in (?, ?, ?)', [employee.id, cat.retailerId, otherEmployeeId]);
      expect(rows.map((r) => r.status)).toEqual([1, 1, 1]);
    });
  });

  describe('POST /users/{id}/password-reset', () => {
    it('e-mails the user a reset link (202), which sets a new password; the old one works until then', async () => {
      const e = await createUser(t, ws, UserType.EMPLOYEE);
      const email = String(e.body.official_email);
      const sentBefore = (await t.outbox()).length;
      const res = await req('POST', `/users/${e.id}/password-reset`);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toEqual({ response_code: 202, message: `A password reset link is being e-mailed to ${email}`, data: { user_id: e.id, sent_to: email } });
      const sent = (await t.outbox()).slice(sentBefore);
      expect(sent).toEqual([{ channel: 'email', to: email, subject: 'Reset your User Edits Dairy password', text: expect.stringContaining('/auth/set-password?token='), created_at: expect.any(String) }]);
      expect((await login(email)).statusCode, 'the reset sets no password').toBe(200);

      const token = /token=([A-Za-z0-9_-]+)/.exec(sent[0].text)![1];
      const set = await t.request({ method: 'POST', url: `/api/v1/auth/magic-link/set-password/${token}`, payload: { password: 'chosen-by-user-1' } });
      expect(set.statusCode, set.body).toBe(200);
      expect((await login(email)).statusCode).toBe(401);
      expect((await login(email, 'chosen-by-user-1')).statusCode).toBe(200);
    });

    it('API keys may send one too', async () => {
      const e = await createUser(t, ws, UserType.RETAILER);
      const sentBefore = (await t.outbox()).length;
      expect((await byKey('POST', `/users/${e.id}/password-reset`)).statusCode).toBe(202);
      expect((await t.outbox()).slice(sentBefore).map((m) => m.to)).toEqual([e.body.official_email]);
    });

    it('no e-mail address or inactive → 409; employees → 403; another workspace → 404; nothing sent', async () => {
      const noEmail = await createUser(t, ws, UserType.RETAILER, { official_email: null });
      const inactive = await createUser(t, ws, UserType.EMPLOYEE);
      await req('PATCH', `/users/${inactive.id}/status`, { status: 0 });
      const sentBefore = (await t.outbox()).length;
      expectError(await req('POST', `/users/${noEmail.id}/password-reset`), 409, 'This user has no e-mail address to send a reset link to; give them one first');
      expectError(await req('POST', `/users/${inactive.id}/password-reset`), 409, 'This user is inactive; reactivate them before sending a password reset link');
      expectError(await req('POST', `/users/${employee.id}/password-reset`, undefined, employee.token), 403, 'Only workspace administrators may do this');
      expectError(await req('POST', `/users/${otherEmployeeId}/password-reset`), 404, /not found/i);
      expect((await t.outbox()).length).toBe(sentBefore);
      const [row] = await sql<{ n: number }>("select count(*)::int as n from sign_in_code where purpose = 'password_reset' and user_id in (?, ?)", [noEmail.id, inactive.id]);
      expect(row.n).toBe(0);
    });
  });
});

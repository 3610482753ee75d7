import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, unique, uniquePhone, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/** GET /users, POST /users and GET /users/{id}. */

type Row = Record<string, unknown>;

/** Every field of a User in a list or create answer (store_name added for customers). */
function userShape(fields: Row): Row {
  return {
    id: expect.any(Number),
    first_name: expect.any(String),
    last_name: expect.any(String),
    official_email: expect.any(String),
    primary_contact_number: expect.any(String),
    role_id: expect.any(Number),
    role_name: expect.any(String),
    user_type: expect.any(Number),
    status: 1,
    town_id: null,
    town_name: null,
    route_id: null,
    route_name: null,
    organization_id: expect.any(Number),
    createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
    ...fields,
  };
}

describe('users', () => {
  let t: TestApp;
  let a: Workspace; // the list workspace: a fixed set of users
  let b: Workspace; // another workspace
  let c: Workspace; // where creates happen
  let employee: { id: number; token: string; body: Row };
  let inactive: { id: number; token: string; body: Row };
  let distributor: { id: number; token: string; body: Row };
  let retailer: { id: number; token: string; body: Row };
  const ravi = { phone: '+919876500001', email: `ravi.kumar.${Date.now()}@example.test` };

  const list = (ws: { token: string }, query = '') => t.request({ method: 'GET', url: `/api/v1/users${query}`, token: ws.token });
  const countUsers = async () => {
    const rows = await t.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from app_user');
    return Number(rows[0].n);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    a = await createWorkspace(t, 'Users List Dairy');
    b = await createWorkspace(t, 'Other Users Dairy');
    c = await createWorkspace(t, 'Users Create Dairy');
    employee = await createUser(t, a, UserType.EMPLOYEE, {
      first_name: 'Ravi',
      last_name: 'Kumar',
      official_email: ravi.email,
      primary_contact_number: ravi.phone,
    });
    inactive = await createUser(t, a, UserType.EMPLOYEE, { first_name: 'Sleepy', last_name: 'Kumarswamy' });
    distributor = await createUser(t, a, UserType.DISTRIBUTOR, { first_name: 'Dinesh', last_name: 'Traders', store_name: 'Dinesh Agencies' });
    retailer = await createUser(t, a, UserType.RETAILER, { first_name: 'Rita', last_name: 'Shop', store_name: 'Rita General Store' });
    await t.orm.em.fork().getConnection().execute('update app_user set status = 0 where id = ?', [inactive.id]);
    await createUser(t, b, UserType.EMPLOYEE, { first_name: 'Ravi', last_name: 'Other' });
  });
  afterAll(() => t.close());

  describe('GET /api/v1/users', () => {
    it('lists every user of the workspace, newest first, in the documented shape', async () => {
      const res = await list(a);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'response_code']);
      expect(body.response_code).toBe(200);
      expect(body.pagination).toEqual({ total: 5, page: 1, limit: 20, total_pages: 1 });
      expect(body.data.map((u: Row) => u.id)).toEqual([retailer.id, distributor.id, inactive.id, employee.id, a.adminId]);
      const byId = new Map<number, Row>(body.data.map((u: Row) => [u.id as number, u]));
      expect(byId.get(employee.id)).toEqual(
        userShape({
          id: employee.id,
          first_name: 'Ravi',
          last_name: 'Kumar',
          official_email: ravi.email,
          primary_contact_number: ravi.phone,
          role_id: a.roles.Employee,
          role_name: 'Employee',
          user_type: 1,
          organization_id: a.organizationId,
        }),
      );
      expect(byId.get(a.adminId)).toEqual(
        userShape({ id: a.adminId, first_name: 'Admin', role_id: a.roles.Admin, role_name: 'Admin', user_type: 0, organization_id: a.organizationId }),
      );
      expect(byId.get(inactive.id)).toEqual(userShape({ id: inactive.id, user_type: 1, status: 0, organization_id: a.organizationId }));
      expect(byId.get(distributor.id)).toEqual(
        userShape({
          id: distributor.id,
          first_name: 'Dinesh',
          role_id: a.roles.Distributor,
          role_name: 'Distributor',
          user_type: 2,
          store_name: 'Dinesh Agencies',
          organization_id: a.organizationId,
        }),
      );
      expect(byId.get(retailer.id)).toEqual(
        userShape({ id: retailer.id, role_name: 'Retailer', user_type: 3, store_name: 'Rita General Store', organization_id: a.organizationId }),
      );
      // store_name only on distributors and retailers; never a password or session field.
      expect('store_name' in byId.get(employee.id)!).toBe(false);
      expect('store_name' in byId.get(a.adminId)!).toBe(false);
      for (const u of body.data as Row[]) {
        expect(Object.keys(u).some((k) => /password|session/i.test(k))).toBe(false);
      }
    });

    it('workspace B never shows A’s users, and A never shows B’s', async () => {
      const res = await list(b);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().pagination.total).toBe(2);
      for (const u of res.json().data as Row[]) expect(u.organization_id).toBe(b.organizationId);
      const ids = (res.json().data as Row[]).map((u) => u.id);
      for (const id of [a.adminId, employee.id, distributor.id]) expect(ids).not.toContain(id);
      const searchA = await list(a, '?search=Other');
      expect(searchA.json().data).toEqual([]);
    });

    it.each([
      ['admin', () => [a.adminId]],
      ['employee', () => [inactive.id, employee.id]],
      ['distributor', () => [distributor.id]],
      ['retailer', () => [retailer.id]],
    ])('type=%s filters by user type', async (type, expected) => {
      const res = await list(a, `?type=${type}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.map((u: Row) => u.id)).toEqual(expected());
      expect(res.json().pagination.total).toBe(expected().length);
    });

    it('status=1 and status=0 filter by status', async () => {
      const active = await list(a, '?status=1');
      expect(active.statusCode, active.body).toBe(200);
      expect(active.json().pagination.total).toBe(4);
      expect(active.json().data.map((u: Row) => u.id)).not.toContain(inactive.id);
      const off = await list(a, '?status=0');
      expect(off.json().data.map((u: Row) => u.id)).toEqual([inactive.id]);
      const both = await list(a, '?status=1&type=employee');
      expect(both.json().data.map((u: Row) => u.id)).toEqual([employee.id]);
    });

    it.each([
      ['first name, any case', 'rAvI', () => [employee.id]],
      ['last name prefix', 'Kumar', () => [inactive.id, employee.id]],
      ['two words', 'Ravi Kumar', () => [employee.id]],
      ['two words, reversed', 'kumar ravi', () => [employee.id]],
      ['e-mail', 'ravi.kumar.', () => [employee.id]],
      ['phone digits', '9876500001', () => [employee.id]],
      ['nothing', 'zzzz-nobody', () => []],
      ['a LIKE wildcard, literally', '%', () => []],
    ])('search by %s', async (_label, search, expected) => {
      const res = await list(a, `?search=${encodeURIComponent(search)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.map((u: Row) => u.id)).toEqual(expected());
      expect(res.json().pagination.total).toBe(expected().length);
    });

    it('pages through the list with limit and page', async () => {
      const p1 = await list(a, '?limit=2');
      expect(p1.json().pagination).toEqual({ total: 5, page: 1, limit: 2, total_pages: 3 });
      expect(p1.json().data.map((u: Row) => u.id)).toEqual([retailer.id, distributor.id]);
      const p3 = await list(a, '?limit=2&page=3');
      expect(p3.statusCode, p3.body).toBe(200);
      expect(p3.json().pagination).toEqual({ total: 5, page: 3, limit: 2, total_pages: 3 });
      expect(p3.json().data.map((u: Row) => u.id)).toEqual([a.adminId]);
      const beyond = await list(a, '?limit=2&page=9');
      expect(beyond.statusCode, beyond.body).toBe(200);
      expect(beyond.json()).toEqual({ response_code: 200, data: [], pagination: { total: 5, page: 9, limit: 2, total_pages: 3 } });
      const max = await list(a, '?limit=100');
      expect(max.json().pagination).toEqual({ total: 5, page: 1, limit: 100, total_pages: 1 });
    });

    it.each([
      ['?limit=101', /^limit must be <= 100$/],
      ['?limit=0', /^limit must be >= 1$/],
      ['?limit=abc', /^limit must be an integer$/],
      ['?page=0', /^page must be >= 1$/],
      ['?page=abc', /^page must be an integer$/],
      ['?limit=2.5', /^limit must be an integer$/],
      ['?type=supplier', /^type must be one of: admin, employee, distributor, retailer$/],
      ['?type=2', /^type /],
      ['?status=2', /^status must be one of: 0, 1$/],
      ['?status=active', /^status /],
    ])('%s → 400 naming the parameter', async (query, message) => {
      const res = await list(a, query);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
    });

    it('an employee may list users; customers get 403; no token 401', async () => {
      const asEmployee = await list({ token: employee.token });
      expect(asEmployee.statusCode, asEmployee.body).toBe(200);
      expect(asEmployee.json().pagination.total).toBe(5);
      for (const who of [distributor, retailer]) {
        const res = await list({ token: who.token });
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
      }
      const anonymous = await t.request({ method: 'GET', url: '/api/v1/users' });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('GET /api/v1/users/{id}', () => {
    const get = (id: number | string, token: string) => t.request({ method: 'GET', url: `/api/v1/users/${id}`, token });

    it('returns the profile with role and organization', async () => {
      const res = await get(distributor.id, a.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        response_code: 200,
        data: {
          ...userShape({
            id: distributor.id,
            first_name: 'Dinesh',
            last_name: 'Traders',
            role_id: a.roles.Distributor,
            role_name: 'Distributor',
            user_type: 2,
            store_name: 'Dinesh Agencies',
            organization_id: a.organizationId,
          }),
          role: { id: a.roles.Distributor, role_name: 'Distributor' },
          organization: { id: a.organizationId, organization_name: 'Users List Dairy', workspace_id: expect.stringMatching(/\S/), slug: a.slug },
        },
      });
    });

    it('unknown id → 404; another workspace’s user → 404; id abc → 400', async () => {
      const unknown = await get(999999, a.token);
      expect(unknown.statusCode, unknown.body).toBe(404);
      expect(unknown.json()).toEqual({ response_code: 404, message: expect.any(String) });
      const foreign = await get(b.adminId, a.token);
      expect(foreign.statusCode, foreign.body).toBe(404);
      expect(foreign.json()).toEqual({ response_code: 404, message: expect.any(String) });
      const reverse = await get(employee.id, b.token);
      expect(reverse.statusCode).toBe(404);
      const bad = await get('abc', a.token);
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^id /)));
      const zero = await get(0, a.token);
      expect(zero.statusCode, zero.body).toBe(400);
    });

    it('an employee may read any user of the workspace', async () => {
      for (const id of [a.adminId, distributor.id, employee.id]) {
        const res = await get(id, employee.token);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.id).toBe(id);
      }
      expect((await get(b.adminId, employee.token)).statusCode).toBe(404);
    });

    it('a distributor may read only themself: every other user is not found', async () => {
      const own = await get(distributor.id, distributor.token);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().data).toMatchObject({ id: distributor.id, store_name: 'Dinesh Agencies', role: { role_name: 'Distributor' } });
      for (const id of [a.adminId, retailer.id, employee.id, b.adminId]) {
        const res = await get(id, distributor.token);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({ response_code: 404, message: `User ${id} not found` });
      }
    });
  });

  describe('POST /api/v1/users', () => {
    const create = (payload: Row, token = c.token) => t.request({ method: 'POST', url: '/api/v1/users', token, payload });
    const valid = (overrides: Row = {}): Row => {
      const n = unique();
      return {
        first_name: 'New',
        last_name: `Person${n}`,
        official_email: `new${n}@example.test`,
        primary_contact_number: uniquePhone(),
        password: 'password123',
        role_id: c.roles.Employee,
        user_type: 1,
        ...overrides,
      };
    };

    it.each([
      ['admin', 0, 'Admin', undefined],
      ['employee', 1, 'Employee', undefined],
      ['distributor', 2, 'Distributor', 'Store North'],
      ['retailer', 3, 'Retailer', 'Store South'],
    ])('creates a %s: 201 with the user in data', async (_label, userType, roleName, storeName) => {
      const payload = valid({ role_id: c.roles[roleName], user_type: userType, ...(storeName ? { store_name: storeName } : {}) });
      const res = await create(payload);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        response_code: 201,
        message: expect.any(String),
        data: userShape({
          first_name: 'New',
          last_name: payload.last_name,
          official_email: payload.official_email,
          primary_contact_number: payload.primary_contact_number,
          role_id: c.roles[roleName],
          role_name: roleName,
          user_type: userType,
          organization_id: c.organizationId,
          ...(storeName ? { store_name: storeName } : {}),
        }),
      });
      if (!storeName) expect('store_name' in body.data).toBe(false);
      // It is really there.
      const read = await t.request({ method: 'GET', url: `/api/v1/users/${body.data.id}`, token: c.token });
      expect(read.statusCode).toBe(200);
      expect(read.json().data).toMatchObject({ id: body.data.id, user_type: userType, role_name: roleName });
    });

    it('normalises the e-mail to lower case and the phone to compact form; e-mail is optional', async () => {
      const n = unique();
      const res = await create(valid({ official_email: `Mixed.${n}@Example.TEST`, primary_contact_number: '+91 (98) 7650-0099' }));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ official_email: `mixed.${n}@example.test`, primary_contact_number: '+919876500099' });
      const noEmail = valid();
      delete noEmail.official_email;
      const res2 = await create(noEmail);
      expect(res2.statusCode, res2.body).toBe(201);
      expect(res2.json().data.official_email).toBeNull();
    });

    it('a distributor with a town and a route shows their names', async () => {
      const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: c.token, payload: { town_name: `Pune ${unique()}` } });
      expect(town.statusCode, town.body).toBe(201);
      const route = await t.request({
        method: 'POST',
        url: '/api/v1/masters/routes',
        token: c.token,
        payload: { route_name: 'Route 7', town_id: town.json().data.id },
      });
      expect(route.statusCode, route.body).toBe(201);
      const res = await create(
        valid({ role_id: c.roles.Distributor, user_type: 2, store_name: 'Pune Milk', town_id: town.json().data.id, route_id: route.json().data.id }),
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({
        town_id: town.json().data.id,
        town_name: town.json().data.town_name,
        route_id: route.json().data.id,
        route_name: 'Route 7',
        store_name: 'Pune Milk',
      });
      const read = await t.request({ method: 'GET', url: `/api/v1/users/${res.json().data.id}`, token: c.token });
      expect(read.json().data).toMatchObject({ town_name: town.json().data.town_name, route_name: 'Route 7' });
    });

    describe('validation: 400 naming the field, nothing created', () => {
      let foreignTownId: number;
      beforeAll(async () => {
        const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: b.token, payload: { town_name: 'Foreign Town' } });
        expect(town.statusCode, town.body).toBe(201);
        foreignTownId = town.json().data.id;
      });

      const cases: Array<[string, () => Row, RegExp]> = [
        ['missing first_name', () => { const p = valid(); delete p.first_name; return p; }, /^first_name is required$/],
        ['missing primary_contact_number', () => { const p = valid(); delete p.primary_contact_number; return p; }, /^primary_contact_number is required$/],
        ['missing role_id', () => { const p = valid(); delete p.role_id; return p; }, /^role_id is required$/],
        ['blank last_name', () => valid({ last_name: '   ' }), /^last_name /],
        ['bad official_email', () => valid({ official_email: 'nobody@nowhere' }), /^official_email must be a valid e-mail address$/],
        ['short password', () => valid({ password: 'short' }), /^password must be at least 8 characters$/],
        ['bad phone', () => valid({ primary_contact_number: '12-34' }), /^primary_contact_number /],
        ['unknown role_id', () => valid({ role_id: 999999 }), /^role_id /],
        ['role_id of another workspace', () => valid({ role_id: b.roles.Employee }), /^role_id /],
        ['user_type 4', () => valid({ user_type: 4 }), /^user_type must be one of: 0, 1, 2, 3$/],
        ['user_type as a string', () => valid({ user_type: '1' }), /^user_type /],
        ['role_id as a string', () => valid({ role_id: String(c.roles.Employee) }), /^role_id must be an integer$/],
        ['store_name on an employee', () => valid({ store_name: 'Not A Shop' }), /^store_name /],
        ['unknown town_id', () => valid({ role_id: c.roles.Retailer, user_type: 3, town_id: 999999 }), /^town_id /],
        ['town_id of another workspace', () => valid({ role_id: c.roles.Retailer, user_type: 3, town_id: foreignTownId }), /^town_id /],
        ['unknown route_id', () => valid({ role_id: c.roles.Retailer, user_type: 3, route_id: 999999 }), /^route_id /],
      ];
      it.each(cases)('%s', async (_label, payload, message) => {
        const before = await countUsers();
        const res = await create(payload());
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
        expect(await countUsers()).toBe(before);
      });
    });

    it('a duplicate e-mail (any case, any workspace) or phone → 409, nothing created', async () => {
      const before = await countUsers();
      const sameEmail = await create(valid({ official_email: ravi.email.toUpperCase() }));
      expect(sameEmail.statusCode, sameEmail.body).toBe(409);
      expect(sameEmail.json()).toEqual({ response_code: 409, message: expect.stringMatching(/e-mail/i) });
      const samePhone = await create(valid({ primary_contact_number: ravi.phone }));
      expect(samePhone.statusCode, samePhone.body).toBe(409);
      expect(samePhone.json()).toEqual({ response_code: 409, message: expect.stringMatching(/phone/i) });
      const spacedPhone = await create(valid({ primary_contact_number: '+91 98765 00001' }));
      expect(spacedPhone.statusCode, spacedPhone.body).toBe(409);
      const inA = await create(valid({ role_id: a.roles.Employee, primary_contact_number: ravi.phone }), a.token);
      expect(inA.statusCode, inA.body).toBe(409);
      expect(await countUsers()).toBe(before);
    });

    it('employees and customers may not create users: 403, nothing created', async () => {
      const before = await countUsers();
      for (const who of [employee, distributor, retailer]) {
        const res = await create(valid({ role_id: a.roles.Employee }), who.token);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
      }
      const anonymous = await t.request({ method: 'POST', url: '/api/v1/users', payload: valid() });
      expect(anonymous.statusCode).toBe(401);
      expect(await countUsers()).toBe(before);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeToOrganization } from '../../src/db/tenant-filter';
import { User, UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, placeOrder, seedCatalog, unique, uniquePhone, type Catalog, type Workspace } from '../helpers/fixtures';
import { errorEnvelope } from '../helpers/envelope';
import { buildTestApp, type TestApp } from '../helpers/test-app';

type Body = Record<string, unknown>;

/** DELETE /masters/<kind>/{id}: a soft delete (status 0), refused while an active record uses the record; GET ?status. */
describe('DELETE /api/v1/masters/<kind>/{id}', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;
  let employeeToken: string;
  let distributorToken: string;

  const masters = (kind: string, suffix = '') => `/api/v1/masters/${kind}${suffix}`;
  const del = (kind: string, id: number | string, token: string | null = ws.token) =>
    t.request({ method: 'DELETE', url: masters(kind, `/${id}`), token: token ?? undefined });
  const put = (kind: string, id: number, payload: Body, token = ws.token) => t.request({ method: 'PUT', url: masters(kind, `/${id}`), token, payload });
  async function post(kind: string, payload: Body, w: Workspace = ws): Promise<Body & { id: number }> {
    const res = await t.request({ method: 'POST', url: masters(kind), token: w.token, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }
  async function list(kind: string, query = '', w: Workspace = ws): Promise<Body[]> {
    const res = await t.request({ method: 'GET', url: masters(kind, `?limit=100${query}`), token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }
  /** The record as the list shows it now. */
  const current = async (kind: string, id: number, w: Workspace = ws) => (await list(kind, '', w)).find((r) => r.id === id);

  const town = (w: Workspace = ws) => post('towns', { town_name: `Town ${unique()}` }, w);
  const route = (townId: number, w: Workspace = ws) => post('routes', { route_name: `Route ${unique()}`, town_id: townId }, w);
  const outlet = (townId: number, routeId: number, w: Workspace = ws) =>
    post('outlets', { outlet_name: `Outlet ${unique()}`, town_id: townId, route_id: routeId, phone: uniquePhone() }, w);

  /** A fresh record of each kind that nothing uses. */
  const FRESH: Record<string, (w?: Workspace) => Promise<Body & { id: number }>> = {
    'product-classes': (w) => post('product-classes', { product_class: `Class ${unique()}` }, w),
    roles: (w) => post('roles', { role_name: `Role ${unique()}` }, w),
    towns: (w) => town(w),
    routes: async (w) => route((await town(w)).id, w),
    'production-units': (w) => post('production-units', { production_unit_name: `Unit ${unique()}` }, w),
    outlets: async (w) => {
      const t1 = await town(w);
      return outlet(t1.id, (await route(t1.id, w)).id, w);
    },
  };
  const LABELS: Record<string, string> = {
    'product-classes': 'Product class',
    roles: 'Role',
    towns: 'Town',
    routes: 'Route',
    'production-units': 'Production unit',
    outlets: 'Outlet',
  };
  const NAME_FIELDS: Record<string, string> = {
    'product-classes': 'product_class',
    roles: 'role_name',
    towns: 'town_name',
    routes: 'route_name',
    'production-units': 'production_unit_name',
    outlets: 'outlet_name',
  };

  /** Deactivates a user directly (users have no status change over the API on this branch). */
  async function deactivateUser(userId: number) {
    const em = t.orm.em.fork();
    scopeToOrganization(em, ws.organizationId);
    await em.nativeUpdate(User, { id: userId }, { status: 0 });
  }
  const cancelOrder = async (id: number) => {
    const res = await t.request({ method: 'POST', url: `/api/v1/orders/${id}/cancel`, token: ws.token, payload: { reason: 'Test' } });
    expect(res.statusCode, res.body).toBe(200);
  };
  const deliverOrder = async (id: number) => {
    for (const order_status of [2, 3, 4]) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload: { order_status } });
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const orderFor = (customerId: number, extra: Body = {}) =>
    placeOrder(t, ws.token, { user_id: customerId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }], ...extra });

  /** A 409 naming what uses the record; the record (and everything else of its kind) unchanged. */
  async function expectRefused(kind: string, record: Body & { id: number }, message: string) {
    const before = await list(kind);
    const res = await del(kind, record.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual(errorEnvelope(409, message));
    const viaPut = await put(kind, record.id, { [NAME_FIELDS[kind]]: `Renamed ${unique()}`, status: 0 });
    expect(viaPut.statusCode, viaPut.body).toBe(409);
    expect(viaPut.json()).toEqual(errorEnvelope(409, message));
    expect(await list(kind)).toEqual(before);
    expect(await current(kind, record.id)).toMatchObject({ status: 1, [NAME_FIELDS[kind]]: record[NAME_FIELDS[kind]] });
  }

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
    distributorToken = catalog.distributorToken;
  });
  afterAll(() => t?.close());

  describe.each(Object.keys(FRESH))('/masters/%s', (kind) => {
    it('deactivates an unused record: 200 with the record at status 0; a repeat answers 200 unchanged', async () => {
      const record = await FRESH[kind]();
      const res = await del(kind, record.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ response_code: 200, message: `${LABELS[kind]} deactivated`, data: { ...record, status: 0 } });
      expect(await current(kind, record.id)).toEqual({ ...record, status: 0 });

      const again = await del(kind, record.id);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toEqual({ response_code: 200, message: `${LABELS[kind]} was already inactive`, data: { ...record, status: 0 } });

      // Reactivating is a PUT, as before.
      const back = await put(kind, record.id, { status: 1 });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().data).toEqual(record);
    });

    it('GET ?status=0 lists only inactive records, ?status=1 only active ones, no status both; a bad status → 400', async () => {
      const active = await FRESH[kind]();
      const inactive = await FRESH[kind]();
      expect((await del(kind, inactive.id)).statusCode).toBe(200);
      const ids = (rows: Body[]) => rows.map((r) => r.id);

      const onlyInactive = await list(kind, '&status=0');
      expect(onlyInactive.every((r) => r.status === 0)).toBe(true);
      expect(ids(onlyInactive)).toContain(inactive.id);
      expect(ids(onlyInactive)).not.toContain(active.id);

      const onlyActive = await list(kind, '&status=1');
      expect(onlyActive.every((r) => r.status === 1)).toBe(true);
      expect(ids(onlyActive)).toContain(active.id);
      expect(ids(onlyActive)).not.toContain(inactive.id);

      const both = ids(await list(kind));
      expect(both).toEqual(expect.arrayContaining([active.id, inactive.id]));
      expect(both.length).toBe(onlyActive.length + onlyInactive.length);

      for (const bad of ['2', '-1', 'x']) {
        const res = await t.request({ method: 'GET', url: masters(kind, `?status=${bad}`), token: ws.token });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^status /)));
      }
    });

    it("another workspace's or an unknown id → 404; non-admins → 403; no token → 401; nothing changed", async () => {
      const foreign = await FRESH[kind](other);
      for (const id of [foreign.id, 99_999_999]) {
        const res = await del(kind, id);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual(errorEnvelope(404, expect.any(String)));
      }
      expect(await current(kind, foreign.id, other)).toEqual(foreign);

      const mine = await FRESH[kind]();
      for (const token of [employeeToken, distributorToken]) {
        const res = await del(kind, mine.id, token);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual(errorEnvelope(403, expect.any(String)));
      }
      expect((await del(kind, mine.id, null)).statusCode).toBe(401);
      expect((await del(kind, 'abc')).statusCode).toBe(400);
      expect(await current(kind, mine.id)).toEqual(mine);
    });
  });

  describe('in use by an active record → 409 naming what uses it, over DELETE and PUT status 0', () => {
    it('a product class with active products', async () => {
      const cls = await FRESH['product-classes']();
      const n = unique();
      const product = await createProduct(t, ws, {
        product_name: `Curd ${n}`,
        product_class_id: cls.id,
        product_hsn: '0403',
        variants: [{ variant_name: '200 g', item_sku_code: `CURD-${n}`, mrp: 20, sp: 18 }],
      });
      await expectRefused('product-classes', cls, `Product class "${cls.product_class}" is used by 1 active product`);

      const off = await t.request({ method: 'PUT', url: `/api/v1/products/${product.id}`, token: ws.token, payload: { status: 0 } });
      expect(off.statusCode, off.body).toBe(200);
      expect((await del('product-classes', cls.id)).statusCode).toBe(200);
    });

    it('a role with active users', async () => {
      const role = await FRESH.roles();
      const a = await createUser(t, ws, UserType.EMPLOYEE, { role_id: role.id });
      const b = await createUser(t, ws, UserType.EMPLOYEE, { role_id: role.id });
      await expectRefused('roles', role, `Role "${role.role_name}" is used by 2 active users`);
      await deactivateUser(a.id);
      await expectRefused('roles', role, `Role "${role.role_name}" is used by 1 active user`);
      await deactivateUser(b.id);
      const res = await put('roles', role.id, { status: 0 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe(0);
      // The workspace's Admin role is held by its admin.
      expect((await del('roles', ws.roles.Admin)).json()).toEqual(errorEnvelope(409, 'Role "Admin" is used by 1 active user'));
    });

    it('a town with active routes, active outlets, active users and open orders; a route with active outlets, users and open orders', async () => {
      const tw = await town();
      const rt = await route(tw.id);
      const ol = await outlet(tw.id, rt.id);
      const customer = await createUser(t, ws, UserType.RETAILER, { town_id: tw.id, route_id: rt.id });
      const open = await orderFor(customer.id);
      const delivered = await orderFor(customer.id);
      await deliverOrder(delivered.id);

      await expectRefused('towns', tw, `Town "${tw.town_name}" is used by 1 active route, 1 active outlet, 1 active user and 1 open order`);
      await expectRefused('routes', rt, `Route "${rt.route_name}" is used by 1 active outlet, 1 active user and 1 open order`);

      expect((await del('outlets', ol.id)).statusCode).toBe(200); // nothing uses an outlet
      await expectRefused('routes', rt, `Route "${rt.route_name}" is used by 1 active user and 1 open order`);
      await deactivateUser(customer.id);
      await expectRefused('routes', rt, `Route "${rt.route_name}" is used by 1 open order`);
      await expectRefused('towns', tw, `Town "${tw.town_name}" is used by 1 active route and 1 open order`);
      await cancelOrder(open.id); // a cancelled order, like a delivered one, no longer holds it
      expect((await del('routes', rt.id)).json()).toMatchObject({ response_code: 200, message: 'Route deactivated', data: { id: rt.id, status: 0 } });
      expect((await del('towns', tw.id)).json()).toMatchObject({ response_code: 200, message: 'Town deactivated', data: { id: tw.id, status: 0 } });
    });

    it('a town or route with only an active user (no order)', async () => {
      const tw = await town();
      const rt = await route(tw.id);
      const user = await createUser(t, ws, UserType.EMPLOYEE, { town_id: tw.id, route_id: rt.id });
      await expectRefused('routes', rt, `Route "${rt.route_name}" is used by 1 active user`);
      await deactivateUser(user.id);
      expect((await put('routes', rt.id, { status: 0 })).statusCode).toBe(200);
      expect((await put('towns', tw.id, { status: 0 })).statusCode).toBe(200);
    });

    it('a production unit with open orders', async () => {
      const unit = await FRESH['production-units']();
      const first = await orderFor(catalog.distributorId, { production_unit_id: unit.id });
      const second = await orderFor(catalog.distributorId, { production_unit_id: unit.id });
      await expectRefused('production-units', unit, `Production unit "${unit.production_unit_name}" is used by 2 open orders`);
      await deliverOrder(first.id);
      await expectRefused('production-units', unit, `Production unit "${unit.production_unit_name}" is used by 1 open order`);
      await cancelOrder(second.id);
      const res = await del('production-units', unit.id);
      expect(res.json()).toEqual({ response_code: 200, message: 'Production unit deactivated', data: { ...unit, status: 0 } });
    });

    it('PUT status 0 on an unused record, and a PUT keeping status 0 of an inactive one, pass', async () => {
      const tw = await town();
      const off = await put('towns', tw.id, { status: 0 });
      expect(off.statusCode, off.body).toBe(200);
      const renamed = await put('towns', tw.id, { town_name: `Still off ${unique()}`, status: 0 });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().data.status).toBe(0);
    });
  });

  describe('API keys', () => {
    it('need write and the masters scope', async () => {
      const tw = await town();
      for (const scopes of ['read', 'write,orders']) {
        const key = await createApiKey(t, ws, { scopes });
        const res = await t.request({ method: 'DELETE', url: masters('towns', `/${tw.id}`), apiKey: key.key });
        expect(res.statusCode, `${scopes}: ${res.body}`).toBe(403);
      }
      expect(await current('towns', tw.id)).toEqual(tw);
      const key = await createApiKey(t, ws, { scopes: 'write,masters' });
      const res = await t.request({ method: 'DELETE', url: masters('towns', `/${tw.id}`), apiKey: key.key });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ response_code: 200, message: 'Town deactivated', data: { ...tw, status: 0 } });
    });
  });
  describe('a deactivated record takes no new records', () => {
    it('a route in an inactive town, an outlet on an inactive route, a product of an inactive class: 400 naming the field, nothing written', async () => {
      const t1 = await town();
      const r1 = await route(t1.id);
      expect((await del('routes', r1.id)).statusCode).toBe(200);
      const t2 = await town();
      expect((await del('towns', t2.id)).statusCode).toBe(200);
      const routesBefore = (await list('routes')).length;
      const inTown = await t.request({ method: 'POST', url: masters('routes'), token: ws.token, payload: { route_name: `R ${unique()}`, town_id: t2.id } });
      expect(inTown.statusCode, inTown.body).toBe(400);
      expect(inTown.json().errors).toEqual([{ field: 'town_id', message: 'town_id names an inactive town' }]);
      expect((await list('routes')).length).toBe(routesBefore);
      const onRoute = await t.request({
        method: 'POST',
        url: masters('outlets'),
        token: ws.token,
        payload: { outlet_name: `O ${unique()}`, town_id: t1.id, route_id: r1.id, phone: uniquePhone() },
      });
      expect(onRoute.statusCode, onRoute.body).toBe(400);
      expect(onRoute.json().errors[0]).toEqual({ field: 'route_id', message: 'route_id names an inactive route' });

      const cls = await FRESH['product-classes']();
      expect((await del('product-classes', cls.id)).statusCode).toBe(200);
      const product = await t.request({
        method: 'POST',
        url: '/api/v1/products',
        token: ws.token,
        payload: { product_name: `P ${unique()}`, product_class_id: cls.id, variants: [{ variant_name: '1', item_sku_code: `I-${unique()}`, mrp: 2, sp: 1 }] },
      });
      expect(product.statusCode, product.body).toBe(400);
      expect(product.json().errors[0]).toEqual({ field: 'product_class_id', message: 'product_class_id names an inactive product class' });
      const moved = await t.request({ method: 'PUT', url: `/api/v1/products/${catalog.productId}`, token: ws.token, payload: { product_class_id: cls.id } });
      expect(moved.statusCode, moved.body).toBe(400);
      const stillThere = await t.request({ method: 'GET', url: `/api/v1/products/${catalog.productId}`, token: ws.token });
      expect(stillThere.json().data.product_class_id).toBe(catalog.productClassId);
      // Filtering by the inactive class still works: it names a class of the workspace.
      expect((await t.request({ method: 'GET', url: `/api/v1/products?product_class_id=${cls.id}`, token: ws.token })).statusCode).toBe(200);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, placeOrder, seedCatalog, unique, uniquePhone, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

type Body = Record<string, unknown>;

/** Each kind over GraphQL: its singular (deactivate<Singular>, update<Singular>), its list field, its REST path. */
const KINDS = [
  { singular: 'ProductClass', plural: 'productClasses', path: 'product-classes' },
  { singular: 'Role', plural: 'roles', path: 'roles' },
  { singular: 'Town', plural: 'towns', path: 'towns' },
  { singular: 'Route', plural: 'routes', path: 'routes' },
  { singular: 'ProductionUnit', plural: 'productionUnits', path: 'production-units' },
  { singular: 'Outlet', plural: 'outlets', path: 'outlets' },
];

const deactivate = (singular: string) => `mutation($id: Int!) { deactivate${singular}(id: $id) { id name status } }`;
const update = (singular: string) => `mutation($id: Int!, $input: ${singular}Input!) { update${singular}(id: $id, input: $input) { id name status } }`;
const listOf = (plural: string) => `query($status: ActiveStatus) { ${plural}(status: $status, limit: 100) { nodes { id name status } pageInfo { total } } }`;

/** deactivate<Kind>: the same soft delete and refusals as DELETE /masters/<kind>/{id}; <kinds>(status). */
describe('GraphQL deactivate<Kind>', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;
  let employeeToken: string;
  const gql = (query: string, variables?: Record<string, unknown>, token: string | { apiKey: string } = ws.token) =>
    t.graphql(query, variables, token) as Promise<GraphqlAnswer>;

  async function post(path: string, payload: Body, w: Workspace = ws): Promise<Body & { id: number }> {
    const res = await t.request({ method: 'POST', url: `/api/v1/masters/${path}`, token: w.token, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }
  const town = (w: Workspace = ws) => post('towns', { town_name: `Town ${unique()}` }, w);
  const route = (townId: number, w: Workspace = ws) => post('routes', { route_name: `Route ${unique()}`, town_id: townId }, w);

  /** A fresh record of each kind that nothing uses: its id and name. */
  const FRESH: Record<string, (w?: Workspace) => Promise<{ id: number; name: string }>> = {
    'product-classes': async (w) => named(await post('product-classes', { product_class: `Class ${unique()}` }, w), 'product_class'),
    roles: async (w) => named(await post('roles', { role_name: `Role ${unique()}` }, w), 'role_name'),
    towns: async (w) => named(await town(w), 'town_name'),
    routes: async (w) => named(await route((await town(w)).id, w), 'route_name'),
    'production-units': async (w) => named(await post('production-units', { production_unit_name: `Unit ${unique()}` }, w), 'production_unit_name'),
    outlets: async (w) => {
      const tw = await town(w);
      const rt = await route(tw.id, w);
      return named(await post('outlets', { outlet_name: `Outlet ${unique()}`, town_id: tw.id, route_id: rt.id, phone: uniquePhone() }, w), 'outlet_name');
    },
  };
  const named = (row: Body & { id: number }, field: string) => ({ id: row.id, name: row[field] as string });
  const listed = async (plural: string, status?: string, token: string = ws.token) =>
    expectGraphqlData(await gql(listOf(plural), { status }, token))[plural].nodes as Array<{ id: number; name: string; status: string }>;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
  });
  afterAll(() => t?.close());

  describe.each(KINDS)('deactivate$singular', ({ singular, plural, path }) => {
    it('sets status INACTIVE and returns the record; a repeat returns it unchanged; the list filters by status', async () => {
      const rec = await FRESH[path]();
      const keep = await FRESH[path]();
      const first = expectGraphqlData(await gql(deactivate(singular), { id: rec.id }))[`deactivate${singular}`];
      expect(first).toEqual({ id: rec.id, name: rec.name, status: 'INACTIVE' });
      const again = expectGraphqlData(await gql(deactivate(singular), { id: rec.id }))[`deactivate${singular}`];
      expect(again).toEqual(first);

      const inactive = await listed(plural, 'INACTIVE');
      expect(inactive).toContainEqual(first);
      expect(inactive.every((r) => r.status === 'INACTIVE')).toBe(true);
      expect(inactive.map((r) => r.id)).not.toContain(keep.id);
      const active = await listed(plural, 'ACTIVE');
      expect(active).toContainEqual({ ...keep, status: 'ACTIVE' });
      expect(active.every((r) => r.status === 'ACTIVE')).toBe(true);
      expect(active.map((r) => r.id)).not.toContain(rec.id);
      expect((await listed(plural)).length).toBe(active.length + inactive.length);
      expectGraphqlError(await gql(listOf(plural), { status: 'GONE' }), 'BAD_USER_INPUT');
    });

    it("another workspace's record → NOT_FOUND; an employee → FORBIDDEN; nothing changed", async () => {
      const foreign = await FRESH[path](other);
      expectGraphqlError(await gql(deactivate(singular), { id: foreign.id }), 'NOT_FOUND');
      expect(await listed(plural, 'ACTIVE', other.token)).toContainEqual({ ...foreign, status: 'ACTIVE' });
      const mine = await FRESH[path]();
      expectGraphqlError(await gql(deactivate(singular), { id: mine.id }, employeeToken), 'FORBIDDEN');
      expect(await listed(plural, 'ACTIVE')).toContainEqual({ ...mine, status: 'ACTIVE' });
    });
  });

  it('CONFLICT naming what uses the record, from deactivate<Kind> and update<Kind>(status: INACTIVE); nothing changed', async () => {
    const tw = await town();
    const rt = await route(tw.id);
    const customer = await createUser(t, ws, UserType.RETAILER, { town_id: tw.id, route_id: rt.id });
    await placeOrder(t, ws.token, { user_id: customer.id, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    const townMessage = `Town "${tw.town_name}" is used by 1 active route, 1 active user and 1 open order`;
    expectGraphqlError(await gql(deactivate('Town'), { id: tw.id }), 'CONFLICT', townMessage);
    expectGraphqlError(await gql(update('Town'), { id: tw.id, input: { name: 'Renamed', status: 'INACTIVE' } }), 'CONFLICT', townMessage);
    expectGraphqlError(await gql(deactivate('Route'), { id: rt.id }), 'CONFLICT', `Route "${rt.route_name}" is used by 1 active user and 1 open order`);
    expect(await listed('towns', 'ACTIVE')).toContainEqual({ id: tw.id, name: tw.town_name, status: 'ACTIVE' });
    expect(await listed('routes', 'ACTIVE')).toContainEqual({ id: rt.id, name: rt.route_name, status: 'ACTIVE' });

    const cls = await FRESH['product-classes']();
    const n = unique();
    await createProduct(t, ws, { product_name: `P ${n}`, product_class_id: cls.id, product_hsn: '0401', variants: [{ variant_name: '1', item_sku_code: `G-${n}`, mrp: 2, sp: 1 }] });
    expectGraphqlError(await gql(deactivate('ProductClass'), { id: cls.id }), 'CONFLICT', `Product class "${cls.name}" is used by 1 active product`);
    expectGraphqlError(await gql(deactivate('Role'), { id: ws.roles.Retailer }), 'CONFLICT', /^Role "Retailer" is used by \d+ active users?$/);

    const unit = await FRESH['production-units']();
    await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }], production_unit_id: unit.id });
    expectGraphqlError(await gql(update('ProductionUnit'), { id: unit.id, input: { status: 'INACTIVE' } }), 'CONFLICT', `Production unit "${unit.name}" is used by 1 open order`);
    expect(await listed('productionUnits', 'ACTIVE')).toContainEqual({ ...unit, status: 'ACTIVE' });
  });

  it('an API key needs write and the masters scope', async () => {
    const rec = await FRESH.towns();
    const readOnly = await createApiKey(t, ws, { scopes: 'read' });
    expectGraphqlError(await gql(deactivate('Town'), { id: rec.id }, { apiKey: readOnly.key }), 'FORBIDDEN');
    const ordersOnly = await createApiKey(t, ws, { scopes: 'write,orders' });
    expectGraphqlError(await gql(deactivate('Town'), { id: rec.id }, { apiKey: ordersOnly.key }), 'FORBIDDEN');
    const key = await createApiKey(t, ws, { scopes: 'write,masters' });
    expect(expectGraphqlData(await gql(deactivate('Town'), { id: rec.id }, { apiKey: key.key })).deactivateTown).toEqual({ ...rec, status: 'INACTIVE' });
  });
});

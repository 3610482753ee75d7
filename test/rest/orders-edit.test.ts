import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRollups } from '../../src/domains/dashboard/rollups';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, placeOrder, seedCatalog, signIn, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** PUT /orders/{id}/items and the order list's place filters. */
describe('order lines replaced, and the list filtered by production unit, town and route', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;

  const newOrder = async (payload: Record<string, unknown> = {}, w: Workspace = ws, c: Catalog = catalog) =>
    (await placeOrder(t, w.token, { user_id: c.distributorId, items: [{ product_variant_id: c.variantIds[0], quantity: 2 }], ...payload })).id;
  const replace = (id: number, items: unknown, token = ws.token) => t.request({ method: 'PUT', url: `/api/v1/orders/${id}/items`, token, payload: { items } });
  const detail = async (id: number, w: Workspace = ws) => (await t.request({ method: 'GET', url: `/api/v1/orders/${id}`, token: w.token })).json().data;
  const post = async (w: Workspace, path: string, payload: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url: `/api/v1/masters/${path}`, token: w.token, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
  });
  afterAll(() => t?.close());

  it("replaces an Initiated order's lines at today's prices, recomputing total and count, and the rollups follow", async () => {
    const id = await newOrder();
    // Today's price of the second variant changes before the replacement: the new line takes it.
    await t.orm.em.fork().getConnection().execute(`update product_variant set sp = 60 where id = ?`, [catalog.variantIds[1]]);
    const res = await replace(id, [
      { product_variant_id: catalog.variantIds[0], quantity: 1 },
      { product_variant_id: catalog.variantIds[1], quantity: 3 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Order items replaced');
    expect(body.data).toMatchObject({ id, order_status: 1, order_total_amount: 208.5, order_items_count: 2 });
    expect(body.data.items.map((i: Record<string, unknown>) => [i.product_variant_id, i.quantity, i.unit_price, i.amount])).toEqual([
      [catalog.variantIds[0], 1, 28.5, 28.5],
      [catalog.variantIds[1], 3, 60, 180],
    ]);
    expect(await detail(id)).toEqual(body.data);
    const check = await checkRollups(t.orm.em.fork(), ws.organizationId);
    expect(check.differing, JSON.stringify(check.listed)).toBe(0);
  });

  it('after Initiated, or once cancelled, a replacement is a 409 and nothing changes; bad lines are 400s', async () => {
    const id = await newOrder();
    const before = await detail(id);
    for (const items of [[], [{ product_variant_id: 999999, quantity: 1 }], [{ product_variant_id: catalog.variantIds[0], quantity: 0 }]]) {
      expect((await replace(id, items)).statusCode).toBe(400);
    }
    expect(await detail(id)).toEqual(before);

    const moved = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload: { order_status: 2 } });
    expect(moved.statusCode).toBe(200);
    const refused = await replace(id, [{ product_variant_id: catalog.variantIds[1], quantity: 1 }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/is Forwarded \(2\); its lines can be replaced only while it is Initiated \(1\)$/);
    expect((await detail(id)).items).toEqual(before.items);

    const cancelled = await newOrder();
    await t.request({ method: 'POST', url: `/api/v1/orders/${cancelled}/cancel`, token: ws.token, payload: { reason: 'Test' } });
    expect((await replace(cancelled, [{ product_variant_id: catalog.variantIds[1], quantity: 1 }])).statusCode).toBe(409);
  });

  it("a customer replaces their own Initiated order's lines, not another's; another workspace's order is 404", async () => {
    const id = await newOrder();
    const own = await replace(id, [{ product_variant_id: catalog.variantIds[1], quantity: 1 }], catalog.distributorToken);
    expect(own.statusCode, own.body).toBe(200);
    const retailerToken = await signIn(t, ws, catalog.retailerId);
    expect((await replace(id, [{ product_variant_id: catalog.variantIds[0], quantity: 1 }], retailerToken)).statusCode).toBe(404);
    expect((await replace(id, [{ product_variant_id: catalog.variantIds[0], quantity: 1 }], other.token)).statusCode).toBe(404);
  });

  it('the list filters by production unit, town and route, each checked to belong to the workspace (400 naming it)', async () => {
    const w = await createWorkspace(t);
    const c = await seedCatalog(t, w);
    const town = await post(w, 'towns', { town_name: 'North' });
    const route = await post(w, 'routes', { route_name: 'Ring', town_id: town });
    const unit = await post(w, 'production-units', { production_unit_name: 'Plant 1' });
    const placed = await createUser(t, w, UserType.DISTRIBUTOR, { town_id: town, route_id: route });
    const plain = await newOrder({}, w, c);
    const inUnit = await newOrder({ production_unit_id: unit }, w, c);
    const inTown = await newOrder({ user_id: placed.id }, w, c);
    const ids = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `/api/v1/orders${query}`, token: w.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((o: { id: number }) => o.id);
    };
    expect(await ids('')).toEqual([inTown, inUnit, plain]);
    expect(await ids(`?production_unit_id=${unit}`)).toEqual([inUnit]);
    expect(await ids(`?town_id=${town}`)).toEqual([inTown]);
    expect(await ids(`?route_id=${route}`)).toEqual([inTown]);
    expect(await ids(`?town_id=${town}&production_unit_id=${unit}`)).toEqual([]);

    const otherTown = await post(other, 'towns', { town_name: 'Elsewhere' });
    for (const [query, field] of [
      [`?town_id=${otherTown}`, 'town_id'],
      ['?route_id=99999999', 'route_id'],
      ['?production_unit_id=99999999', 'production_unit_id'],
    ]) {
      const res = await t.request({ method: 'GET', url: `/api/v1/orders${query}`, token: w.token });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0].field).toBe(field);
      expect(res.json().message).toBe(`${field} does not name a record of this workspace`);
    }
  });
});

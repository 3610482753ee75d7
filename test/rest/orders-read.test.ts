import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

const LIST_KEYS = [
  'cancel_reason',
  'cancelled_at',
  'cancelled_by_api_key_id',
  'cancelled_by_user_id',
  'createdAt',
  'delivery_date',
  'id',
  'order_code',
  'order_date',
  'order_items_count',
  'order_status',
  'order_total_amount',
  'production_unit_id',
  'production_unit_name',
  'route_name',
  'town_name',
  'updatedAt',
  'user_id',
  'user_name',
  'user_type',
];
const DETAIL_KEYS = [...LIST_KEYS, 'delivery', 'items', 'mode_of_payment', 'status_history', 'user'].sort();

describe('GET /api/v1/orders and /api/v1/orders/{id}', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;
  let dist: { id: number; token: string };
  let ret: { id: number; token: string };
  /** o[0]..o[4] in creation order. */
  const o: Array<Record<string, unknown> & { id: number }> = [];
  let otherOrderId: number;
  let unitId: number;

  const get = (url: string, token = ws.token) => t.request({ method: 'GET', url, token });
  const ids = (res: { json(): { data: Array<{ id: number }> } }) => res.json().data.map((r) => r.id);
  const list = async (query: string, token = ws.token) => {
    const res = await get(`/api/v1/orders${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const bad = async (query: string, message: string | RegExp) => {
    const res = await get(`/api/v1/orders${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, expect.any(String)));
    if (typeof message === 'string') expect(res.json().message).toBe(message);
    else expect(res.json().message).toMatch(message);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    const otherCatalog = await seedCatalog(t, other);
    const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: 'Nashik' } });
    const townId = town.json().data.id;
    const route = await t.request({
      method: 'POST',
      url: '/api/v1/masters/routes',
      token: ws.token,
      payload: { route_name: 'Panchavati', town_id: townId },
    });
    const unit = await t.request({
      method: 'POST',
      url: '/api/v1/masters/production-units',
      token: ws.token,
      payload: { production_unit_name: 'Dairy East' },
    });
    unitId = unit.json().data.id;
    dist = await createUser(t, ws, UserType.DISTRIBUTOR, {
      first_name: 'Zephyrine',
      last_name: 'Quastle',
      store_name: 'Nimbus Mart',
      town_id: townId,
      route_id: route.json().data.id,
    });
    ret = await createUser(t, ws, UserType.RETAILER, { first_name: 'Orlando', last_name: 'Brindle', store_name: 'Copper Kettle' });

    const line = (quantity: number, variant = 0) => ({ product_variant_id: catalog.variantIds[variant], quantity });
    o.push(await placeOrder(t, ws.token, { user_id: dist.id, items: [line(2)], order_date: '2026-01-10' }));
    o.push(await placeOrder(t, ws.token, { user_id: ret.id, items: [line(1), line(1, 1)], order_date: '2026-01-15' }));
    o.push(
      await placeOrder(t, ws.token, {
        user_id: dist.id,
        items: [line(3), line(7, 1)],
        order_date: '2026-01-20',
        delivery_date: '2026-01-22',
        production_unit_id: unitId,
        mode_of_payment: 'credit',
      }),
    );
    o.push(await placeOrder(t, ws.token, { user_id: ret.id, items: [line(4)], order_date: '2026-02-01' }));
    o.push(await placeOrder(t, ws.token, { user_id: dist.id, items: [line(1, 1)], order_date: '2026-02-05' }));
    const patch = async (id: number, order_status: number) => {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: ws.token, payload: { order_status } });
      expect(res.statusCode, res.body).toBe(200);
    };
    await patch(o[1].id, 2);
    await patch(o[2].id, 2);
    await patch(o[2].id, 3);
    otherOrderId = (
      await placeOrder(t, other.token, {
        user_id: otherCatalog.distributorId,
        items: [{ product_variant_id: otherCatalog.variantIds[0], quantity: 1 }],
        order_date: '2026-01-15',
      })
    ).id;
  });
  afterAll(() => t?.close());

  describe('list', () => {
    it('answers the list shape, newest first, with default pagination', async () => {
      const res = await list('');
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'response_code']);
      expect(body.response_code).toBe(200);
      expect(body.pagination).toEqual({ total: 5, page: 1, limit: 20, total_pages: 1 });
      expect(ids(res)).toEqual([o[4].id, o[3].id, o[2].id, o[1].id, o[0].id]);
      for (const row of body.data) expect(Object.keys(row).sort()).toEqual([...LIST_KEYS].sort());
      const row = body.data.find((r: { id: number }) => r.id === o[2].id);
      expect(row).toEqual({
        id: o[2].id,
        order_code: o[2].order_code,
        order_status: 3,
        order_date: '2026-01-20',
        user_id: dist.id,
        user_name: 'Zephyrine Quastle',
        user_type: 2,
        town_name: 'Nashik',
        route_name: 'Panchavati',
        order_total_amount: 470.5,
        order_items_count: 2,
        production_unit_id: unitId,
        production_unit_name: 'Dairy East',
        delivery_date: '2026-01-22',
        cancelled_at: null,
        cancel_reason: null,
        cancelled_by_user_id: null,
        cancelled_by_api_key_id: null,
        createdAt: o[2].createdAt,
        updatedAt: expect.any(String),
      });
      expect(Date.parse(row.updatedAt)).toBeGreaterThanOrEqual(Date.parse(row.createdAt));
      expect(body.data.find((r: { id: number }) => r.id === o[3].id)).toMatchObject({
        user_name: 'Orlando Brindle',
        user_type: 3,
        town_name: null,
        route_name: null,
        production_unit_id: null,
        production_unit_name: null,
        delivery_date: null,
        order_total_amount: 114,
        order_items_count: 1,
      });
      expect(ids(res)).not.toContain(otherOrderId);
    });

    it('pages through the list without overlap', async () => {
      const p1 = await list('?limit=2');
      const p2 = await list('?limit=2&page=2');
      const p3 = await list('?limit=2&page=3');
      const p4 = await list('?limit=2&page=4');
      expect(p1.json().pagination).toEqual({ total: 5, page: 1, limit: 2, total_pages: 3 });
      expect(p3.json().pagination).toEqual({ total: 5, page: 3, limit: 2, total_pages: 3 });
      expect([...ids(p1), ...ids(p2), ...ids(p3)]).toEqual([o[4].id, o[3].id, o[2].id, o[1].id, o[0].id]);
      expect(ids(p4)).toEqual([]);
      expect(p4.json().pagination).toEqual({ total: 5, page: 4, limit: 2, total_pages: 3 });
      expect((await list('?limit=100')).json().pagination.limit).toBe(100);
    });

    it('refuses bad paging values with 400', async () => {
      await bad('?limit=101', 'limit must be <= 100');
      await bad('?limit=0', 'limit must be >= 1');
      await bad('?limit=abc', /^limit must be an integer/);
      await bad('?page=0', 'page must be >= 1');
      await bad('?page=x', /^page must be an integer/);
    });

    it('filters by status', async () => {
      expect(ids(await list('?status=1'))).toEqual([o[4].id, o[3].id, o[0].id]);
      expect(ids(await list('?status=2'))).toEqual([o[1].id]);
      const approved = await list('?status=3');
      expect(ids(approved)).toEqual([o[2].id]);
      expect(approved.json().pagination.total).toBe(1);
      expect(ids(await list('?status=4'))).toEqual([]);
      await bad('?status=5', /^status /);
      await bad('?status=0', /^status /);
      await bad('?status=abc', /^status /);
    });

    it('filters by order date, both ends inclusive', async () => {
      expect(ids(await list('?date_from=2026-01-15&date_to=2026-02-01'))).toEqual([o[3].id, o[2].id, o[1].id]);
      expect(ids(await list('?date_from=2026-01-20'))).toEqual([o[4].id, o[3].id, o[2].id]);
      expect(ids(await list('?date_to=2026-01-15'))).toEqual([o[1].id, o[0].id]);
      expect(ids(await list('?date_from=2026-01-10&date_to=2026-01-10'))).toEqual([o[0].id]);
      expect(ids(await list('?date_from=2026-03-01'))).toEqual([]);
      await bad('?date_from=2026-13-01', /^date_from /);
      await bad('?date_to=yesterday', /^date_to /);
      await bad('?date_from=2026-02-30', /^date_from /);
      await bad('?date_from=2026-02-01&date_to=2026-01-31', /^date_from /);
    });

    it('filters by customer', async () => {
      expect(ids(await list(`?user_id=${dist.id}`))).toEqual([o[4].id, o[2].id, o[0].id]);
      expect(ids(await list(`?user_id=${ret.id}&status=2`))).toEqual([o[1].id]);
      expect(ids(await list('?user_id=99999999'))).toEqual([]);
      await bad('?user_id=abc', /^user_id /);
    });

    it('searches order codes and customer names', async () => {
      const code = String(o[2].order_code);
      expect(ids(await list(`?search=${code.slice(-6)}`))).toEqual([o[2].id]);
      expect(ids(await list(`?search=${code.toLowerCase()}`))).toEqual([o[2].id]);
      expect(ids(await list('?search=ORD-2026'))).toHaveLength(5);
      expect(ids(await list('?search=zephyr'))).toEqual([o[4].id, o[2].id, o[0].id]);
      expect(ids(await list('?search=Brindle'))).toEqual([o[3].id, o[1].id]);
      expect(ids(await list('?search=copper'))).toEqual([o[3].id, o[1].id]);
      expect(ids(await list('?search=Nimbus%20Mart'))).toEqual([o[4].id, o[2].id, o[0].id]);
      expect(ids(await list('?search=Zephyrine%20Quastle'))).toEqual([o[4].id, o[2].id, o[0].id]);
      expect(ids(await list('?search=orlando%20brindle&status=1'))).toEqual([o[3].id]);
      const none = await list('?search=Zephyrine%20Brindle');
      expect(none.json()).toEqual({ response_code: 200, data: [], pagination: { total: 0, page: 1, limit: 20, total_pages: 0 } });
      expect(ids(await list('?search=nomatchatall'))).toEqual([]);
      expect(ids(await list('?search=%25'))).toEqual([]);
    });

    it('answers 401 without a token', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/orders' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
    });
  });

  describe('single order', () => {
    it('answers the detail shape with priced items, customer, delivery and history', async () => {
      const res = await get(`/api/v1/orders/${o[2].id}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'response_code']);
      expect(body.response_code).toBe(200);
      const d = body.data;
      expect(Object.keys(d).sort()).toEqual(DETAIL_KEYS);
      expect(d).toMatchObject({
        id: o[2].id,
        order_code: o[2].order_code,
        order_status: 3,
        order_date: '2026-01-20',
        user_id: dist.id,
        user_name: 'Zephyrine Quastle',
        user_type: 2,
        town_name: 'Nashik',
        route_name: 'Panchavati',
        order_total_amount: 470.5,
        order_items_count: 2,
        production_unit_id: unitId,
        production_unit_name: 'Dairy East',
        delivery_date: '2026-01-22',
        mode_of_payment: 'credit',
      });
      expect(d.items).toHaveLength(2);
      for (const item of d.items) {
        expect(Object.keys(item).sort()).toEqual(
          ['amount', 'discount_amount', 'id', 'item_sku_code', 'product_id', 'product_name', 'product_variant_id', 'quantity', 'scheme_id', 'unit_price', 'variant_name'].sort(),
        );
      }
      expect(d.items[0]).toMatchObject({
        product_variant_id: catalog.variantIds[0],
        variant_name: '500 ml',
        item_sku_code: expect.stringMatching(/^TM-500-/),
        product_id: catalog.productId,
        product_name: expect.stringMatching(/^Toned Milk /),
        quantity: 3,
        unit_price: 28.5,
        amount: 85.5,
      });
      expect(d.items[1]).toMatchObject({ product_variant_id: catalog.variantIds[1], variant_name: '1 l', quantity: 7, unit_price: 55, amount: 385 });
      expect(d.user).toEqual({
        id: dist.id,
        first_name: 'Zephyrine',
        last_name: 'Quastle',
        store_name: 'Nimbus Mart',
        primary_contact_number: expect.stringMatching(/^\+91\d+$/),
        official_email: expect.stringMatching(/@example\.test$/),
        user_type: 2,
        town_name: 'Nashik',
        route_name: 'Panchavati',
      });
      expect(d.delivery).toEqual({
        delivery_date: '2026-01-22',
        delivered_at: null,
        production_unit_id: unitId,
        production_unit_name: 'Dairy East',
        town_name: 'Nashik',
        route_name: 'Panchavati',
      });
      expect(d.status_history.map((h: Record<string, unknown>) => [h.from_status, h.to_status, h.changed_by_user_id, h.changed_by_api_key_id])).toEqual([
        [null, 1, ws.adminId, null],
        [1, 2, ws.adminId, null],
        [2, 3, ws.adminId, null],
      ]);
      for (const h of d.status_history) expect(new Date(h.changed_at).toISOString()).toBe(h.changed_at);
    });

    it('never shows the delivery OTP after creation', async () => {
      expect(o[0].delivery_otp).toMatch(/^\d{6}$/);
      for (const order of o) {
        const res = await get(`/api/v1/orders/${order.id}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).not.toHaveProperty('delivery_otp');
        expect(res.body).not.toContain('otp');
      }
      expect((await list('')).body).not.toContain('otp');
    });

    it('answers 404 for an unknown id and for another workspace order', async () => {
      for (const id of [99_999_999, otherOrderId]) {
        const res = await get(`/api/v1/orders/${id}`);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({ response_code: 404, message: expect.any(String) });
      }
      expect((await get(`/api/v1/orders/${otherOrderId}`, other.token)).statusCode).toBe(200);
    });

    it('answers 400 for id 0 and a non-numeric id', async () => {
      for (const id of ['0', 'abc', '-1', '1.5']) {
        const res = await get(`/api/v1/orders/${id}`);
        expect(res.statusCode, `${id}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^id /)));
      }
    });
  });

  describe('customer visibility', () => {
    it('a distributor lists only their own orders', async () => {
      const res = await list('', dist.token);
      expect(ids(res)).toEqual([o[4].id, o[2].id, o[0].id]);
      expect(res.json().pagination.total).toBe(3);
      const foreign = await list(`?user_id=${ret.id}`, dist.token);
      expect(ids(foreign)).toEqual([]);
      expect(foreign.json().pagination.total).toBe(0);
      expect(ids(await list(`?user_id=${dist.id}`, dist.token))).toEqual([o[4].id, o[2].id, o[0].id]);
      expect(ids(await list('?search=Brindle', dist.token))).toEqual([]);
      expect(ids(await list('?status=2', dist.token))).toEqual([]);
    });

    it('a retailer lists only their own orders', async () => {
      expect(ids(await list('', ret.token))).toEqual([o[3].id, o[1].id]);
    });

    it("a customer reads their own order and gets 404 for another customer's", async () => {
      const own = await get(`/api/v1/orders/${o[0].id}`, dist.token);
      expect(own.statusCode).toBe(200);
      expect(own.json().data.user_id).toBe(dist.id);
      for (const id of [o[1].id, o[3].id, otherOrderId]) {
        const res = await get(`/api/v1/orders/${id}`, dist.token);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({ response_code: 404, message: expect.any(String) });
      }
      expect((await get(`/api/v1/orders/${o[0].id}`, ret.token)).statusCode).toBe(404);
    });
  });
});

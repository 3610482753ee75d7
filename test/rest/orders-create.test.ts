import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import {
  createProduct,
  createUser,
  createWorkspace,
  placeOrder,
  seedCatalog,
  signIn,
  unique,
  type Catalog,
  type Workspace,
} from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

const CREATED_KEYS = [
  'createdAt',
  'delivery_date',
  'delivery_otp',
  'id',
  'order_code',
  'order_date',
  'order_items_count',
  'order_status',
  'order_total_amount',
  'user_id',
  'user_name',
].sort();

const todayUtc = () => new Date().toISOString().slice(0, 10);

describe('POST /api/v1/orders', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;
  let otherCatalog: Catalog;
  let employee: { id: number; token: string };
  let retailerToken: string;
  let townId: number;
  let routeId: number;
  let placedCustomer: { id: number; body: Record<string, unknown> };
  let unitId: number;
  let inactiveUnitId: number;
  let otherUnitId: number;
  let inactiveVariantId: number;
  let inactiveCustomerId: number;
  let dustVariantIds: number[];

  const post = (payload: unknown, token = ws.token) =>
    t.request({ method: 'POST', url: '/api/v1/orders', token, payload: payload as Record<string, unknown> });

  const orderTotal = async (w: Workspace = ws): Promise<number> => {
    const res = await t.request({ method: 'GET', url: '/api/v1/orders?limit=1', token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().pagination.total;
  };

  const detail = async (id: number, token = ws.token) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/orders/${id}`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  const master = async (w: Workspace, kind: string, payload: Record<string, unknown>): Promise<number> => {
    const res = await t.request({ method: 'POST', url: `/api/v1/masters/${kind}`, token: w.token, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    otherCatalog = await seedCatalog(t, other);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    retailerToken = await signIn(t, ws, catalog.retailerId);

    townId = await master(ws, 'towns', { town_name: 'Pune' });
    routeId = await master(ws, 'routes', { route_name: 'Kothrud Beat', town_id: townId });
    placedCustomer = await createUser(t, ws, UserType.RETAILER, { town_id: townId, route_id: routeId });
    unitId = await master(ws, 'production-units', { production_unit_name: 'Plant North' });
    inactiveUnitId = await master(ws, 'production-units', { production_unit_name: 'Plant Closed', status: 0 });
    otherUnitId = await master(other, 'production-units', { production_unit_name: 'Other Plant' });

    const n = unique();
    const { variantIds: ids } = await createProduct(t, ws, {
      product_name: `Candy ${n}`,
      product_class_id: catalog.productClassId,
      variants: [
        { variant_name: 'tiny', item_sku_code: `C-01-${n}`, mrp: 1, sp: 0.1 },
        { variant_name: 'small', item_sku_code: `C-02-${n}`, mrp: 1, sp: 0.2 },
        { variant_name: 'retired', item_sku_code: `C-03-${n}`, mrp: 1, sp: 0.5 },
      ],
    });
    dustVariantIds = ids.slice(0, 2);
    inactiveVariantId = ids[2];
    const conn = t.orm.em.fork().getConnection();
    await conn.execute('update product_variant set status = 0 where id = ?', [inactiveVariantId]);

    inactiveCustomerId = (await createUser(t, ws, UserType.DISTRIBUTOR)).id;
    await conn.execute('update app_user set status = 0 where id = ?', [inactiveCustomerId]);
  });
  afterAll(() => t?.close());

  it('answers 201 with the created order, priced at the variants selling prices', async () => {
    const before = await orderTotal();
    const res = await post({
      user_id: catalog.distributorId,
      items: [
        { product_variant_id: catalog.variantIds[0], quantity: 3 },
        { product_variant_id: catalog.variantIds[1], quantity: 7 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'response_code']);
    expect(body.response_code).toBe(201);
    expect(body.message).toEqual(expect.any(String));
    const data = body.data;
    expect(Object.keys(data).sort()).toEqual(CREATED_KEYS);
    expect(data).toMatchObject({
      id: expect.any(Number),
      order_status: 1,
      user_id: catalog.distributorId,
      order_total_amount: 470.5,
      order_items_count: 2,
      delivery_date: null,
    });
    expect(data.order_code).toMatch(new RegExp(`^ORD-${data.order_date.slice(0, 4)}-\\d{6}$`));
    expect(data.delivery_otp).toMatch(/^\d{6}$/);
    expect(data.user_name).toMatch(/^User\d+ Distributor$/);
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(await orderTotal()).toBe(before + 1);

    const stored = await detail(data.id);
    expect(stored.order_total_amount).toBe(470.5);
    expect(stored.order_items_count).toBe(2);
    expect(stored.items.map((i: Record<string, unknown>) => [i.product_variant_id, i.quantity, i.unit_price, i.amount])).toEqual([
      [catalog.variantIds[0], 3, 28.5, 85.5],
      [catalog.variantIds[1], 7, 55, 385],
    ]);
  });

  it('sums in paise: 0.1 + 0.2 is exactly 0.3', async () => {
    const order = await placeOrder(t, ws.token, {
      user_id: catalog.retailerId,
      items: [
        { product_variant_id: dustVariantIds[0], quantity: 1 },
        { product_variant_id: dustVariantIds[1], quantity: 1 },
      ],
    });
    expect(order.order_total_amount).toBe(0.3);
    expect((await detail(order.id)).order_total_amount).toBe(0.3);
    const many = await placeOrder(t, ws.token, {
      user_id: catalog.retailerId,
      items: [{ product_variant_id: dustVariantIds[0], quantity: 3 }],
    });
    expect(many.order_total_amount).toBe(0.3);
  });

  it('numbers orders sequentially per workspace, each workspace starting at 000001', async () => {
    const t2 = await buildTestApp();
    try {
      const a = await createWorkspace(t2);
      const b = await createWorkspace(t2);
      const ca = await seedCatalog(t2, a);
      const cb = await seedCatalog(t2, b);
      const line = (c: Catalog) => ({ user_id: c.distributorId, items: [{ product_variant_id: c.variantIds[0], quantity: 1 }] });
      const a1 = await placeOrder(t2, a.token, { ...line(ca), order_date: '2026-03-01' });
      const a2 = await placeOrder(t2, a.token, { ...line(ca), order_date: '2026-03-02' });
      const b1 = await placeOrder(t2, b.token, { ...line(cb), order_date: '2026-03-01' });
      const a3 = await placeOrder(t2, a.token, { ...line(ca), order_date: '2025-12-31' });
      const b2 = await placeOrder(t2, b.token, { ...line(cb), order_date: '2027-01-01' });
      expect([a1, a2, a3].map((o) => o.order_code)).toEqual(['ORD-2026-000001', 'ORD-2026-000002', 'ORD-2025-000003']);
      expect([b1, b2].map((o) => o.order_code)).toEqual(['ORD-2026-000001', 'ORD-2027-000002']);
      const list = await t2.request({ method: 'GET', url: '/api/v1/orders', token: a.token });
      const codes = list.json().data.map((o: { order_code: string }) => o.order_code);
      expect(new Set(codes).size).toBe(3);
    } finally {
      await t2.close();
    }
  });

  describe('rejects bad input with 400 naming the field, and creates nothing', () => {
    const line = (quantity: unknown = 1, variant?: unknown) => ({ product_variant_id: variant ?? catalog.variantIds[0], quantity });
    const cases: Array<[string, () => Record<string, unknown>, string | RegExp]> = [
      ['items missing', () => ({ user_id: catalog.distributorId }), 'items is required'],
      ['items empty', () => ({ user_id: catalog.distributorId, items: [] }), /^items must have at least 1 item/],
      ['items not an array', () => ({ user_id: catalog.distributorId, items: 'x' }), /^items must be an array/],
      ['user_id missing', () => ({ items: [line()] }), 'user_id is required'],
      ['user_id as a string', () => ({ user_id: String(catalog.distributorId), items: [line()] }), /^user_id must be an integer/],
      ['quantity 0', () => ({ user_id: catalog.distributorId, items: [line(0)] }), 'items[0].quantity must be >= 1'],
      ['quantity negative', () => ({ user_id: catalog.distributorId, items: [line(-2)] }), 'items[0].quantity must be >= 1'],
      ['quantity as a string', () => ({ user_id: catalog.distributorId, items: [line('2')] }), /^items\[0\]\.quantity must be an integer/],
      ['quantity fractional', () => ({ user_id: catalog.distributorId, items: [line(1.5)] }), /^items\[0\]\.quantity must be an integer/],
      ['quantity missing', () => ({ user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0] }] }), 'items[0].quantity is required'],
      [
        'repeated variant',
        () => ({ user_id: catalog.distributorId, items: [line(1), line(2, catalog.variantIds[1]), line(3)] }),
        /^items\[2\]\.product_variant_id /,
      ],
      ['unknown variant', () => ({ user_id: catalog.distributorId, items: [line(1, 99_999_999)] }), /^items\[0\]\.product_variant_id /],
      [
        'inactive variant',
        () => ({ user_id: catalog.distributorId, items: [line(1), line(1, inactiveVariantId)] }),
        /^items\[1\]\.product_variant_id /,
      ],
      [
        "another workspace's variant",
        () => ({ user_id: catalog.distributorId, items: [line(1, otherCatalog.variantIds[0])] }),
        /^items\[0\]\.product_variant_id /,
      ],
      ['admin as customer', () => ({ user_id: ws.adminId, items: [line()] }), /^user_id /],
      ['employee as customer', () => ({ user_id: employee.id, items: [line()] }), /^user_id /],
      ['inactive customer', () => ({ user_id: inactiveCustomerId, items: [line()] }), /^user_id /],
      ['unknown customer', () => ({ user_id: 99_999_999, items: [line()] }), /^user_id /],
      ["another workspace's customer", () => ({ user_id: otherCatalog.distributorId, items: [line()] }), /^user_id /],
      [
        'delivery_date before order_date',
        () => ({ user_id: catalog.distributorId, items: [line()], order_date: '2026-05-10', delivery_date: '2026-05-09' }),
        /^delivery_date /,
      ],
      ['order_date 2026-02-30', () => ({ user_id: catalog.distributorId, items: [line()], order_date: '2026-02-30' }), /^order_date /],
      ['order_date not a date', () => ({ user_id: catalog.distributorId, items: [line()], order_date: '10/05/2026' }), /^order_date /],
      ['delivery_date 2026-13-01', () => ({ user_id: catalog.distributorId, items: [line()], delivery_date: '2026-13-01' }), /^delivery_date /],
      ['unknown production unit', () => ({ user_id: catalog.distributorId, items: [line()], production_unit_id: 99_999_999 }), /^production_unit_id /],
      ['inactive production unit', () => ({ user_id: catalog.distributorId, items: [line()], production_unit_id: inactiveUnitId }), /^production_unit_id /],
      ["another workspace's production unit", () => ({ user_id: catalog.distributorId, items: [line()], production_unit_id: otherUnitId }), /^production_unit_id /],
      ['unknown mode_of_payment', () => ({ user_id: catalog.distributorId, items: [line()], mode_of_payment: 'bitcoin' }), /^mode_of_payment /],
      ['mode_of_payment in capitals', () => ({ user_id: catalog.distributorId, items: [line()], mode_of_payment: 'CASH' }), /^mode_of_payment /],
    ];

    it.each(cases)('%s', async (_name, payload, message) => {
      const before = await orderTotal();
      const res = await post(payload());
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['errors', 'message', 'response_code']);
      expect(body.response_code).toBe(400);
      expect(body.errors[0].message).toBe(body.message);
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
      expect(await orderTotal()).toBe(before);
    });

    it('a bad mode_of_payment message lists the accepted values', async () => {
      const res = await post({ user_id: catalog.distributorId, items: [line()], mode_of_payment: 'bitcoin' });
      expect(res.statusCode).toBe(400);
      for (const mode of ['cash', 'credit', 'upi', 'card', 'bank_transfer', 'cheque']) expect(res.json().message).toContain(mode);
    });
  });

  describe('customers', () => {
    it('a distributor orders for themself', async () => {
      const order = await placeOrder(t, catalog.distributorToken, {
        user_id: catalog.distributorId,
        items: [{ product_variant_id: catalog.variantIds[1], quantity: 2 }],
      });
      expect(order.user_id).toBe(catalog.distributorId);
      expect(order.order_total_amount).toBe(110);
      expect((await detail(order.id, catalog.distributorToken)).user_id).toBe(catalog.distributorId);
    });

    it('a retailer orders for themself', async () => {
      const order = await placeOrder(t, retailerToken, {
        user_id: catalog.retailerId,
        items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
      });
      expect(order.user_id).toBe(catalog.retailerId);
    });

    it('a customer may not order for someone else (400 on user_id), and nothing is created', async () => {
      for (const [token, target] of [
        [catalog.distributorToken, catalog.retailerId],
        [retailerToken, catalog.distributorId],
        [catalog.distributorToken, ws.adminId],
      ] as const) {
        const before = await orderTotal();
        const res = await post({ user_id: target, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] }, token);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^user_id /)));
        expect(await orderTotal()).toBe(before);
      }
    });

    it('an employee may order for any customer', async () => {
      const order = await placeOrder(t, employee.token, {
        user_id: catalog.retailerId,
        items: [{ product_variant_id: catalog.variantIds[0], quantity: 4 }],
      });
      expect(order.user_id).toBe(catalog.retailerId);
      expect(order.order_total_amount).toBe(114);
    });
  });

  it('copies town and route from the customer', async () => {
    const order = await placeOrder(t, ws.token, {
      user_id: placedCustomer.id,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
    });
    const d = await detail(order.id);
    expect(d).toMatchObject({ town_name: 'Pune', route_name: 'Kothrud Beat' });
    expect(d.delivery).toMatchObject({ town_name: 'Pune', route_name: 'Kothrud Beat' });
    expect(d.user).toMatchObject({ id: placedCustomer.id, town_name: 'Pune', route_name: 'Kothrud Beat' });
    const list = await t.request({ method: 'GET', url: `/api/v1/orders?user_id=${placedCustomer.id}`, token: ws.token });
    expect(list.json().data.map((o: Record<string, unknown>) => [o.id, o.town_name, o.route_name])).toEqual([
      [order.id, 'Pune', 'Kothrud Beat'],
    ]);

    const plain = await placeOrder(t, ws.token, {
      user_id: catalog.distributorId,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
    });
    expect(await detail(plain.id)).toMatchObject({ town_name: null, route_name: null });
  });

  it('stores the production unit and mode of payment extensions', async () => {
    const order = await placeOrder(t, ws.token, {
      user_id: catalog.distributorId,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
      production_unit_id: unitId,
      mode_of_payment: 'upi',
    });
    const d = await detail(order.id);
    expect(d).toMatchObject({ production_unit_id: unitId, production_unit_name: 'Plant North', mode_of_payment: 'upi' });
    expect(d.delivery).toMatchObject({ production_unit_id: unitId, production_unit_name: 'Plant North' });
    const row = (await t.request({ method: 'GET', url: '/api/v1/orders?limit=100', token: ws.token }))
      .json()
      .data.find((o: { id: number }) => o.id === order.id);
    expect(row).toMatchObject({ production_unit_id: unitId, production_unit_name: 'Plant North' });
    expect(row).not.toHaveProperty('mode_of_payment');

    const without = await placeOrder(t, ws.token, {
      user_id: catalog.distributorId,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
    });
    expect(await detail(without.id)).toMatchObject({ production_unit_id: null, production_unit_name: null, mode_of_payment: null });
  });

  it('accepts every payment mode', async () => {
    for (const mode of ['cash', 'credit', 'upi', 'card', 'bank_transfer', 'cheque']) {
      const order = await placeOrder(t, ws.token, {
        user_id: catalog.retailerId,
        items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
        mode_of_payment: mode,
      });
      expect((await detail(order.id)).mode_of_payment).toBe(mode);
    }
  });

  it('defaults order_date to the workspace’s local day (its time_zone), not the UTC day', async () => {
    const local = await createWorkspace(t);
    const localCatalog = await seedCatalog(t, local);
    // A zone whose date differs from UTC's right now (UTC+14 from 10:00 UTC, else UTC−11).
    const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const localToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    expect(localToday()).not.toBe(todayUtc());
    const set = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: local.token, payload: { time_zone: zone } });
    expect(set.statusCode, set.body).toBe(200);
    const before = localToday();
    const order = await placeOrder(t, local.token, { user_id: localCatalog.distributorId, items: [{ product_variant_id: localCatalog.variantIds[0], quantity: 1 }] });
    expect([before, localToday()]).toContain(order.order_date);
  });

  it('defaults order_date to today (UTC, the default time zone) and keeps explicit dates', async () => {
    const before = todayUtc();
    const order = await placeOrder(t, ws.token, {
      user_id: catalog.distributorId,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
    });
    expect([before, todayUtc()]).toContain(order.order_date);
    expect(order.order_code).toMatch(new RegExp(`^ORD-${String(order.order_date).slice(0, 4)}-\\d{6}$`));

    const explicit = await placeOrder(t, ws.token, {
      user_id: catalog.distributorId,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
      order_date: '2024-02-29',
      delivery_date: '2024-03-02',
    });
    expect(explicit).toMatchObject({ order_date: '2024-02-29', delivery_date: '2024-03-02' });
    expect(explicit.order_code).toMatch(/^ORD-2024-\d{6}$/);
    const d = await detail(explicit.id);
    expect(d).toMatchObject({ order_date: '2024-02-29', delivery_date: '2024-03-02' });
    expect(d.delivery.delivery_date).toBe('2024-03-02');

    const sameDay = await placeOrder(t, ws.token, {
      user_id: catalog.distributorId,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
      order_date: '2026-06-01',
      delivery_date: '2026-06-01',
    });
    expect(sameDay).toMatchObject({ order_date: '2026-06-01', delivery_date: '2026-06-01' });
  });

  it('answers 401 without a token, with a bad token and with an ended token, creating nothing', async () => {
    const staff = await createUser(t, ws, UserType.EMPLOYEE);
    const ended = staff.token;
    await signIn(t, ws, staff.id); // a new session ends the previous token
    const payload = { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] };
    const before = await orderTotal();
    for (const token of [undefined, 'not-a-token', ended]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/orders', token, payload });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
    }
    expect(await orderTotal()).toBe(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** FOC requests: submitted → approved | rejected → fulfilled (a zero-priced order, once) | cancelled. */
describe('foc requests', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  type Who = { token?: string; apiKey?: string };
  let employee: Who & { id: number };
  let other: Who & { id: number };
  let admin2: Who & { id: number };
  const as = ({ token, apiKey }: Who) => (apiKey ? { apiKey } : { token });
  const req = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url: `/api/v1${url}`, ...as(who), ...(payload ? { payload } : {}) });
  const adminOf = () => ({ token: ws.token });
  const today = () => new Date().toISOString().slice(0, 10);
  const body = (extra: object = {}) => ({ customer_id: cat.distributorId, reason: 2, remarks: 'Soured crate', items: [{ product_variant_id: cat.variantIds[0], quantity: 2 }], ...extra });
  const submit = async (who: Who, extra: object = {}) => {
    const res = await req(who, 'POST', '/foc/requests', body(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  /** A request approved by the second admin (the default policy: one tier, any administrator). */
  const approved = async (who: Who) => {
    const foc = await submit(who);
    expect((await req(admin2, 'POST', `/approvals/${foc.approval_id}/approve`)).statusCode).toBe(200);
    return foc;
  };
  const total = async () => (await req(adminOf(), 'GET', '/foc/requests')).json().pagination.total;

  beforeAll(async () => {
    // A webhook receiver's host resolves to a public address (the events test subscribes one).
    t = await buildTestApp({}, { resolveHost: async () => [{ address: '93.184.216.34', family: 4 }] });
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    other = await createUser(t, ws, UserType.EMPLOYEE);
    admin2 = await createUser(t, ws, UserType.ADMIN);
  });
  afterAll(() => t.close());

  it('submits with unit costs defaulting to the variant’s selling price, and asks for approval', async () => {
    const res = await req(employee, 'POST', '/foc/requests', body({ items: [{ product_variant_id: cat.variantIds[0], quantity: 2 }, { product_variant_id: cat.variantIds[1], quantity: 3, unit_cost: 40.1 }] }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      response_code: 201,
      message: 'FOC request submitted',
      data: {
        id: expect.any(Number),
        customer_id: cat.distributorId,
        requested_by_user_id: employee.id,
        reason: 2,
        remarks: 'Soured crate',
        total_cost: 177.3, // 2 × 28.50 + 3 × 40.10
        status: 1,
        approval_id: expect.any(Number),
        fulfilled_order_id: null,
        fulfilled_at: null,
        cancelled_at: null,
        created_at: expect.any(String),
        items: [
          { product_variant_id: cat.variantIds[0], quantity: 2, unit_cost: 28.5, amount: 57 },
          { product_variant_id: cat.variantIds[1], quantity: 3, unit_cost: 40.1, amount: 120.3 },
        ],
      },
    });
    const approval = (await req(adminOf(), 'GET', `/approvals/${res.json().data.approval_id}`)).json().data;
    expect(approval).toMatchObject({ kind: 'foc', entity_id: res.json().data.id, amount: 177.3, requested_by_user_id: employee.id, status: 1 });
  });

  it('refuses bad input naming the field, writing nothing', async () => {
    const before = await total();
    const cases: Array<[object, string]> = [
      [{ customer_id: employee.id }, 'customer_id'],
      [{ reason: 9 }, 'reason'],
      [{ items: [] }, 'items'],
      [{ items: [{ product_variant_id: 999999, quantity: 1 }] }, 'items[0].product_variant_id'],
      [{ items: [{ product_variant_id: cat.variantIds[0], quantity: 1 }, { product_variant_id: cat.variantIds[0], quantity: 2 }] }, 'items[1].product_variant_id'],
      [{ items: [{ product_variant_id: cat.variantIds[0], quantity: 0 }] }, 'items[0].quantity'],
      [{ items: [{ product_variant_id: cat.variantIds[0], quantity: 1, unit_cost: 1.234 }] }, 'items[0].unit_cost'],
      [{ remarks: 'x'.repeat(501) }, 'remarks'],
    ];
    for (const [extra, field] of cases) {
      const res = await req(adminOf(), 'POST', '/foc/requests', body(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().errors[0].field, JSON.stringify(extra)).toBe(field);
    }
    const bad = await req(adminOf(), 'GET', `/foc/requests?date_from=${today()}&date_to=${shiftDay(today(), -1)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('date_from');
    expect(await total()).toBe(before);
  });

  it('fulfils an approved request once, as a zero-priced order of its lines, linked', async () => {
    const foc = await approved(employee);
    expect((await req(employee, 'POST', `/foc/requests/${foc.id}/fulfil`)).statusCode).toBe(403);
    const res = await req(adminOf(), 'POST', `/foc/requests/${foc.id}/fulfil`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 4, fulfilled_order_id: expect.any(Number), fulfilled_at: expect.any(String) });
    const order = (await req(adminOf(), 'GET', `/orders/${data.fulfilled_order_id}`)).json().data;
    expect(order).toMatchObject({ order_total_amount: 0, order_items_count: 1 });
    expect(order.items).toEqual([expect.objectContaining({ quantity: 2, unit_price: 0, amount: 0 })]);
    const again = await req(adminOf(), 'POST', `/foc/requests/${foc.id}/fulfil`);
    expect(again.statusCode).toBe(409);
    expect((await req(adminOf(), 'POST', `/foc/requests/${foc.id}/cancel`)).statusCode).toBe(409);
    const orders = (await req(adminOf(), 'GET', `/orders?user_id=${cat.distributorId}&limit=100`)).json().data;
    expect(orders.filter((o: { id: number }) => o.id === data.fulfilled_order_id)).toHaveLength(1);
    // The approved lines stay: replacing them would price the order.
    const replaced = await t.request({ method: 'PUT', url: `/api/v1/orders/${data.fulfilled_order_id}/items`, token: ws.token, payload: { items: [{ product_variant_id: cat.variantIds[0], quantity: 9 }] } });
    expect(replaced.statusCode, replaced.body).toBe(409);
    expect(replaced.json().message).toMatch(/fulfils FOC request/);
  });

  it('fulfils once under concurrency, and a cancel racing the approval leaves one consistent outcome', async () => {
    const foc = await approved(employee);
    const codes = (await Promise.all([1, 2, 3].map(() => req(adminOf(), 'POST', `/foc/requests/${foc.id}/fulfil`)))).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    const raced = await submit(employee);
    const [approve, cancel] = await Promise.all([req(admin2, 'POST', `/approvals/${raced.approval_id}/approve`), req(employee, 'POST', `/foc/requests/${raced.id}/cancel`)]);
    const final = (await req(adminOf(), 'GET', `/foc/requests/${raced.id}`)).json().data.status;
    const approval = (await req(adminOf(), 'GET', `/approvals/${raced.approval_id}`)).json().data.status;
    // Whichever came first won: approved then cancelled (approval stays approved), or cancelled (approval withdrawn, approve 409).
    expect(cancel.statusCode).toBe(200);
    expect(final).toBe(5);
    expect(approve.statusCode === 200 ? approval === 2 : approve.statusCode === 409 && approval === 4).toBe(true);
  });

  it('fulfils only approved requests (409 while submitted, once rejected)', async () => {
    const foc = await submit(employee);
    expect((await req(adminOf(), 'POST', `/foc/requests/${foc.id}/fulfil`)).statusCode).toBe(409);
    await req(admin2, 'POST', `/approvals/${foc.approval_id}/reject`, { comment: 'No' });
    expect((await req(adminOf(), 'GET', `/foc/requests/${foc.id}`)).json().data.status).toBe(3);
    expect((await req(adminOf(), 'POST', `/foc/requests/${foc.id}/fulfil`)).statusCode).toBe(409);
    expect((await req(employee, 'POST', `/foc/requests/${foc.id}/cancel`)).statusCode).toBe(409);
  });

  it('is cancelled by its requester or an admin before fulfilment, withdrawing a pending approval', async () => {
    const foc = await submit(employee);
    expect((await req(other, 'POST', `/foc/requests/${foc.id}/cancel`)).statusCode).toBe(404); // not theirs
    const res = await req(employee, 'POST', `/foc/requests/${foc.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 5, cancelled_at: expect.any(String) });
    expect((await req(adminOf(), 'GET', `/approvals/${foc.approval_id}`)).json().data).toMatchObject({ status: 4, steps: [{ status: 5 }] });
    expect((await req(admin2, 'GET', '/approvals/inbox?limit=100')).json().data.map((a: { id: number }) => a.id)).not.toContain(foc.approval_id);
    expect((await req(admin2, 'POST', `/approvals/${foc.approval_id}/approve`)).statusCode).toBe(409);
    expect((await req(employee, 'POST', `/foc/requests/${foc.id}/cancel`)).statusCode).toBe(409);
    const ok = await approved(employee);
    expect((await req(adminOf(), 'POST', `/foc/requests/${ok.id}/cancel`)).json().data.status).toBe(5);
  });

  it('lists with filters; employees see their own', async () => {
    const mine = await submit(other, { reason: 3, customer_id: cat.retailerId });
    const list = async (who: Who, q: string) => (await req(who, 'GET', `/foc/requests?limit=100${q}`)).json().data.map((f: { id: number }) => f.id);
    expect(await list(other, '')).toEqual([mine.id]);
    expect(await list(adminOf(), '&reason=3')).toEqual([mine.id]);
    expect(await list(adminOf(), `&customer_id=${cat.retailerId}`)).toEqual([mine.id]);
    expect(await list(adminOf(), '&status=1&reason=3')).toEqual([mine.id]);
    expect(await list(adminOf(), '&status=4&reason=3')).toEqual([]);
    expect(await list(adminOf(), `&reason=3&date_from=${today()}&date_to=${today()}`)).toEqual([mine.id]);
    expect(await list(adminOf(), `&reason=3&date_from=${shiftDay(today(), 1)}`)).toEqual([]);
    const sorted = await req(adminOf(), 'GET', '/foc/requests?sort=-total_cost,id&limit=2');
    expect(sorted.statusCode).toBe(200);
    expect((await req(adminOf(), 'GET', '/foc/requests?sort=nope')).statusCode).toBe(400);
    expect((await req(other, 'GET', `/foc/requests/${mine.id}`)).statusCode).toBe(200);
    expect((await req(employee, 'GET', `/foc/requests/${mine.id}`)).statusCode).toBe(404);
  });

  it('refuses customers (403), answers another workspace 404, and takes API keys of the foc scope', async () => {
    const foc = await submit(employee);
    expect((await req({ token: cat.distributorToken }, 'POST', '/foc/requests', body())).statusCode).toBe(403);
    expect((await req({ token: cat.distributorToken }, 'GET', '/foc/requests')).statusCode).toBe(403);
    expect((await req({ token: cat.distributorToken }, 'GET', `/foc/requests/${foc.id}`)).statusCode).toBe(403);
    const away = await createWorkspace(t);
    for (const [method, url] of [['GET', ''], ['POST', '/cancel'], ['POST', '/fulfil']] as const) {
      expect((await req({ token: away.token }, method, `/foc/requests/${foc.id}${url}`)).statusCode).toBe(404);
    }
    const key = await createApiKey(t, ws, { scopes: 'read,write,foc' });
    const byKey = await req({ apiKey: key.key }, 'POST', '/foc/requests', body());
    expect(byKey.statusCode, byKey.body).toBe(201);
    expect(byKey.json().data.requested_by_user_id).toBeNull();
    expect((await req(adminOf(), 'GET', `/foc/requests/${foc.id}`)).json().data.status).toBe(1);
  });

  it('queues foc_request.approved, .rejected, .fulfilled and .cancelled for subscribed webhooks, in the change’s transaction', async () => {
    const hook = await req(adminOf(), 'POST', '/developer/webhooks', {
      name: 'ERP',
      url: 'https://erp.example.test/hooks',
      events: ['foc_request.approved', 'foc_request.rejected', 'foc_request.fulfilled', 'foc_request.cancelled'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const fulfilled = await approved(employee);
    expect((await req(adminOf(), 'POST', `/foc/requests/${fulfilled.id}/fulfil`)).statusCode).toBe(200);
    const rejected = await submit(employee);
    expect((await req(admin2, 'POST', `/approvals/${rejected.approval_id}/reject`, { comment: 'Over budget' })).statusCode).toBe(200);
    const cancelled = await submit(employee);
    expect((await req(employee, 'POST', `/foc/requests/${cancelled.id}/cancel`)).statusCode).toBe(200);
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ event_type: string; event_data: { id: number; status: number; fulfilled_order_id: number | null } }>>(
        `select event_type, event_data from webhook_delivery where organization_id = ? and event_type like 'foc_request.%' order by id`,
        [ws.organizationId],
      );
    expect(rows.map((r) => [r.event_type, r.event_data.id, r.event_data.status])).toEqual([
      ['foc_request.approved', fulfilled.id, 2],
      ['foc_request.fulfilled', fulfilled.id, 4],
      ['foc_request.rejected', rejected.id, 3],
      ['foc_request.cancelled', cancelled.id, 5],
    ]);
    expect(rows[1].event_data.fulfilled_order_id).toEqual(expect.any(Number));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, unique } from '../helpers/fixtures';
import { query } from '../helpers/tenant-keys';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Schemes: slab discounts and free goods, applied at order creation by the evaluation the preview
 * runs; budgets with a consumption ledger; targeting; stacking and priority; roles and tenancy.
 */
describe('schemes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const q = <T extends Record<string, unknown>>(text: string, params: unknown[]) => query<T>(t.db.url, text, params);
  const today = () => new Date().toISOString().slice(0, 10);
  const day = (offset: number) => shiftDay(today(), offset);

  /** A workspace with a class, products P1 (A sp 10, B sp 20) and P2 (C sp 5.50), two towns, a route and three customers. */
  async function world() {
    const ws = await createWorkspace(t);
    const post = async (url: string, payload: object) => {
      const res = await t.request({ method: 'POST', url: `/api/v1${url}`, token: ws.token, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as number;
    };
    const n = unique();
    const classId = await post('/masters/product-classes', { product_class: `Drinks ${n}`, unit: 'bottle' });
    const p1 = await createProduct(t, ws, {
      product_name: `Cola ${n}`, product_class_id: classId,
      variants: [{ variant_name: '300 ml', item_sku_code: `CA-${n}`, mrp: 12, sp: 10 }, { variant_name: '1 l', item_sku_code: `CB-${n}`, mrp: 22, sp: 20 }],
    });
    const p2 = await createProduct(t, ws, { product_name: `Soda ${n}`, product_class_id: classId, variants: [{ variant_name: '250 ml', item_sku_code: `SC-${n}`, mrp: 6, sp: 5.5 }] });
    const town1 = await post('/masters/towns', { town_name: `North ${n}` });
    const town2 = await post('/masters/towns', { town_name: `South ${n}` });
    const route1 = await post('/masters/routes', { route_name: `R ${n}`, town_id: town1 });
    const d1 = await createUser(t, ws, UserType.DISTRIBUTOR, { town_id: town1, route_id: route1 });
    const r1 = await createUser(t, ws, UserType.RETAILER, { town_id: town2 });
    const d2 = await createUser(t, ws, UserType.DISTRIBUTOR);
    return { ws, classId, p1: p1.id, p2: p2.id, A: p1.variantIds[0], B: p1.variantIds[1], C: p2.variantIds[0], town1, town2, route1, d1, r1, d2 };
  }
  type World = Awaited<ReturnType<typeof world>>;

  const scheme = (w: World, extra: object) => ({
    name: 'Scheme', code: `S${unique()}`, kind: 2, target_kind: 1, target_id: w.A, valid_from: day(-1), slabs: [{ min_qty: 10, free_qty: 1 }], ...extra,
  });
  const createScheme = async (w: World, extra: object): Promise<number> => {
    const res = await t.request({ method: 'POST', url: '/api/v1/schemes', token: w.ws.token, payload: scheme(w, extra) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  };
  const items = (lines: Array<[number, number]>) => lines.map(([v, q]) => ({ product_variant_id: v, quantity: q }));
  const preview = async (w: World, customer: number, lines: Array<[number, number]>, token = w.ws.token) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/schemes/preview', token, payload: { customer_id: customer, items: items(lines) } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const order = async (w: World, customer: number, lines: Array<[number, number]>) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/orders', token: w.ws.token, payload: { user_id: customer, items: items(lines) } });
    expect(res.statusCode, res.body).toBe(201);
    const got = await t.request({ method: 'GET', url: `/api/v1/orders/${res.json().data.id}`, token: w.ws.token });
    return got.json().data;
  };
  const freeOf = (p: { free_lines: Array<{ quantity: number; scheme_id: number }> }, id: number) =>
    p.free_lines.filter((f) => f.scheme_id === id).reduce((s, f) => s + f.quantity, 0);
  const outcome = (p: { schemes: Array<{ scheme_id: number }> }, id: number) => p.schemes.find((s) => s.scheme_id === id) as Record<string, any>;

  it('gives whole free units that follow the slabs up and down; recursion only when the slab says so', async () => {
    const w = await world();
    const rec = await createScheme(w, { slabs: [{ min_qty: 10, free_qty: 1, recursive: true }] });
    const once = await createScheme(w, { target_id: w.C, slabs: [{ min_qty: 10, free_qty: 1 }, { min_qty: 20, free_qty: 3 }] });
    const at = async (q: number) => preview(w, w.d1.id, [[w.A, q], [w.C, q]]);
    const p9 = await at(9);
    expect(p9.free_lines).toEqual([]);
    expect(outcome(p9, rec)).toMatchObject({ applied: false, reason: 'below_first_slab', next: { add_quantity: 1, min_qty: 10, message: 'add 1 more for 1 free per 10' } });
    const p15 = await at(15);
    expect(freeOf(p15, rec)).toBe(1); // buy 10 get 1, recursive, at 15: 1, never 1.5
    expect(outcome(p15, rec).next).toMatchObject({ add_quantity: 5, message: 'add 5 more for 1 more free' });
    expect(freeOf(p15, once)).toBe(1);
    expect(outcome(p15, once).next).toMatchObject({ add_quantity: 5, min_qty: 20, message: 'add 5 more for 3 free' });
    const p20 = await at(20);
    expect(freeOf(p20, rec)).toBe(2);
    expect(freeOf(p20, once)).toBe(3);
    const p45 = await at(45);
    expect(freeOf(p45, rec)).toBe(4);
    expect(freeOf(p45, once)).toBe(3); // not recursive: the top slab's free_qty, once
    expect(p45.total).toBe(45 * 10 + 45 * 5.5);

    // The order of 15 is what the preview said; down to 9 by an edit, the free lines go.
    const placed = await order(w, w.d1.id, [[w.A, 15], [w.C, 15]]);
    const free = placed.items.filter((i: { scheme_id: number | null }) => i.scheme_id !== null);
    expect(free.map((i: any) => [i.product_variant_id, i.quantity, i.unit_price, i.amount, i.scheme_id]).sort()).toEqual(
      [[w.A, 1, 0, 0, rec], [w.C, 1, 0, 0, once]].sort(),
    );
    expect(placed.order_total_amount).toBe(p15.total);
    expect(placed.order_items_count).toBe(4);
    const edit = await t.request({ method: 'PUT', url: `/api/v1/orders/${placed.id}/items`, token: w.ws.token, payload: { items: items([[w.A, 9], [w.C, 25]]) } });
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = edit.json().data;
    expect(edited.items.filter((i: any) => i.scheme_id !== null).map((i: any) => [i.product_variant_id, i.quantity, i.scheme_id])).toEqual([[w.C, 3, once]]);
  });

  it('discounts per line by slab, rounds half-up once per line, and re-evaluates on edit; preview equals the order', async () => {
    const w = await world();
    const pct = await createScheme(w, { kind: 1, target_kind: 2, target_id: w.p1, slabs: [{ min_qty: 10, discount_percent: 2.5 }, { min_qty: 20, discount_percent: 10 }] });
    const amt = await createScheme(w, { kind: 1, target_kind: 1, target_id: w.C, slabs: [{ min_qty: 3, discount_amount: 0.25 }] });
    const lines: Array<[number, number]> = [[w.A, 7], [w.B, 3], [w.C, 3]];
    const p = await preview(w, w.d1.id, lines);
    // Product P1: 7 + 3 = 10 units reach 2.5%: A 70.00 → 1.75; B 60.00 → 1.50. C: 0.25 × 3.
    expect(p.lines).toEqual([
      { product_variant_id: w.A, quantity: 7, unit_price: 10, gross_amount: 70, discount_amount: 1.75, amount: 68.25, scheme_ids: [pct] },
      { product_variant_id: w.B, quantity: 3, unit_price: 20, gross_amount: 60, discount_amount: 1.5, amount: 58.5, scheme_ids: [pct] },
      { product_variant_id: w.C, quantity: 3, unit_price: 5.5, gross_amount: 16.5, discount_amount: 0.75, amount: 15.75, scheme_ids: [amt] },
    ]);
    expect(p).toMatchObject({ gross_total: 146.5, discount_total: 4, total: 142.5 });
    const placed = await order(w, w.d1.id, lines);
    expect(placed.order_total_amount).toBe(142.5);
    expect(placed.items.map((i: any) => [i.product_variant_id, i.unit_price, i.discount_amount, i.amount, i.scheme_id])).toEqual(
      p.lines.map((l: any) => [l.product_variant_id, l.unit_price, l.discount_amount, l.amount, null]),
    );
    // Half-up on the line, once: 2.5% of C 5.50 × 2 = 11.00 is 0.275 → 0.28 (a class-wide 2.5% scheme).
    await createScheme(w, { kind: 1, target_kind: 3, target_id: w.classId, priority: 1, slabs: [{ min_qty: 2, discount_percent: 2.5 }] });
    const odd = await preview(w, w.d1.id, [[w.C, 2]]);
    expect(odd.lines[0]).toMatchObject({ gross_amount: 11, discount_amount: 0.28, amount: 10.72 });
    await t.request({ method: 'PATCH', url: `/api/v1/schemes/${(await preview(w, w.d1.id, [[w.C, 2]])).lines[0].scheme_ids[0]}`, token: w.ws.token, payload: { status: 2 } });
    // Crossing up to 10% and down to nothing by edits.
    const up = (await t.request({ method: 'PUT', url: `/api/v1/orders/${placed.id}/items`, token: w.ws.token, payload: { items: items([[w.A, 10], [w.B, 10]]) } })).json().data;
    expect(up.order_total_amount).toBe(300 - 30);
    const down = (await t.request({ method: 'PUT', url: `/api/v1/orders/${placed.id}/items`, token: w.ws.token, payload: { items: items([[w.A, 5]]) } })).json().data;
    expect(down.order_total_amount).toBe(50);
    expect(down.items.map((i: any) => i.discount_amount)).toEqual([0]);
    // The dashboard's rollups agree with the orders' discounted totals.
    const [roll] = await q<{ total: string; orders: number }>(
      `select sum(total_amount)::text as total, sum(orders)::int as orders from order_day_rollup where organization_id = $1`, [w.ws.organizationId]);
    expect(Number(roll.total)).toBe(50);
    const [lines2] = await q<{ quantity: string }>(`select sum(quantity)::text as quantity from line_day_rollup where organization_id = $1`, [w.ws.organizationId]);
    expect(Number(lines2.quantity)).toBe(5);
  });

  it('gives two schemes that share a free item a line each, tagged with its scheme', async () => {
    const w = await world();
    const s1 = await createScheme(w, { slabs: [{ min_qty: 10, free_qty: 1, free_variant_id: w.C }] });
    const s2 = await createScheme(w, { target_id: w.B, slabs: [{ min_qty: 5, free_qty: 2, free_variant_id: w.C }] });
    const p = await preview(w, w.d1.id, [[w.A, 10], [w.B, 5], [w.C, 1]]);
    expect(p.free_lines).toEqual([
      { product_variant_id: w.C, quantity: 1, unit_price: 0, amount: 0, scheme_id: s1 },
      { product_variant_id: w.C, quantity: 2, unit_price: 0, amount: 0, scheme_id: s2 },
    ]);
    const placed = await order(w, w.d1.id, [[w.A, 10], [w.B, 5], [w.C, 1]]);
    expect(placed.items.filter((i: any) => i.product_variant_id === w.C).map((i: any) => [i.quantity, i.scheme_id])).toEqual([[1, null], [1, s1], [2, s2]]);
  });

  it('evaluates by priority: a non-stackable scheme blocks and is blocked; stackable ones discount what is left', async () => {
    const w = await world();
    const high = await createScheme(w, { kind: 1, priority: 10, slabs: [{ min_qty: 1, discount_percent: 10 }] });
    const low = await createScheme(w, { kind: 1, priority: 5, stackable: true, slabs: [{ min_qty: 1, discount_percent: 5 }] });
    let p = await preview(w, w.d1.id, [[w.A, 10]]);
    expect(outcome(p, high)).toMatchObject({ applied: true, discount_amount: 10 });
    expect(outcome(p, low)).toMatchObject({ applied: false, reason: 'blocked_by_other_scheme' });
    await t.request({ method: 'PATCH', url: `/api/v1/schemes/${high}`, token: w.ws.token, payload: { stackable: true } });
    p = await preview(w, w.d1.id, [[w.A, 10]]);
    expect(p.schemes.map((s: any) => [s.scheme_id, s.discount_amount])).toEqual([[high, 10], [low, 4.5]]); // 5% of the 90 left
    expect(p.total).toBe(85.5);
    await t.request({ method: 'PATCH', url: `/api/v1/schemes/${low}`, token: w.ws.token, payload: { stackable: false } });
    p = await preview(w, w.d1.id, [[w.A, 10]]);
    expect(outcome(p, low).reason).toBe('blocked_by_other_scheme');
  });

  it('targets towns, routes, user types and named customers', async () => {
    const w = await world();
    const town = await createScheme(w, { scope: 2, scope_ids: [w.town1] });
    const route = await createScheme(w, { scope: 3, scope_ids: [w.route1] });
    const type = await createScheme(w, { scope: 4, scope_ids: [UserType.RETAILER] });
    const named = await createScheme(w, { scope: 5, scope_ids: [w.d2.id], stackable: true });
    const applied = async (customer: number) => (await preview(w, customer, [[w.A, 10]])).schemes.filter((s: any) => s.applied).map((s: any) => s.scheme_id);
    const reasons = async (customer: number) => Object.fromEntries((await preview(w, customer, [[w.A, 10]])).schemes.map((s: any) => [s.scheme_id, s.reason]));
    expect(await applied(w.d1.id)).toEqual([town]); // route also matches but town (same priority, lower id) closed the line
    expect((await reasons(w.d1.id))[route]).toBe('blocked_by_other_scheme');
    expect((await reasons(w.d1.id))[type]).toBe('customer_not_eligible');
    expect(await applied(w.r1.id)).toEqual([type]);
    expect(await applied(w.d2.id)).toEqual([named]);
  });

  it('stops a spent budget, never overspends under a race, and gives the budget back on cancel', async () => {
    const w = await world();
    const id = await createScheme(w, { budget_kind: 2, budget: 3, slabs: [{ min_qty: 10, free_qty: 1, recursive: true }] });
    const first = await order(w, w.d1.id, [[w.A, 20]]);
    expect(first.items.find((i: any) => i.scheme_id === id).quantity).toBe(2);
    const second = await order(w, w.d1.id, [[w.A, 20]]);
    expect(second.items.find((i: any) => i.scheme_id === id).quantity).toBe(1); // capped by what is left
    const spent = await preview(w, w.d1.id, [[w.A, 20]]);
    expect(outcome(spent, id)).toMatchObject({ applied: false, reason: 'budget_spent' });
    expect((await t.request({ method: 'GET', url: `/api/v1/schemes/${id}`, token: w.ws.token })).json().data).toMatchObject({ budget_used: 3, budget_left: 0, state: 'spent' });
    const third = await order(w, w.d1.id, [[w.A, 20]]);
    expect(third.items.some((i: any) => i.scheme_id !== null)).toBe(false);

    const cancel = await t.request({ method: 'POST', url: `/api/v1/orders/${first.id}/cancel`, token: w.ws.token, payload: { reason: 'Wrong' } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(freeOf(await preview(w, w.d1.id, [[w.A, 20]]), id)).toBe(2);
    const rows = await q<{ units: number; reversal: boolean }>(`select units, reversal from scheme_use where organization_id = $1 and scheme_id = $2 order by id`, [w.ws.organizationId, id]);
    expect(rows).toEqual([{ units: 2, reversal: false }, { units: 1, reversal: false }, { units: -2, reversal: true }]);

    // Orders race for the last 2 units of a budget of 2: new orders (serialized by the order counter
    // anyway) and edits of Initiated orders (which are not): together they take 2, never more.
    const race = await createScheme(w, { target_id: w.B, budget_kind: 2, budget: 2, slabs: [{ min_qty: 5, free_qty: 1 }] });
    const drafts = await Promise.all([0, 1, 2, 3].map(() => order(w, w.d1.id, [[w.B, 1]])));
    const placed = await Promise.all([
      ...drafts.map((d) => t.request({ method: 'PUT', url: `/api/v1/orders/${d.id}/items`, token: w.ws.token, payload: { items: items([[w.B, 5]]) } })),
      t.request({ method: 'POST', url: '/api/v1/orders', token: w.ws.token, payload: { user_id: w.d1.id, items: items([[w.B, 5]]) } }),
    ]);
    expect(placed.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 201]);
    const [used] = await q<{ units: number }>(`select sum(units)::int as units from scheme_use where organization_id = $1 and scheme_id = $2`, [w.ws.organizationId, race]);
    expect(used.units).toBe(2);
    const [lines] = await q<{ quantity: number }>(`select sum(quantity)::int as quantity from order_item where organization_id = $1 and scheme_id = $2`, [w.ws.organizationId, race]);
    expect(lines.quantity).toBe(2);
  });

  it('applies only within validity and while active', async () => {
    const w = await world();
    const expired = await createScheme(w, { valid_from: day(-10), valid_to: day(-1) });
    const later = await createScheme(w, { valid_from: day(2) });
    const off = await createScheme(w, { status: 2 });
    const p = await preview(w, w.d1.id, [[w.A, 10]]);
    expect([outcome(p, expired).reason, outcome(p, later).reason, outcome(p, off).reason]).toEqual(['expired', 'not_started', 'disabled']);
    expect(p.free_lines).toEqual([]);
    const placed = await order(w, w.d1.id, [[w.A, 10]]);
    expect(placed.items).toHaveLength(1);
    const list = async (q: string) => (await t.request({ method: 'GET', url: `/api/v1/schemes${q}`, token: w.ws.token })).json();
    expect((await list(`?active_on=${day(3)}`)).data.map((s: any) => s.id)).toEqual([later]);
    expect((await list('?status=2')).data.map((s: any) => s.id)).toEqual([off]);
    expect((await list(`?target_kind=1&target_id=${w.A}&sort=id`)).data.map((s: any) => s.id)).toEqual([expired, later, off]);
    expect((await list('?sort=-id&limit=1')).pagination).toMatchObject({ total: 3, limit: 1 });
    expect((await list('')).data.map((s: any) => s.state).sort()).toEqual(['disabled', 'expired', 'scheduled']);
  });

  it('answers bad input with 400 naming the field and writes nothing; a taken code is 409', async () => {
    const w = await world();
    const other = await world();
    const bad = async (extra: object, field: string) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/schemes', token: w.ws.token, payload: scheme(w, extra) });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0].field, res.body).toBe(field);
    };
    await bad({ target_id: other.A }, 'target_id');
    await bad({ kind: 1, slabs: [{ min_qty: 5 }] }, 'slabs[0].discount_percent');
    await bad({ kind: 1, slabs: [{ min_qty: 5, discount_percent: 120 }] }, 'slabs[0].discount_percent');
    await bad({ slabs: [{ min_qty: 10, free_qty: 1 }, { min_qty: 10, free_qty: 2 }] }, 'slabs[1].min_qty');
    await bad({ slabs: [{ min_qty: 10, free_qty: 1.5 }] }, 'slabs[0].free_qty');
    await bad({ target_kind: 2, target_id: w.p1 }, 'slabs[0].free_variant_id');
    await bad({ kind: 1, budget_kind: 2, budget: 5, slabs: [{ min_qty: 1, discount_amount: 1 }] }, 'budget_kind');
    await bad({ budget: 5 }, 'budget_kind');
    await bad({ valid_from: day(2), valid_to: day(1) }, 'valid_to');
    await bad({ scope: 2, scope_ids: [other.town1] }, 'scope_ids');
    await bad({ scope: 1, scope_ids: [w.town1] }, 'scope_ids');
    await bad({ scope: 4, scope_ids: [UserType.EMPLOYEE] }, 'scope_ids');
    await bad({ valid_from: '2026-02-30' }, 'valid_from');
    expect((await t.request({ method: 'GET', url: '/api/v1/schemes', token: w.ws.token })).json().pagination.total).toBe(0);
    const code = `DUP${unique()}`;
    await createScheme(w, { code });
    const dup = await t.request({ method: 'POST', url: '/api/v1/schemes', token: w.ws.token, payload: scheme(w, { code }) });
    expect(dup.statusCode).toBe(409);
    const pv = await t.request({ method: 'POST', url: '/api/v1/schemes/preview', token: w.ws.token, payload: { items: items([[w.A, 1]]) } });
    expect([pv.statusCode, pv.json().errors[0].field]).toEqual([400, 'customer_id']);
    const pq = await t.request({ method: 'POST', url: '/api/v1/schemes/preview', token: w.ws.token, payload: { customer_id: w.d1.id, items: items([[w.A, 0]]) } });
    expect([pq.statusCode, pq.json().errors[0].field]).toEqual([400, 'items[0].quantity']);
  });

  it('keeps workspaces apart and lets admins write, staff read, customers preview only their own cart', async () => {
    const w = await world();
    const other = await world();
    const id = await createScheme(w, {});
    for (const req of [
      { method: 'GET' as const, url: `/api/v1/schemes/${id}` },
      { method: 'PATCH' as const, url: `/api/v1/schemes/${id}`, payload: { name: 'Taken' } },
    ]) {
      expect((await t.request({ ...req, token: other.ws.token })).statusCode).toBe(404);
    }
    const foreign = await t.request({ method: 'POST', url: '/api/v1/schemes/preview', token: other.ws.token, payload: { customer_id: w.d1.id, items: items([[other.A, 10]]) } });
    expect([foreign.statusCode, foreign.json().errors[0].field]).toEqual([400, 'customer_id']);
    expect((await preview(other, other.d1.id, [[other.A, 10]])).schemes).toEqual([]); // w's scheme is not other's

    const employee = await createUser(t, w.ws, UserType.EMPLOYEE);
    expect((await t.request({ method: 'GET', url: `/api/v1/schemes/${id}`, token: employee.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/v1/schemes', token: employee.token, payload: scheme(w, {}) })).statusCode).toBe(403);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/schemes/${id}`, token: employee.token, payload: { status: 2 } })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/schemes', token: w.d1.token })).statusCode).toBe(403);
    const own = await t.request({ method: 'POST', url: '/api/v1/schemes/preview', token: w.d1.token, payload: { items: items([[w.A, 10]]) } });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data).toMatchObject({ customer_id: w.d1.id, free_lines: [{ quantity: 1, scheme_id: id }] });
    const theirs = await t.request({ method: 'POST', url: '/api/v1/schemes/preview', token: w.d1.token, payload: { customer_id: w.r1.id, items: items([[w.A, 10]]) } });
    expect([theirs.statusCode, theirs.json().errors[0].field]).toEqual([400, 'customer_id']);

    const key = await createApiKey(t, w.ws, { scopes: 'read,write,schemes' });
    const byKey = await t.request({ method: 'PATCH', url: `/api/v1/schemes/${id}`, apiKey: key.key, payload: { name: 'Renamed', valid_to: null } });
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json().data).toMatchObject({ name: 'Renamed', valid_to: null });
    const wrongScope = await createApiKey(t, w.ws, { scopes: 'read,write,leaves' });
    expect((await t.request({ method: 'GET', url: '/api/v1/schemes', apiKey: wrongScope.key })).statusCode).toBe(403);
  });
});

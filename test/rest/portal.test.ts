import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

type Body = Record<string, any>;

/**
 * The customer portal: customers only (staff 403 at /portal/login, API keys 403 everywhere), the
 * caller's own records (another customer's order 404, another workspace's too), reorder at today's
 * prices and schemes, the dashboard's figures by hand, and account deletion.
 */
describe('customer portal', () => {
  let t: TestApp;
  let A: Workspace;
  let B: Workspace;
  let catalog: Catalog;
  let me: { id: number; token: string; email: string };
  let other: { id: number; token: string };
  let orderOfOther: number;
  let orderOfB: number;
  let keyOfA: string;

  const get = (url: string, token: string) => t.request({ method: 'GET', url: `/api/v1${url}`, token });
  const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: Body) =>
    t.request({ method, url: `/api/v1${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
  const login = (email: string, password = 'password123') => send('POST', '/portal/login', undefined, { email, password, challenge_token: 'x' });
  const shiftDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await buildTestApp();
    A = await createWorkspace(t);
    B = await createWorkspace(t);
    catalog = await seedCatalog(t, A);
    const created = await createUser(t, A, UserType.RETAILER);
    me = { id: created.id, token: created.token, email: created.body.official_email as string };
    other = { id: catalog.distributorId, token: catalog.distributorToken };
    orderOfOther = (await placeOrder(t, A.token, { user_id: other.id, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] })).id;
    const catalogB = await seedCatalog(t, B);
    orderOfB = (await placeOrder(t, B.token, { user_id: catalogB.retailerId, items: [{ product_variant_id: catalogB.variantIds[0], quantity: 1 }] })).id;
    keyOfA = (await createApiKey(t, A)).key;
  });
  afterAll(() => t?.close());

  it('signs a customer in with the login shape; staff accounts are 403; a wrong password is the usual 401', async () => {
    const res = await login(me.email);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().token).toEqual(expect.any(String));
    expect(res.json().user.id).toBe(me.id);
    me.token = res.json().token; // one session: the fixture's ended
    expect((await get('/portal/profile', me.token)).json().data.id).toBe(me.id);

    const employee = await createUser(t, A, UserType.EMPLOYEE);
    const staff = await login(employee.body.official_email as string);
    expect(staff.statusCode, staff.body).toBe(403);
    // The staff member's own session is untouched by the refused portal sign-in.
    expect((await get('/auth/me', employee.token)).statusCode).toBe(200);
    const admin = await login((await get('/auth/me', A.token)).json().data.user.official_email);
    expect(admin.statusCode).toBe(403);
    expect((await login(me.email, 'wrong-password')).statusCode).toBe(401);
    expect((await send('POST', '/portal/login', undefined, { email: me.email, password: 'password123' })).statusCode).toBe(400); // no bot-check token

    // Customer sessions stay refused on staff routes.
    expect((await get('/users', me.token)).statusCode).toBe(403);
  });

  it('refuses API keys (403) on every portal path and staff sessions (403) on portal reads', async () => {
    for (const [method, url] of [
      ['GET', '/portal/dashboard'], ['GET', '/portal/orders'], ['POST', '/portal/orders'], ['GET', `/portal/orders/${orderOfOther}`],
      ['POST', `/portal/orders/${orderOfOther}/reorder`], ['GET', '/portal/ledger'], ['GET', '/portal/products'], ['GET', '/portal/crates'],
      ['GET', '/portal/ai-insight'], ['GET', '/portal/profile'], ['PATCH', '/portal/profile'], ['DELETE', '/portal/profile'], ['PUT', '/portal/change-password'],
    ] as const) {
      const res = await t.request({ method, url: `/api/v1${url}`, apiKey: keyOfA, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    }
    expect((await get('/portal/dashboard', A.token)).statusCode).toBe(403);
    expect((await get('/portal/orders', A.token)).statusCode).toBe(403);
    expect((await get('/portal/dashboard', '')).statusCode).toBe(401);
  });

  it("lists and reads the caller's own orders; another customer's or workspace's order is 404", async () => {
    const placed = await send('POST', '/portal/orders', me.token, { items: [{ product_variant_id: catalog.variantIds[1], quantity: 2 }] });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().data).toMatchObject({ user_id: me.id, order_total_amount: 110 });
    const list = await get('/portal/orders', me.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((o: Body) => o.user_id)).toEqual([me.id]);
    expect((await get(`/portal/orders/${placed.json().data.id}`, me.token)).json().data.id).toBe(placed.json().data.id);
    expect((await get(`/portal/orders/${orderOfOther}`, me.token)).statusCode).toBe(404);
    expect((await get(`/portal/orders/${orderOfB}`, me.token)).statusCode).toBe(404);
    expect((await send('POST', `/portal/orders/${orderOfOther}/reorder`, me.token)).statusCode).toBe(404);
    expect((await send('POST', `/portal/orders/${orderOfB}/reorder`, me.token)).statusCode).toBe(404);
    // Bad input names the field and writes nothing.
    const bad = await send('POST', '/portal/orders', me.token, { items: [{ product_variant_id: 999_999, quantity: 1 }] });
    expect([bad.statusCode, bad.json().errors?.[0]?.field]).toEqual([400, 'items[0].product_variant_id']);
    expect((await get('/portal/orders', me.token)).json().pagination.total).toBe(1);
  });

  it("reorders the paid lines at today's prices with today's schemes; inactive variants are skipped and reported", async () => {
    const n = unique();
    const product = await createProduct(t, A, {
      product_name: `Curd ${n}`, product_class_id: catalog.productClassId, product_hsn: '0403',
      variants: [
        { variant_name: '400 g', item_sku_code: `CD-400-${n}`, mrp: 40, sp: 35 },
        { variant_name: '1 kg', item_sku_code: `CD-1000-${n}`, mrp: 90, sp: 80 },
      ],
    });
    const [v1, v2] = product.variantIds;
    // A free-goods scheme for v1 (10 → 1 free) is in force for the first order.
    const today = (await get('/portal/dashboard', me.token)).json().data.date as string;
    const free = await send('POST', '/schemes', A.token, {
      name: 'Ten plus one', code: `F${n}`, kind: 2, target_kind: 1, target_id: v1, valid_from: shiftDays(today, -1), slabs: [{ min_qty: 10, free_qty: 1 }],
    });
    expect(free.statusCode, free.body).toBe(201);
    const first = await send('POST', '/portal/orders', me.token, { items: [{ product_variant_id: v1, quantity: 10 }, { product_variant_id: v2, quantity: 2 }] });
    expect(first.statusCode, first.body).toBe(201);
    const firstId = first.json().data.id;
    const lines = (await get(`/portal/orders/${firstId}`, me.token)).json().data;
    const items = (lines.items ?? lines.OrderItems ?? lines.order_items) as Body[];
    expect(items.filter((l) => l.scheme_id !== null)).toHaveLength(1); // the free line

    // Today: v1 costs more, the free-goods scheme is disabled and a 10% discount on v1 applies; v2 is no longer sold.
    expect((await send('PATCH', `/schemes/${free.json().data.id}`, A.token, { status: 2 })).statusCode).toBe(200);
    const discount = await send('POST', '/schemes', A.token, {
      name: 'Ten off', code: `D${n}`, kind: 1, target_kind: 1, target_id: v1, valid_from: shiftDays(today, -1), slabs: [{ min_qty: 1, discount_percent: 10 }],
    });
    expect(discount.statusCode, discount.body).toBe(201);
    const variantUrl = (v: number, p = product.id) => `/products/${p}/variants/${v}`;
    const priced = await send('PUT', variantUrl(v1), A.token, { sp: 40 });
    expect(priced.statusCode, priced.body).toBe(200);
    const off = await send('PUT', variantUrl(v2), A.token, { status: 0 });
    expect(off.statusCode, off.body).toBe(200);

    const again = await send('POST', `/portal/orders/${firstId}/reorder`, me.token);
    expect(again.statusCode, again.body).toBe(201);
    const data = again.json().data;
    expect(data.source_order_id).toBe(firstId);
    expect(data.skipped).toEqual([{ product_variant_id: v2, quantity: 2, reason: expect.any(String) }]);
    // 10 × 40 = 400, 10% off = 360; no free line (paid lines only, and the free scheme is off).
    expect(data.order_total_amount).toBe(360);
    const detail = (await get(`/portal/orders/${data.id}`, me.token)).json().data;
    const newLines = (detail.items ?? detail.OrderItems ?? detail.order_items) as Body[];
    expect(newLines.map((l) => [l.product_variant_id, l.quantity, l.unit_price, l.discount_amount, l.scheme_id])).toEqual([[v1, 10, 40, 40, null]]);

    // The catalogue: today's price and the discount open to the caller; v2 gone.
    const products = await get('/portal/products?limit=100', me.token);
    expect(products.statusCode, products.body).toBe(200);
    const row = products.json().data.products.find((p: Body) => p.product_variant_id === v1);
    expect(row).toMatchObject({ price: 40, scheme_ids: [discount.json().data.id] });
    expect(products.json().data.products.some((p: Body) => p.product_variant_id === v2)).toBe(false);
    expect(products.json().data.schemes.map((s: Body) => s.id)).toContain(discount.json().data.id);

    // Nothing sellable left: 409, nothing written.
    const onlyV2 = await placeOrder(t, A.token, { user_id: me.id, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    const offAll = await send('PUT', variantUrl(catalog.variantIds[0], catalog.productId), A.token, { status: 0 });
    expect(offAll.statusCode, offAll.body).toBe(200);
    const before = (await get('/portal/orders', me.token)).json().pagination.total;
    expect((await send('POST', `/portal/orders/${onlyV2.id}/reorder`, me.token)).statusCode).toBe(409);
    expect((await get('/portal/orders', me.token)).json().pagination.total).toBe(before);
    expect((await send('PUT', variantUrl(catalog.variantIds[0], catalog.productId), A.token, { status: 1 })).statusCode).toBe(200);
  });

  it('answers the dashboard figures as computed by hand', async () => {
    const fresh = await createUser(t, A, UserType.DISTRIBUTOR);
    const today = (await get('/portal/dashboard', fresh.token)).json().data.date as string;
    const thisMonthFrom = `${today.slice(0, 8)}01`;
    const lastMonthDay = shiftDays(thisMonthFrom, -1);
    const order = (payload: Body) => placeOrder(t, A.token, { user_id: fresh.id, ...payload });
    const v = catalog.variantIds; // sp 28.50 and 55.00
    const o1 = await order({ items: [{ product_variant_id: v[0], quantity: 2 }] }); // 57, initiated
    const o2 = await order({ items: [{ product_variant_id: v[1], quantity: 1 }] }); // 55, forwarded
    expect((await send('PATCH', `/orders/${o2.id}/status`, A.token, { order_status: 2 })).statusCode).toBe(200);
    const o3 = await order({ items: [{ product_variant_id: v[1], quantity: 3 }] }); // 165, cancelled: counts nowhere
    expect((await send('POST', `/orders/${o3.id}/cancel`, A.token, { reason: 'test' })).statusCode).toBe(200);
    await order({ items: [{ product_variant_id: v[0], quantity: 4 }], order_date: lastMonthDay }); // 114 last month, initiated
    // Ledger: 500 owed from 40 days ago, 100 paid back today by a credit note → 400 outstanding, all over 30 days.
    expect((await send('POST', '/ledger/opening-balances', A.token, { customer_id: fresh.id, amount: 500, as_of: shiftDays(today, -40) })).statusCode).toBe(201);
    expect((await send('POST', '/ledger/notes', A.token, { customer_id: fresh.id, note_type: 'credit', amount: 100, narration: 'goodwill' })).statusCode).toBe(201);
    // Crates: 6 issued today, 2 returned.
    const crateType = (await send('POST', '/masters/crate-types', A.token, { crate_type_name: `Crate ${unique()}`, deposit_value: 50 })).json().data.id;
    expect((await send('POST', '/crates/movements', A.token, { customer_id: fresh.id, crate_type_id: crateType, kind: 1, quantity: 6 })).statusCode).toBe(201);
    expect((await send('POST', '/crates/movements', A.token, { customer_id: fresh.id, crate_type_id: crateType, kind: 2, quantity: 2 })).statusCode).toBe(201);

    const res = await get('/portal/dashboard', fresh.token);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    const lastMonthOpen = 114;
    expect(d.open_orders).toEqual({
      total: 3,
      amount: 57 + 55 + lastMonthOpen,
      by_status: [{ order_status: 1, count: 2, amount: 57 + lastMonthOpen }, { order_status: 2, count: 1, amount: 55 }],
    });
    expect(d.balance).toEqual({ outstanding: 400, ageing: { days_0_7: 0, days_8_15: 0, days_16_30: 0, over_30_days: 400, advance: 0 }, oldest_bucket: 'over 30 days' });
    expect(d.crates).toEqual({ held: 4, outstanding_value: 200, oldest_age_days: 0, types: 1 });
    expect(d.purchases).toMatchObject({ this_month: 112, last_month: 114, this_month_orders: 2, last_month_orders: 1, change_percent: Math.round(((112 - 114) / 114) * 10_000) / 100 });
    expect(o1.id).toBeGreaterThan(0);

    // Ledger and crates: the caller's own.
    const ledger = await get('/portal/ledger?from=' + shiftDays(today, -60), fresh.token);
    expect(ledger.statusCode, ledger.body).toBe(200);
    expect(ledger.json().data).toMatchObject({ customer_id: fresh.id, closing_balance: 400 });
    const crates = await get('/portal/crates', fresh.token);
    expect(crates.json().data.map((c: Body) => [c.customer_id ?? c.user_id, c.balance])).toEqual([[fresh.id, 4]]);
  });

  it('changes contact details as user updates check them, and the password with the current one (other sessions end)', async () => {
    const user = await createUser(t, A, UserType.RETAILER);
    const bad = await send('PATCH', '/portal/profile', user.token, { official_email: 'not-an-email' });
    expect([bad.statusCode, bad.json().errors?.[0]?.field]).toEqual([400, 'official_email']);
    const taken = await send('PATCH', '/portal/profile', user.token, { official_email: me.email });
    expect(taken.statusCode).toBe(409);
    const ok = await send('PATCH', '/portal/profile', user.token, { first_name: 'Asha', primary_contact_number: '+919812345678' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await get('/portal/profile', user.token)).json().data).toMatchObject({ first_name: 'Asha', primary_contact_number: '+919812345678' });

    const wrong = await send('PUT', '/portal/change-password', user.token, { current_password: 'nope-nope', new_password: 'new-password-456' });
    expect([wrong.statusCode, wrong.json().errors?.[0]?.field]).toEqual([400, 'current_password']);
    const changed = await send('PUT', '/portal/change-password', user.token, { current_password: 'password123', new_password: 'new-password-456' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await get('/portal/profile', user.token)).statusCode).toBe(401);
    expect((await get('/portal/profile', changed.json().token)).statusCode).toBe(200);
    expect((await login(user.body.official_email as string, 'new-password-456')).statusCode).toBe(200);
  });

  it('deletes the account: personal data erased, orders and ledger kept, session ended, sign-in fails', async () => {
    const user = await createUser(t, A, UserType.RETAILER);
    const email = user.body.official_email as string;
    const phone = user.body.primary_contact_number as string;
    const order = await send('POST', '/portal/orders', user.token, { items: [{ product_variant_id: catalog.variantIds[1], quantity: 1 }] });
    expect(order.statusCode, order.body).toBe(201);
    expect((await send('POST', '/ledger/notes', A.token, { customer_id: user.id, note_type: 'debit', amount: 12.5, narration: 'freight' })).statusCode).toBe(201);

    const res = await send('DELETE', '/portal/profile', user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ user_id: user.id });
    expect((await get('/portal/profile', user.token)).statusCode).toBe(401);
    expect((await login(email)).statusCode).toBe(401);

    const seen = (await get(`/users/${user.id}`, A.token)).json().data;
    expect(seen).toMatchObject({ first_name: 'Deleted customer', last_name: `#${user.id}`, official_email: null, store_name: null, status: 0 });
    expect(seen.primary_contact_number).not.toBe(phone);
    const [row] = await t.orm.em.fork().getConnection().execute('select password_hash, current_session_id from app_user where id = ?', [user.id]);
    expect(row.current_session_id).toBeNull();
    expect(row.password_hash.startsWith('$')).toBe(false);
    // The books keep the order and the ledger row.
    expect((await get(`/orders/${order.json().data.id}`, A.token)).statusCode).toBe(200);
    const statement = await get(`/ledger/statement?customer_id=${user.id}`, A.token);
    expect(statement.json().data.rows.map((r: Body) => [r.kind, r.debit])).toContainEqual([expect.any(Number), 12.5]);
    // The e-mail and phone are free again.
    expect((await createUser(t, A, UserType.RETAILER, { official_email: email, primary_contact_number: phone })).id).toBeGreaterThan(user.id);
    // Staff cannot use the portal's deletion.
    expect((await send('DELETE', '/portal/profile', A.token)).statusCode).toBe(403);
  });

  it('answers a deterministic insight citing its sources: a usual weekday order due again, the balance, crates', async () => {
    const user = await createUser(t, A, UserType.RETAILER);
    const today = (await get('/portal/dashboard', user.token)).json().data.date as string;
    const v = catalog.variantIds[0]; // sp 28.50
    const past: number[] = [];
    for (const weeks of [1, 2, 3, 4, 5]) {
      past.push((await placeOrder(t, A.token, { user_id: user.id, items: [{ product_variant_id: v, quantity: 40 }], order_date: shiftDays(today, -7 * weeks) })).id);
    }
    // One odd order on another weekday: no pattern of its own.
    await placeOrder(t, A.token, { user_id: user.id, items: [{ product_variant_id: catalog.variantIds[1], quantity: 3 }], order_date: shiftDays(today, -10) });
    expect((await send('POST', '/ledger/opening-balances', A.token, { customer_id: user.id, amount: 250, as_of: shiftDays(today, -20) })).statusCode).toBe(201);

    const res = await get('/portal/ai-insight', user.token);
    expect(res.statusCode, res.body).toBe(200);
    const insight = res.json().data;
    expect(insight.period).toEqual({ from: shiftDays(today, -90), to: shiftDays(today, -7), weeks: 12 });
    const due = insight.items.find((i: Body) => i.kind === 'due_to_reorder');
    expect(due.text).toMatch(/^You usually order 40 × .+ on \w+days \(5 of the last 12 weeks\); none this week \(about ₹1140\.00 at today's price\)\.$/);
    expect(due.figures).toMatchObject({ product_variant_id: v, average_quantity: 40, weeks_ordered: 5, ordered_this_week: 0, due_value: 1140 });
    expect(due.source.orders).toEqual(past.sort((a, b) => a - b));
    expect(insight.items.find((i: Body) => i.kind === 'due_to_buy').figures).toEqual({ items: 1, value: 1140 });
    const balance = insight.items.find((i: Body) => i.kind === 'balance');
    expect(balance.text).toBe('You owe ₹250.00; the oldest ₹250.00 is 16-30 days old.');
    expect(balance.source.ledger_statement.ageing.days_16_30).toBe(250);
    expect(insight.items.some((i: Body) => i.kind === 'crates')).toBe(false);
    // Deterministic: the same data, the same answer.
    expect((await get('/portal/ai-insight', user.token)).json().data).toEqual(insight);

    // Ordered this week: no longer due.
    expect((await send('POST', '/portal/orders', user.token, { items: [{ product_variant_id: v, quantity: 30 }] })).statusCode).toBe(201);
    const after = (await get('/portal/ai-insight', user.token)).json().data;
    expect(after.items.find((i: Body) => i.kind === 'usual_order').figures).toMatchObject({ ordered_this_week: 30, due_value: 0 });
    expect(after.items.some((i: Body) => i.kind === 'due_to_reorder' || i.kind === 'due_to_buy')).toBe(false);

    const gql = await t.graphql<{ portalInsight: Body }>('{ portalInsight { date period { from to weeks } items { kind text figures source } } }', {}, user.token);
    expect(gql.errors, JSON.stringify(gql.errors)).toBeUndefined();
    expect(gql.data!.portalInsight.items.find((i: Body) => i.kind === 'usual_order').figures.orderedThisWeek).toBe(30);
    expect((await t.request({ method: 'GET', url: '/api/v1/portal/ai-insight', apiKey: keyOfA })).statusCode).toBe(403);
  });

  describe('GraphQL', () => {
    it('portal operations under the customer session; API keys and staff refused; another customer’s order not found', async () => {
      const user = await createUser(t, A, UserType.RETAILER);
      const dash = await t.graphql<{ portalDashboard: Body }>('{ portalDashboard { date openOrders { total } balance { outstanding oldestBucket } crates { held } purchases { thisMonth } schemes { id } } }', {}, user.token);
      expect(dash.errors, JSON.stringify(dash.errors)).toBeUndefined();
      expect(dash.data!.portalDashboard.openOrders.total).toBe(0);
      const byKey = await t.graphql('{ portalDashboard { date } }', {}, { apiKey: keyOfA });
      expect(byKey.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const byStaff = await t.graphql('{ portalDashboard { date } }', {}, A.token);
      expect(byStaff.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

      const products = await t.graphql<{ portalProducts: Body }>('{ portalProducts(limit: 100) { total items { productVariantId price schemeIds } schemes { id code slabs { minQty } } } }', {}, user.token);
      expect(products.errors, JSON.stringify(products.errors)).toBeUndefined();
      expect(products.data!.portalProducts.total).toBeGreaterThan(0);

      const placed = await t.graphql<{ portalPlaceOrder: Body }>(
        'mutation($input: PortalOrderInput!) { portalPlaceOrder(input: $input) { order { id totalAmount } deliveryOtp } }',
        { input: { items: [{ productVariantId: catalog.variantIds[1], quantity: 1 }] } },
        user.token,
      );
      expect(placed.errors, JSON.stringify(placed.errors)).toBeUndefined();
      const again = await t.graphql<{ reorder: Body }>('mutation($id: Int!) { reorder(orderId: $id) { order { id totalAmount } sourceOrderId skipped { productVariantId } } }', { id: placed.data!.portalPlaceOrder.order.id }, user.token);
      expect(again.errors, JSON.stringify(again.errors)).toBeUndefined();
      expect(again.data!.reorder).toMatchObject({ sourceOrderId: placed.data!.portalPlaceOrder.order.id, skipped: [] });
      const foreign = await t.graphql('mutation($id: Int!) { reorder(orderId: $id) { sourceOrderId } }', { id: orderOfOther }, user.token);
      expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const cross = await t.graphql('mutation($id: Int!) { reorder(orderId: $id) { sourceOrderId } }', { id: orderOfB }, user.token);
      expect(cross.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

      const profile = await t.graphql<{ updateMyProfile: Body }>('mutation { updateMyProfile(input: { firstName: "Ravi" }) { id firstName } }', {}, user.token);
      expect(profile.data?.updateMyProfile, JSON.stringify(profile.errors)).toEqual({ id: user.id, firstName: 'Ravi' });

      const login2 = await t.graphql<{ portalLogin: Body }>(
        'mutation($input: LoginInput!) { portalLogin(input: $input) { token } }',
        { input: { email: user.body.official_email, password: 'password123', challengeToken: 'x' } },
      );
      expect(login2.errors, JSON.stringify(login2.errors)).toBeUndefined();
      const staffLogin = await t.graphql('mutation($input: LoginInput!) { portalLogin(input: $input) { token } }', {
        input: { email: (await get('/auth/me', A.token)).json().data.user.official_email, password: 'password123', challengeToken: 'x' },
      });
      expect(staffLogin.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

      const token = login2.data!.portalLogin.token as string;
      const deleted = await t.graphql<{ deleteMyAccount: boolean }>('mutation { deleteMyAccount }', {}, token);
      expect(deleted.data?.deleteMyAccount, JSON.stringify(deleted.errors)).toBe(true);
      expect((await t.graphql('{ portalDashboard { date } }', {}, token)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });
  });
});

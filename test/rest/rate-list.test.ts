import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDuePrices, applyDuePricesEverywhere, pricesInForce } from '../../src/domains/products/variant-prices';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createApiKey, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

type Body = Record<string, unknown>;

/**
 * Price history and the rate list: every price change is an append-only version from a local day;
 * the variant carries today's price in force; future versions are applied by the cron task when
 * their day comes; the rate list answers the prices in force on any day.
 */
describe('rate list and price history', () => {
  let t: TestApp;
  let A: Workspace;
  let B: Workspace;
  let catalog: Catalog;
  let catalogOfB: Catalog;
  const ZONE = 'Asia/Kolkata';
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());

  const history = (id: number, token = A.token, query = '') => t.request({ method: 'GET', url: `/api/v1/products/variants/${id}/prices${query}`, token });
  const change = (id: number, payload: Body, token = A.token) => t.request({ method: 'POST', url: `/api/v1/products/variants/${id}/prices`, token, payload });
  const rateList = (query = '', token = A.token) => t.request({ method: 'GET', url: `/api/v1/products/rate-list${query}`, token });
  const variantOf = async (id: number) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/products/${catalog.productId}`, token: A.token });
    return (res.json().data.ProductVariants as Array<Body & { id: number }>).find((v) => v.id === id)!;
  };
  const entryOf = async (variantId: number, query = '') => {
    const res = await rateList(`?limit=100${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Array<Body & { variant_id: number }>).find((e) => e.variant_id === variantId);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    A = await createWorkspace(t);
    B = await createWorkspace(t);
    const zone = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: A.token, payload: { time_zone: ZONE } });
    expect(zone.statusCode, zone.body).toBe(200);
    catalog = await seedCatalog(t, A);
    catalogOfB = await seedCatalog(t, B);
  });
  afterAll(() => t?.close());

  it('a new variant starts its history with its prices, in force from today', async () => {
    const res = await history(catalog.variantIds[0]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().pagination).toMatchObject({ total: 1, page: 1 });
    expect(res.json().data[0]).toMatchObject({ variant_id: catalog.variantIds[0], sp: 28.5, mrp: 30, effective_from: today(), source: 1, created_by_user_id: A.adminId, import_id: null });
    expect(await entryOf(catalog.variantIds[0])).toMatchObject({ sp: 28.5, mrp: 30, effective_from: today(), item_sku_code: expect.stringMatching(/^TM-500-/) });
  });

  it('a manual price edit is recorded as a version; an edit of other fields is not', async () => {
    const id = catalog.variantIds[1];
    const put = (payload: Body) => t.request({ method: 'PUT', url: `/api/v1/products/${catalog.productId}/variants/${id}`, token: A.token, payload });
    expect((await put({ variant_name: '1 litre' })).statusCode).toBe(200);
    expect((await history(id)).json().pagination.total).toBe(1);
    const edited = await put({ sp: 54, mrp: 60 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ sp: 54, mrp: 60 });
    const rows = (await history(id)).json();
    expect(rows.pagination.total).toBe(2);
    expect(rows.data[0]).toMatchObject({ sp: 54, mrp: 60, effective_from: today(), source: 1 });
    expect(rows.data[1]).toMatchObject({ sp: 55, mrp: 58 });
    // Two versions of one day: the latest written is in force.
    expect(await entryOf(id)).toMatchObject({ sp: 54, mrp: 60, price_id: rows.data[0].id });
  });

  it('a future-dated change leaves today alone; the rate list of its day shows it; the cron task applies it when the day comes, once', async () => {
    const id = catalog.variantIds[0];
    const tomorrow = shiftDay(today(), 1);
    const res = await change(id, { sp: 29.5, effective_from: tomorrow });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ message: 'Price recorded', data: { sp: 29.5, mrp: 30, effective_from: tomorrow, source: 1 } });
    expect(await variantOf(id)).toMatchObject({ sp: 28.5, mrp: 30 });
    expect(await entryOf(id)).toMatchObject({ sp: 28.5 });
    expect(await entryOf(id, `&date=${tomorrow}`)).toMatchObject({ sp: 29.5, effective_from: tomorrow });
    expect(await entryOf(id, `&date=${shiftDay(today(), 30)}`)).toMatchObject({ sp: 29.5 });
    // Before its day the variant was not created yet: not listed.
    expect(await entryOf(id, `&date=${shiftDay(today(), -1)}`)).toBeUndefined();
    // The same answer for other domains (a day's prices of some variants); another workspace's variant is absent.
    const byDay = await pricesInForce(t.orm.em.fork(), A.organizationId, [id, catalogOfB.variantIds[0]], tomorrow);
    expect([...byDay.entries()]).toEqual([[id, { sp: 29.5, mrp: 30, priceId: res.json().data.id }]]);
    expect((await pricesInForce(t.orm.em.fork(), A.organizationId, [id], shiftDay(today(), -1))).size).toBe(0);

    // An order placed today is priced at today's price, and keeps it.
    const order = await placeOrder(t, A.token, { user_id: catalog.distributorId, items: [{ product_variant_id: id, quantity: 2 }] });
    expect(order.order_total_amount).toBe(57);

    // The cron task on today's date changes nothing; on tomorrow's it applies the version, once.
    expect(await applyDuePricesEverywhere(t.orm.em.fork())).toBe(0);
    expect(await applyDuePrices(t.orm.em.fork(), A.organizationId, tomorrow, ZONE)).toEqual([id]);
    expect(await variantOf(id)).toMatchObject({ sp: 29.5, mrp: 30 });
    expect(await applyDuePrices(t.orm.em.fork(), A.organizationId, tomorrow, ZONE)).toEqual([]);
    const placed = await t.request({ method: 'GET', url: `/api/v1/orders/${order.id}`, token: A.token });
    expect(placed.json().data.order_total_amount).toBe(57);
  });

  it('the cron task applies versions written on an earlier day that came due today (as graphile-worker runs it), idempotently', async () => {
    const id = catalog.variantIds[1];
    const conn = t.orm.em.fork().getConnection();
    // A version written two days ago for today (the trigger only refuses updates and deletes).
    await conn.execute(
      `insert into variant_price (organization_id, variant_id, sp, mrp, effective_from, source, created_at) values (?, ?, 50, 60, ?::date, 1, now() - interval '2 days')`,
      [A.organizationId, id, today()],
    );
    expect(await variantOf(id)).toMatchObject({ sp: 54 });
    expect(await applyDuePricesEverywhere(t.orm.em.fork())).toBe(1);
    expect(await variantOf(id)).toMatchObject({ sp: 50, mrp: 60 });
    expect(await applyDuePricesEverywhere(t.orm.em.fork())).toBe(0);
  });

  it('history rows are append-only (the database refuses updates and deletes)', async () => {
    const [row] = (await history(catalog.variantIds[0])).json().data;
    const conn = t.orm.em.fork().getConnection();
    await expect(conn.execute('update variant_price set sp = 1 where id = ?', [row.id])).rejects.toThrow(/append-only/);
    await expect(conn.execute('delete from variant_price where id = ?', [row.id])).rejects.toThrow(/append-only/);
    // A variant no order names may be removed (as the bench cleans up): its history goes with it.
    const spare = await t.request({ method: 'POST', url: `/api/v1/products/${catalog.productId}/variants`, token: A.token, payload: { variant_name: 'Spare', item_sku_code: `SPARE-${Date.now()}`, mrp: 10, sp: 9 } });
    expect(spare.statusCode, spare.body).toBe(201);
    await conn.execute('delete from product_variant where id = ?', [spare.json().data.id]);
    expect(await conn.execute('select count(*)::int as n from variant_price where variant_id = ?', [spare.json().data.id])).toEqual([{ n: 0 }]);
  });

  it('answers 400 naming the field for bad input, and writes nothing', async () => {
    const id = catalog.variantIds[0];
    const before = (await history(id, A.token, '?limit=100')).json();
    const cases: Array<[Body, string]> = [
      [{ sp: 31 }, 'sp'], // above the MRP in force
      [{ sp: 10, mrp: 9 }, 'sp'],
      [{ sp: 10.001 }, 'sp'],
      [{ sp: -1 }, 'sp'],
      [{ sp: 10, mrp: 1.234 }, 'mrp'],
      [{ sp: 10, effective_from: shiftDay(today(), -1) }, 'effective_from'],
      [{ sp: 10, effective_from: '2026-02-30' }, 'effective_from'],
      [{ sp: 10, effective_from: 'tomorrow' }, 'effective_from'],
      [{}, 'sp'],
    ];
    for (const [payload, field] of cases) {
      const res = await change(id, payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json().errors[0].field, JSON.stringify(payload)).toBe(field);
    }
    expect((await history(id, A.token, '?limit=100')).json()).toEqual(before);
    for (const [query, field] of [['?date=2026-13-01', 'date'], ['?date=yesterday', 'date'], ['?sort=price', 'sort'], ['?limit=101', 'limit']]) {
      const res = await rateList(query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().errors[0].field, query).toBe(field);
    }
    expect((await history(id, A.token, '?sort=nope')).statusCode).toBe(400);
  });

  it('a distributor may read prices but not change them; an API key may change them', async () => {
    expect((await history(catalog.variantIds[0], catalog.distributorToken)).statusCode).toBe(200);
    expect((await rateList('', catalog.distributorToken)).statusCode).toBe(200);
    expect((await change(catalog.variantIds[0], { sp: 20 }, catalog.distributorToken)).statusCode).toBe(403);
    const key = await createApiKey(t, A, { scopes: 'read,write' });
    const res = await t.request({ method: 'POST', url: `/api/v1/products/variants/${catalog.variantIds[0]}/prices`, apiKey: key.key, payload: { sp: 20, effective_from: shiftDay(today(), 5) } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ created_by_api_key_id: key.id, created_by_user_id: null });
  });

  it("another workspace's variant is not found, and its prices are not listed", async () => {
    const theirs = catalogOfB.variantIds[0];
    expect((await history(theirs)).statusCode).toBe(404);
    expect((await change(theirs, { sp: 1 })).statusCode).toBe(404);
    expect((await history(theirs, B.token)).json().pagination.total).toBe(1);
    const listed = (await rateList('?limit=100')).json().data as Array<{ variant_id: number }>;
    expect(listed.map((e) => e.variant_id).sort()).toEqual([...catalog.variantIds].sort());
  });

  it('the rate list is searched, filtered and sorted by the list contract', async () => {
    const bySku = (await rateList('?search=TM-1000')).json();
    expect(bySku.data.map((e: Body) => e.variant_id)).toEqual([catalog.variantIds[1]]);
    const sorted = (await rateList('?sort=-sp')).json();
    // The rate list is read from the history: the variant's own price was moved to tomorrow's by the simulated run above.
    expect(sorted.data.map((e: Body) => e.sp)).toEqual([50, 28.5]);
    const page = (await rateList('?limit=1&page=2&sort=sp')).json();
    expect(page.pagination).toMatchObject({ total: 2, page: 2, limit: 1, total_pages: 2 });
    expect(page.data[0].sp).toBe(50);
    expect((await rateList(`?product_id=${catalog.productId}&status=0`)).json().data).toEqual([]);
  });
});

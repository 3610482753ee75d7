import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderSearchConditions } from '../../src/domains/orders/order-search';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The lists' search keeps its meaning whatever plan serves it: every whitespace-separated term
 * (the first five) matches, case-insensitively, at least one searched field, with `%`, `_` and
 * `\` literal. The order list is compared with the straightforward statement it replaced (orders
 * joined with their customers, ILIKE on each field), over REST and GraphQL, for terms a trigram
 * index serves and terms it cannot (one or two characters, punctuation, other alphabets).
 */

/** `%term%` with LIKE's wildcards escaped, written here again rather than taken from the code under test. */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const termsOf = (search: string) => search.trim().split(/\s+/).filter(Boolean).slice(0, 5);

const SEARCHES = [
  'zzqx',
  'ORD-2025',
  'ord-2026',
  'kumar',
  'KUMAR rao',
  'kumar 2025',
  'rao ORD-2026',
  'Ångström',
  'ÅNGSTRÖM',
  'zoË',
  'crème brûlée',
  'ström',
  '%',
  '0%',
  '_',
  'p_o',
  'pxo',
  '\\',
  'a',
  'ku',
  'Ö',
  '00',
  '-',
  '0001',
  'e r',
  'kumar kumar kumar kumar kumar zzqx',
  'a b c d e zzqx',
];

describe('list search', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let catalog: Catalog;
  let kumar: { id: number; token: string };
  const orderIds: number[] = [];

  const get = async (url: string, token = ws.token) => {
    const res = await t.request({ method: 'GET', url, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Array<{ id: number; name?: string }>; pagination: { total: number } };
  };
  const orders = (search: string, token = ws.token, query = '') => get(`/api/v1/orders?search=${encodeURIComponent(search)}&limit=100${query}`, token);

  /** The order list's matches as the statement before the trigram indexes found them, newest first. */
  const referenceOrders = async (search: string, organizationId = ws.organizationId): Promise<number[]> => {
    const terms = termsOf(search);
    const conditions = terms.map(() => '(o.order_code ilike ? or c.first_name ilike ? or c.last_name ilike ? or c.store_name ilike ?)');
    const rows = await t.orm.em.fork().getConnection().execute<Array<{ id: number }>>(
      `select o.id from sales_order o join app_user c on c.id = o.customer_id and c.organization_id = o.organization_id
       where ${['o.organization_id = ?', ...conditions].join(' and ')} order by o.created_at desc, o.id desc`,
      [organizationId, ...terms.flatMap((term) => Array(4).fill(likePattern(term)))],
    );
    return rows.map((r) => r.id);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    const otherCatalog = await seedCatalog(t, other);
    const customers = [
      await createUser(t, ws, UserType.DISTRIBUTOR, { first_name: 'Zoë', last_name: 'Ångström', store_name: 'Crème Brûlée' }),
      await createUser(t, ws, UserType.RETAILER, { first_name: 'Per', last_name: 'Cent', store_name: '100% Pure' }),
      await createUser(t, ws, UserType.RETAILER, { first_name: 'Under', last_name: 'Score', store_name: 'Shop_One' }),
      (kumar = await createUser(t, ws, UserType.DISTRIBUTOR, { first_name: 'Kumar', last_name: 'Rao', store_name: 'Kumar Stores' })),
    ];
    const line = { product_variant_id: catalog.variantIds[0], quantity: 1 };
    for (const [k, customer] of customers.entries()) {
      for (const orderDate of ['2025-12-30', '2026-01-02']) {
        orderIds.push((await placeOrder(t, ws.token, { user_id: customer.id, items: [line], order_date: orderDate })).id);
      }
      if (k === 3) orderIds.push((await placeOrder(t, ws.token, { user_id: customer.id, items: [line], order_date: '2026-01-03' })).id);
    }
    // Another workspace's customer and orders with the same names and codes: never found from `ws`.
    const lookalike = await createUser(t, other, UserType.DISTRIBUTOR, { first_name: 'Kumar', last_name: 'Ångström', store_name: '100% Pure' });
    for (const orderDate of ['2025-12-30', '2026-01-02']) {
      await placeOrder(t, other.token, { user_id: lookalike.id, items: [{ product_variant_id: otherCatalog.variantIds[0], quantity: 1 }], order_date: orderDate });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('the order list finds what the join of orders and customers found, total and order included', async () => {
    for (const search of SEARCHES) {
      const expected = await referenceOrders(search);
      const res = await orders(search);
      expect(res.data.map((o) => o.id), search).toEqual(expected);
      expect(res.pagination.total, search).toBe(expected.length);
    }
    // The fixtures make the comparison mean something: most searches find some orders, and not all.
    const found = await Promise.all(SEARCHES.map(async (s) => (await referenceOrders(s)).length));
    expect(found.filter((n) => n > 0 && n < orderIds.length).length).toBeGreaterThan(12);
  });

  it('matches the customer alone, the code alone, or each term in a different field', async () => {
    const [zoe, per, under, kumarOrders] = [orderIds.slice(0, 2), orderIds.slice(2, 4), orderIds.slice(4, 6), orderIds.slice(6)];
    const ids = async (search: string) => (await orders(search)).data.map((o) => o.id).sort((a, b) => a - b);
    expect(await ids('ÅNGSTRÖM')).toEqual(zoe); // a name, another case, another alphabet
    expect(await ids('crème BRÛLÉE')).toEqual(zoe); // two terms in the store name
    expect(await ids('%')).toEqual(per); // literal: only the store "100% Pure"
    expect(await ids('_')).toEqual(under); // literal: only "Shop_One"
    expect(await ids('p_o')).toEqual(under);
    expect(await ids('pxo')).toEqual([]);
    expect(await ids('kumar ORD-2026')).toEqual(kumarOrders.slice(1)); // a name and a code
    expect(await ids('zzqx')).toEqual([]);
    expect((await ids('ku')).length).toBeGreaterThan(0); // two characters: no trigram, still found
    expect(await ids('ku')).toEqual(kumarOrders);
  });

  it('a term that matches only the order code finds that order', async () => {
    const detail = await t.request({ method: 'GET', url: `/api/v1/orders/${orderIds[6]}`, token: ws.token });
    const code: string = detail.json().data.order_code;
    expect((await orders(code)).data.map((o) => o.id)).toEqual([orderIds[6]]);
    expect((await orders(code.toLowerCase())).data.map((o) => o.id)).toEqual([orderIds[6]]);
    expect((await orders(code.slice(-3))).data.map((o) => o.id)).toContain(orderIds[6]); // three digits
  });

  it('pages of a search add up to its total, with the other filters ANDed', async () => {
    const all = await referenceOrders('kumar');
    const pages = [];
    for (let page = 1; page <= 2; page++) pages.push(...(await get(`/api/v1/orders?search=kumar&limit=2&page=${page}`)).data.map((o) => o.id));
    expect(pages).toEqual(all.slice(0, 4));
    expect((await get('/api/v1/orders?search=kumar&limit=2')).pagination.total).toBe(all.length);
    expect((await orders('kumar', ws.token, '&date_from=2026-01-01')).data.map((o) => o.id)).toEqual(orderIds.slice(7).reverse());
  });

  it('a customer searching sees only their own orders', async () => {
    expect((await orders('Ångström', kumar.token)).data).toEqual([]);
    expect((await orders('ORD', kumar.token)).data.map((o) => o.id)).toEqual(orderIds.slice(6).reverse());
  });

  it('GraphQL orders(search) answers as REST does', async () => {
    for (const search of ['kumar', 'ÅNGSTRÖM', '%', 'ku', 'ORD-2025', 'zzqx']) {
      const res = await t.graphql<{ orders: { nodes: Array<{ id: number }>; pageInfo: { total: number } } }>(
        'query($s: String) { orders(search: $s, limit: 100) { nodes { id } pageInfo { total } } }',
        { s: search },
        ws.token,
      );
      expect(res.errors, search).toBeUndefined();
      const expected = await referenceOrders(search);
      expect(res.data!.orders.nodes.map((n) => Number(n.id)), search).toEqual(expected);
      expect(res.data!.orders.pageInfo.total, search).toBe(expected.length);
    }
  });

  it('the users list matches names, e-mail and phone as ILIKE does', async () => {
    const names = async (search: string) => (await get(`/api/v1/users?search=${encodeURIComponent(search)}&limit=100`)).data.map((u) => u.id).sort((a, b) => a - b);
    for (const search of ['ÅNGSTRÖM', 'zoË', '%', '_', 'ku', 'e', 'kumar rao', 'example.test', 'zzqx']) {
      const terms = termsOf(search);
      const rows = await t.orm.em.fork().getConnection().execute<Array<{ id: number }>>(
        `select id from app_user u where u.organization_id = ? and ${terms
          .map(() => '(u.first_name ilike ? or u.last_name ilike ? or u.official_email ilike ? or u.primary_contact_number ilike ?)')
          .join(' and ')} order by id`,
        [ws.organizationId, ...terms.flatMap((term) => Array(4).fill(likePattern(term)))],
      );
      expect(await names(search), search).toEqual(rows.map((r) => r.id));
    }
    expect(await names('ÅNGSTRÖM')).toHaveLength(1);
  });

  it('the products and masters lists match names case-insensitively, in any alphabet, with short terms', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/products',
      token: ws.token,
      payload: { product_name: 'Dahi Crème Fraîche', product_class_id: catalog.productClassId },
    });
    expect(created.statusCode, created.body).toBe(201);
    const products = async (search: string) => (await get(`/api/v1/products?search=${encodeURIComponent(search)}`)).data.map((p) => p.id);
    expect(await products('CRÈME')).toEqual([created.json().data.id]);
    expect(await products('da fraîche')).toEqual([created.json().data.id]);
    expect(await products('è')).toEqual([created.json().data.id]);
    expect(await products('crème zzqx')).toEqual([]);

    const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: 'Škofja Loka' } });
    expect(town.statusCode, town.body).toBe(201);
    const towns = async (search: string) => (await get(`/api/v1/masters/towns?search=${encodeURIComponent(search)}`)).data.map((x) => x.id);
    expect(await towns('ŠKOFJA')).toEqual([town.json().data.id]);
    expect(await towns('a l')).toEqual([town.json().data.id]);
    expect(await towns('_')).toEqual([]);
  });

  it('the order code condition is the trigram index expression for terms with trigrams, and not for shorter ones', async () => {
    const em = t.orm.em.fork();
    // Only a bitmap scan may serve it, and with no workspace condition no btree index can: the
    // trigram index is in the plan exactly when the condition is its expression.
    const plan = async (search: string) =>
      em.transactional(async (tx) => {
        for (const setting of ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan']) await tx.execute(`set local ${setting} = off`);
        const [condition] = await orderSearchConditions(tx, ws.organizationId, search);
        const rows = await tx.execute<Array<{ 'QUERY PLAN': string }>>(`explain select count(*) from sales_order o where ${condition.text}`, [...condition.values]);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    expect(await plan('zzqx')).toContain('sales_order_order_code_trigram_index');
    expect(await plan('ORD-2025')).toContain('sales_order_order_code_trigram_index');
    expect(await plan('ku')).not.toContain('sales_order_order_code_trigram_index');
    expect(await plan('%')).not.toContain('sales_order_order_code_trigram_index');
  });
});

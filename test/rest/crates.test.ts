import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

type Body = Record<string, unknown>;
type Credential = { token?: string; apiKey?: string };

/**
 * Crates: crate types are masters (/masters/crate-types); movements are an append-only ledger with
 * signed quantities; balances are sums with FIFO ageing; returns above the balance are refused
 * under the customer's lock; a movement is reversed once, a reversal never.
 */
describe('crates', () => {
  let t: TestApp;
  let A: Workspace;
  let B: Workspace;
  let catalog: Catalog;
  let employee: { id: number; token: string };
  let distributor: { id: number; token: string };
  let retailer: { id: number; token: string };
  let customerOfB: number;
  let typeOfB: number;
  let deliveredOrder: number;
  let openOrder: number;

  const as = ({ token, apiKey }: Credential) => (apiKey ? { apiKey } : { token });
  const admin = (): Credential => ({ token: A.token });
  const record = (who: Credential, payload: Body) => t.request({ method: 'POST', url: '/api/v1/crates/movements', ...as(who), payload });
  const reverse = (who: Credential, id: number, payload?: Body) =>
    t.request({ method: 'POST', url: `/api/v1/crates/movements/${id}/reverse`, ...as(who), ...(payload ? { payload } : {}) });
  const movements = (who: Credential, query = '') => t.request({ method: 'GET', url: `/api/v1/crates/movements${query}`, ...as(who) });
  const balances = (who: Credential, query = '') => t.request({ method: 'GET', url: `/api/v1/crates/balances${query}`, ...as(who) });
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

  /** A new active crate type of workspace A (its own balances); its id. */
  const newType = async (ws: Workspace = A, deposit = 120) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/masters/crate-types', token: ws.token, payload: { crate_type_name: `Crate ${unique()}`, deposit_value: deposit } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  /** Records and expects a 201; the movement. */
  const recorded = async (payload: Body, who: Credential = admin()) => {
    const res = await record(who, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Body & { id: number; quantity: number };
  };
  /** The balance row of a customer and type (undefined without movements). */
  const balanceOf = async (customer: number, type: number) => {
    const res = await balances(admin(), `?customer_id=${customer}&crate_type_id=${type}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as Body | undefined;
  };
  /** Every movement of workspace A, as the admin lists them. */
  const snapshot = async () => (await movements(admin(), '?limit=100&sort=id')).json();

  beforeAll(async () => {
    t = await buildTestApp({}, { resolveHost: async () => [{ address: '93.184.216.34', family: 4 }] });
    A = await createWorkspace(t);
    B = await createWorkspace(t);
    catalog = await seedCatalog(t, A);
    employee = await createUser(t, A, UserType.EMPLOYEE);
    distributor = { id: catalog.distributorId, token: catalog.distributorToken };
    retailer = await createUser(t, A, UserType.RETAILER);
    customerOfB = (await createUser(t, B, UserType.RETAILER)).id;
    typeOfB = await newType(B);
    const order = (customer: number) => placeOrder(t, A.token, { user_id: customer, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] });
    deliveredOrder = (await order(distributor.id)).id;
    for (const order_status of [2, 3, 4]) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${deliveredOrder}/status`, token: A.token, payload: { order_status } });
      expect(res.statusCode, res.body).toBe(200);
    }
    openOrder = (await order(distributor.id)).id;
  });
  afterAll(() => t?.close());

  describe('crate types (a master)', () => {
    it('are created, listed and changed under /masters/crate-types with a deposit value; names are unique; bad values are 400s', async () => {
      const name = `Milk crate ${unique()}`;
      const res = await t.request({ method: 'POST', url: '/api/v1/masters/crate-types', token: A.token, payload: { crate_type_name: name, deposit_value: 150.5 } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toEqual({ id: expect.any(Number), crate_type_name: name, deposit_value: 150.5, status: 1, createdAt: expect.any(String) });
      const id = res.json().data.id;
      const dup = await t.request({ method: 'POST', url: '/api/v1/masters/crate-types', token: A.token, payload: { crate_type_name: name.toUpperCase() } });
      expect(dup.statusCode).toBe(409);
      for (const deposit_value of [-1, 1.234]) {
        const bad = await t.request({ method: 'POST', url: '/api/v1/masters/crate-types', token: A.token, payload: { crate_type_name: `X ${unique()}`, deposit_value } });
        expect(bad.statusCode, bad.body).toBe(400);
        expect(bad.json().errors[0].field).toBe('deposit_value');
      }
      const put = await t.request({ method: 'PUT', url: `/api/v1/masters/crate-types/${id}`, token: A.token, payload: { deposit_value: 160 } });
      expect(put.json().data).toMatchObject({ crate_type_name: name, deposit_value: 160 });
      const byEmployee = await t.request({ method: 'POST', url: '/api/v1/masters/crate-types', token: employee.token, payload: { crate_type_name: `Y ${unique()}` } });
      expect(byEmployee.statusCode).toBe(403);
      const list = await t.request({ method: 'GET', url: `/api/v1/masters/crate-types?search=${encodeURIComponent(name)}`, token: distributor.token });
      expect(list.json().data.map((c: Body) => c.id)).toEqual([id]);
      const other = await t.request({ method: 'PUT', url: `/api/v1/masters/crate-types/${id}`, token: B.token, payload: { deposit_value: 1 } });
      expect(other.statusCode).toBe(404);
    });

    it('cannot be deactivated while a customer holds crates of it (409); an inactive type takes no issue but its crates still come back', async () => {
      const type = await newType();
      await recorded({ customer_id: retailer.id, crate_type_id: type, kind: 1, quantity: 4 });
      const del = await t.request({ method: 'DELETE', url: `/api/v1/masters/crate-types/${type}`, token: A.token });
      expect(del.statusCode, del.body).toBe(409);
      expect(del.json().message).toMatch(/is used by 1 customer holding crates/);
      await recorded({ customer_id: retailer.id, crate_type_id: type, kind: 2, quantity: 4 });
      expect((await t.request({ method: 'DELETE', url: `/api/v1/masters/crate-types/${type}`, token: A.token })).statusCode).toBe(200);
      const issue = await record(admin(), { customer_id: retailer.id, crate_type_id: type, kind: 1, quantity: 1 });
      expect(issue.statusCode).toBe(400);
      expect(issue.json().errors[0].field).toBe('crate_type_id');
      const correction = await record(admin(), { customer_id: retailer.id, crate_type_id: type, kind: 5, quantity: 1 });
      expect(correction.statusCode, correction.body).toBe(201); // a count found at the customer is recorded whatever the type's status
    });
  });

  describe('movements', () => {
    it('records every kind with its sign, and an issue with its delivered order', async () => {
      const type = await newType();
      const base = { customer_id: distributor.id, crate_type_id: type };
      const opening = await recorded({ ...base, kind: 6, quantity: 5, occurred_at: daysAgo(30), note: 'From the paper register' });
      expect(opening).toEqual({
        id: expect.any(Number),
        customer_id: distributor.id,
        customer_name: expect.any(String),
        store_name: expect.any(String),
        crate_type_id: type,
        crate_type_name: expect.any(String),
        kind: 6,
        quantity: 5,
        order_id: null,
        reverses_id: null,
        reversed_by_id: null,
        occurred_at: expect.any(String),
        note: 'From the paper register',
        recorded_by_user_id: A.adminId,
        recorded_by_api_key_id: null,
        ledger_entry_id: null,
        created_at: expect.any(String),
      });
      const issue = await recorded({ ...base, kind: 1, quantity: 20, order_id: deliveredOrder }, { token: employee.token });
      expect(issue).toMatchObject({ kind: 1, quantity: 20, order_id: deliveredOrder, recorded_by_user_id: employee.id });
      expect((await recorded({ ...base, kind: 2, quantity: 8 })).quantity).toBe(-8);
      expect((await recorded({ ...base, kind: 3, quantity: 2 })).quantity).toBe(-2);
      expect((await recorded({ ...base, kind: 4, quantity: 1 })).quantity).toBe(-1);
      expect((await recorded({ ...base, kind: 5, quantity: -3 })).quantity).toBe(-3);
      expect((await recorded({ ...base, kind: 5, quantity: 2 })).quantity).toBe(2);
      expect(await balanceOf(distributor.id, type)).toMatchObject({ balance: 5 + 20 - 8 - 2 - 1 - 3 + 2, deposit_value: 120, outstanding_value: 13 * 120 });
      const key = await createApiKey(t, A, { scopes: 'read,write,crates' });
      const byKey = await recorded({ ...base, kind: 2, quantity: 1 }, { apiKey: key.key });
      expect(byKey).toMatchObject({ recorded_by_user_id: null, recorded_by_api_key_id: key.id });
      const got = await t.request({ method: 'GET', url: `/api/v1/crates/movements/${issue.id}`, token: A.token });
      expect(got.json()).toEqual({ response_code: 200, data: issue });
    });

    it('refuses a return, damage, loss or downward count above what the customer holds (409), changing nothing', async () => {
      const type = await newType();
      const base = { customer_id: retailer.id, crate_type_id: type };
      const nothing = await record(admin(), { ...base, kind: 2, quantity: 1 });
      expect(nothing.statusCode).toBe(409);
      await recorded({ ...base, kind: 1, quantity: 3 });
      const before = await snapshot();
      for (const payload of [
        { kind: 2, quantity: 4 },
        { kind: 3, quantity: 4 },
        { kind: 4, quantity: 4 },
        { kind: 5, quantity: -4 },
      ]) {
        const res = await record(admin(), { ...base, ...payload });
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().message).toMatch(/holds 3 crates of type ".*": a .* of 4 would take more than that/);
      }
      expect(await snapshot()).toEqual(before);
      await recorded({ ...base, kind: 2, quantity: 3 });
      expect(await balanceOf(retailer.id, type)).toMatchObject({ balance: 0, oldest_outstanding_at: null, age_days: null });
    });

    it('lets concurrent returns take only what the customer holds', async () => {
      const type = await newType();
      const base = { customer_id: retailer.id, crate_type_id: type };
      await recorded({ ...base, kind: 1, quantity: 5 });
      const results = await Promise.all(Array.from({ length: 6 }, () => record(admin(), { ...base, kind: 2, quantity: 2 })));
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([201, 201, 409, 409, 409, 409]);
      expect((await balanceOf(retailer.id, type))?.balance).toBe(1);
    });

    it('answers 400 naming the field for bad input, and changes nothing', async () => {
      const type = await newType();
      const base = { customer_id: distributor.id, crate_type_id: type, kind: 1, quantity: 1 };
      const before = await snapshot();
      const cases: Array<[Body, string]> = [
        [{ ...base, customer_id: employee.id }, 'customer_id'],
        [{ ...base, customer_id: 99_999_999 }, 'customer_id'],
        [{ ...base, customer_id: customerOfB }, 'customer_id'],
        [{ ...base, crate_type_id: 99_999_999 }, 'crate_type_id'],
        [{ ...base, crate_type_id: typeOfB }, 'crate_type_id'],
        [{ ...base, kind: 7 }, 'kind'],
        [{ ...base, kind: 9 }, 'kind'],
        [{ ...base, quantity: 0 }, 'quantity'],
        [{ ...base, quantity: -2 }, 'quantity'],
        [{ ...base, kind: 2, quantity: -2 }, 'quantity'],
        [{ ...base, kind: 5, quantity: 0 }, 'quantity'],
        [{ ...base, quantity: 1.5 }, 'quantity'],
        [{ ...base, quantity: 100_001 }, 'quantity'],
        [{ ...base, kind: 2, order_id: deliveredOrder }, 'order_id'],
        [{ ...base, order_id: openOrder }, 'order_id'],
        [{ ...base, customer_id: retailer.id, order_id: deliveredOrder }, 'order_id'],
        [{ ...base, order_id: 99_999_999 }, 'order_id'],
        [{ ...base, occurred_at: new Date(Date.now() + 86_400_000).toISOString() }, 'occurred_at'],
        [{ ...base, occurred_at: 'yesterday' }, 'occurred_at'],
        [{ ...base, note: 'x'.repeat(501) }, 'note'],
        [{ crate_type_id: type, kind: 1, quantity: 1 }, 'customer_id'],
      ];
      for (const [payload, field] of cases) {
        const res = await record(admin(), payload);
        expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
        expect(res.json().errors[0].field, JSON.stringify(payload)).toBe(field);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('never updates or deletes a movement row (the database refuses)', async () => {
      const type = await newType();
      const { id } = await recorded({ customer_id: retailer.id, crate_type_id: type, kind: 1, quantity: 2 });
      const conn = t.orm.em.fork().getConnection();
      await expect(conn.execute('update crate_movement set quantity = 200 where id = ?', [id])).rejects.toThrow(/append-only/);
      await expect(conn.execute('delete from crate_movement where id = ?', [id])).rejects.toThrow(/append-only/);
      expect((await balanceOf(retailer.id, type))?.balance).toBe(2);
    });
  });

  describe('reversals', () => {
    it('post the negated quantity linked to the original, once; a reversal is never reversed', async () => {
      const type = await newType();
      const base = { customer_id: distributor.id, crate_type_id: type };
      await recorded({ ...base, kind: 1, quantity: 10 });
      const ret = await recorded({ ...base, kind: 2, quantity: 4 });
      const res = await reverse(admin(), ret.id, { note: 'Counted twice' });
      expect(res.statusCode, res.body).toBe(200);
      const reversal = res.json().data;
      expect(reversal).toMatchObject({ kind: 7, quantity: 4, reverses_id: ret.id, reversed_by_id: null, note: 'Counted twice', customer_id: distributor.id, crate_type_id: type });
      expect((await t.request({ method: 'GET', url: `/api/v1/crates/movements/${ret.id}`, token: A.token })).json().data.reversed_by_id).toBe(reversal.id);
      expect((await balanceOf(distributor.id, type))?.balance).toBe(10);
      const again = await reverse(admin(), ret.id);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already reversed by movement/);
      const ofReversal = await reverse(admin(), reversal.id);
      expect(ofReversal.statusCode).toBe(409);
      expect(ofReversal.json().message).toMatch(/a reversal cannot be reversed/);
      expect((await balanceOf(distributor.id, type))?.balance).toBe(10);
    });

    it('refuse to reverse an issue whose crates have come back (409), and two concurrent reversals make one', async () => {
      const type = await newType();
      const base = { customer_id: retailer.id, crate_type_id: type };
      const issue = await recorded({ ...base, kind: 1, quantity: 6 });
      await recorded({ ...base, kind: 2, quantity: 6 });
      const refused = await reverse(admin(), issue.id);
      expect(refused.statusCode).toBe(409);
      const second = await recorded({ ...base, kind: 1, quantity: 3 });
      const both = await Promise.all([reverse(admin(), second.id), reverse({ token: employee.token }, second.id)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await balanceOf(retailer.id, type))?.balance).toBe(0);
    });

    it('allow one standing opening balance per customer and type: another is a 409 until it is reversed', async () => {
      const type = await newType();
      const base = { customer_id: retailer.id, crate_type_id: type, kind: 6 };
      const first = await recorded({ ...base, quantity: 7 });
      const dup = await record(admin(), { ...base, quantity: 8 });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toMatch(/already has an opening balance/);
      await reverse(admin(), first.id);
      await recorded({ ...base, quantity: 8 });
      expect((await balanceOf(retailer.id, type))?.balance).toBe(8);
    });

    it('answer 404 for a movement of another workspace and for no movement, changing nothing', async () => {
      const type = await newType();
      const { id } = await recorded({ customer_id: retailer.id, crate_type_id: type, kind: 1, quantity: 2 });
      const before = await snapshot();
      const keyOfB = await createApiKey(t, B, { scopes: 'read,write,crates' });
      expect((await reverse({ token: B.token }, id)).statusCode).toBe(404);
      expect((await reverse({ apiKey: keyOfB.key }, id)).statusCode).toBe(404);
      expect((await reverse(admin(), 99_999_999)).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: `/api/v1/crates/movements/${id}`, token: B.token })).statusCode).toBe(404);
      expect((await movements({ token: B.token })).json().pagination.total).toBe(0);
      expect((await balances({ token: B.token }, `?customer_id=${retailer.id}`)).json().pagination.total).toBe(0);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('balances', () => {
    it('age the oldest outstanding crates FIFO, whatever order movements were recorded in; a reversed issue is not consumed', async () => {
      const type = await newType(A, 50);
      const base = { customer_id: distributor.id, crate_type_id: type };
      await recorded({ ...base, kind: 1, quantity: 5, occurred_at: daysAgo(3) });
      const old = await recorded({ ...base, kind: 1, quantity: 10, occurred_at: daysAgo(10) }); // recorded late, happened first
      await recorded({ ...base, kind: 2, quantity: 8 });
      // 10 from 10 days ago: 8 came back, 2 still out.
      expect(await balanceOf(distributor.id, type)).toMatchObject({ balance: 7, age_days: 10, outstanding_value: 350 });
      const ret = await recorded({ ...base, kind: 3, quantity: 2 });
      expect(await balanceOf(distributor.id, type)).toMatchObject({ balance: 5, age_days: 3 });
      await reverse(admin(), ret.id);
      expect(await balanceOf(distributor.id, type)).toMatchObject({ balance: 7, age_days: 10 });
      // Reversing the old issue takes its 10 back; the 8 returned then came from the 5 of 3 days ago
      // and 3 more than that, which the balance check refuses (7 held).
      expect((await reverse(admin(), old.id)).statusCode).toBe(409);
      const balance = await balanceOf(distributor.id, type);
      expect(balance).toEqual({
        customer_id: distributor.id,
        customer_name: expect.any(String),
        store_name: expect.any(String),
        crate_type_id: type,
        crate_type_name: expect.any(String),
        deposit_value: 50,
        balance: 7,
        outstanding_value: 350,
        oldest_outstanding_at: expect.any(String),
        age_days: 10,
        last_movement_at: expect.any(String),
      });
    });

    it('let a customer read only their own balances and movements; customers record nothing (403)', async () => {
      const type = await newType();
      await recorded({ customer_id: distributor.id, crate_type_id: type, kind: 1, quantity: 4 });
      const theirs = await recorded({ customer_id: retailer.id, crate_type_id: type, kind: 1, quantity: 6 });
      const own = await balances({ token: distributor.token }, `?crate_type_id=${type}`);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().data.map((b: Body) => [b.customer_id, b.balance])).toEqual([[distributor.id, 4]]);
      expect((await balances({ token: distributor.token }, `?customer_id=${retailer.id}`)).json().pagination.total).toBe(0);
      const ownMoves = await movements({ token: distributor.token }, `?crate_type_id=${type}`);
      expect(ownMoves.json().data.map((m: Body) => m.customer_id)).toEqual([distributor.id]);
      expect((await t.request({ method: 'GET', url: `/api/v1/crates/movements/${theirs.id}`, token: distributor.token })).statusCode).toBe(404);
      const post = await record({ token: distributor.token }, { customer_id: distributor.id, crate_type_id: type, kind: 2, quantity: 1 });
      expect(post.statusCode).toBe(403);
      expect((await reverse({ token: retailer.token }, theirs.id)).statusCode).toBe(403);
      const gql = await t.graphql<{ crateBalances: { nodes: Array<{ customerId: number; balance: number }> } }>(
        `query($type: Int) { crateBalances(crateTypeId: $type) { nodes { customerId balance } } }`,
        { type },
        retailer.token,
      );
      expect(gql.errors).toBeUndefined();
      expect(gql.data?.crateBalances.nodes).toEqual([{ customerId: retailer.id, balance: 6 }]);
    });

    it('filter by customer, type and held, sort by the list contract, and refuse an unknown sort (400 naming sort)', async () => {
      const [t1, t2] = [await newType(), await newType()];
      await recorded({ customer_id: distributor.id, crate_type_id: t1, kind: 1, quantity: 9, occurred_at: daysAgo(1) });
      await recorded({ customer_id: retailer.id, crate_type_id: t1, kind: 1, quantity: 2, occurred_at: daysAgo(20) });
      await recorded({ customer_id: retailer.id, crate_type_id: t2, kind: 1, quantity: 4 });
      await recorded({ customer_id: retailer.id, crate_type_id: t2, kind: 2, quantity: 4 });
      const ofType = (await balances(admin(), `?crate_type_id=${t1}`)).json();
      expect(ofType.data.map((b: Body) => [b.customer_id, b.age_days])).toEqual([
        [retailer.id, 20],
        [distributor.id, 1],
      ]); // oldest outstanding first
      expect(ofType.pagination).toMatchObject({ total: 2, page: 1 });
      const byBalance = (await balances(admin(), `?crate_type_id=${t1}&sort=-balance`)).json();
      expect(byBalance.data.map((b: Body) => b.balance)).toEqual([9, 2]);
      const paged = (await balances(admin(), `?crate_type_id=${t1}&sort=balance&limit=1&page=2`)).json();
      expect(paged.data.map((b: Body) => b.balance)).toEqual([9]);
      expect(paged.pagination).toMatchObject({ total: 2, page: 2, limit: 1 });
      const retailers = (await balances(admin(), `?customer_id=${retailer.id}&sort=crate_type_id`)).json().data.filter((b: Body) => b.crate_type_id === t1 || b.crate_type_id === t2);
      expect(retailers.map((b: Body) => [b.crate_type_id, b.balance])).toEqual([
        [t1, 2],
        [t2, 0],
      ]);
      const held = (await balances(admin(), `?customer_id=${retailer.id}&crate_type_id=${t2}&held=true`)).json();
      expect(held.pagination.total).toBe(0);
      const bad = await balances(admin(), '?sort=name');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0].field).toBe('sort');
    });
  });

  describe('the movement list', () => {
    it('filters by customer, type, kind, order and local days, and sorts', async () => {
      const type = await newType();
      const base = { customer_id: distributor.id, crate_type_id: type };
      const a = await recorded({ ...base, kind: 1, quantity: 3, occurred_at: daysAgo(5), order_id: deliveredOrder });
      const b = await recorded({ ...base, kind: 2, quantity: 1, occurred_at: daysAgo(2) });
      const c = await recorded({ ...base, kind: 4, quantity: 2 });
      const ids = async (query: string) => {
        const res = await movements(admin(), `?crate_type_id=${type}${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.map((m: Body) => m.id);
      };
      expect(await ids('')).toEqual([c.id, b.id, a.id]); // latest first
      expect(await ids('&sort=occurred_at')).toEqual([a.id, b.id, c.id]);
      expect(await ids('&sort=quantity')).toEqual([c.id, b.id, a.id]);
      expect(await ids('&kind=2')).toEqual([b.id]);
      expect(await ids(`&order_id=${deliveredOrder}`)).toEqual([a.id]);
      expect(await ids(`&customer_id=${retailer.id}`)).toEqual([]);
      const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
      expect(await ids(`&date_from=${day(3)}`)).toEqual([c.id, b.id]);
      expect(await ids(`&date_from=${day(6)}&date_to=${day(4)}`)).toEqual([a.id]);
      for (const [query, field] of [
        [`&date_from=${day(1)}&date_to=${day(3)}`, 'date_from'],
        ['&date_from=2026-02-30', 'date_from'],
        ['&kind=8', 'kind'],
        ['&sort=customer', 'sort'],
        ['&limit=101', 'limit'],
      ]) {
        const res = await movements(admin(), `?crate_type_id=${type}${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().errors[0].field, query).toBe(field);
      }
    });
  });

  it('queues crate_movement.recorded for subscribed webhooks in the movement’s transaction, reversals included', async () => {
    const ws = await createWorkspace(t);
    const customer = await createUser(t, ws, UserType.RETAILER);
    const type = await newType(ws);
    const hook = await t.request({
      method: 'POST',
      url: '/api/v1/developer/webhooks',
      token: ws.token,
      payload: { name: 'ERP', url: 'https://erp.example.test/hooks', events: ['crate_movement.recorded'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const issue = await recorded({ customer_id: customer.id, crate_type_id: type, kind: 1, quantity: 3 }, { token: ws.token });
    expect((await record({ token: ws.token }, { customer_id: customer.id, crate_type_id: type, kind: 2, quantity: 4 })).statusCode).toBe(409); // no event
    const reversal = (await reverse({ token: ws.token }, issue.id)).json().data;
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ event_type: string; event_data: Body }>>('select event_type, event_data from webhook_delivery where organization_id = ? order by id', [ws.organizationId]);
    expect(rows.map((r) => r.event_type)).toEqual(['crate_movement.recorded', 'crate_movement.recorded']);
    expect(rows[0].event_data).toMatchObject({ id: issue.id, customer_id: customer.id, crate_type_id: type, kind: 1, quantity: 3, reverses_id: null });
    expect(rows[1].event_data).toMatchObject({ id: reversal.id, kind: 7, quantity: -3, reverses_id: issue.id });
  });

  it('a damage or loss may be charged to the customer’s ledger at the deposit value; reversing the movement reverses the charge', async () => {
    const type = await newType(A, 45.5);
    const customer = (await createUser(t, A, UserType.RETAILER)).id;
    await recorded({ customer_id: customer, crate_type_id: type, kind: 1, quantity: 10 });
    const statement = async () => (await t.request({ method: 'GET', url: `/api/v1/ledger/statement?customer_id=${customer}`, token: A.token })).json().data;
    const damaged = await recorded({ customer_id: customer, crate_type_id: type, kind: 3, quantity: 2, charge: true, occurred_at: daysAgo(1) });
    expect(damaged.ledger_entry_id).toEqual(expect.any(Number));
    const charged = await statement();
    const charge = charged.rows.find((r: { id: number }) => r.id === damaged.ledger_entry_id);
    expect(charge).toMatchObject({ kind: 7, debit: 91, credit: 0 });
    expect(charge.narration).toMatch(/^2 × Crate .* crate damage at 45\.50$/);
    expect(charged.closing_balance).toBe(91);
    // Not through the ledger: the charge follows its movement.
    expect((await t.request({ method: 'POST', url: `/api/v1/ledger/entries/${charge.id}/reverse`, token: A.token, payload: { reason: 'x' } })).statusCode).toBe(409);
    const reversal = await reverse(admin(), damaged.id, { note: 'Found intact' });
    expect(reversal.statusCode, reversal.body).toBe(200);
    const reversedCharge = reversal.json().data.ledger_entry_id as number;
    const after = await statement();
    expect(after.rows.find((r: { id: number }) => r.id === reversedCharge)).toMatchObject({ kind: 6, debit: 0, credit: 91, reverses_id: charge.id });
    expect(after.closing_balance).toBe(0);
    // An uncharged loss posts nothing; a charge on another kind, or of a type without a deposit, is a 400 naming charge.
    const lost = await recorded({ customer_id: customer, crate_type_id: type, kind: 4, quantity: 1 });
    expect(lost.ledger_entry_id).toBeNull();
    const free = await newType(A, 0);
    await recorded({ customer_id: customer, crate_type_id: free, kind: 1, quantity: 3 });
    for (const payload of [
      { customer_id: customer, crate_type_id: type, kind: 2, quantity: 1, charge: true },
      { customer_id: customer, crate_type_id: free, kind: 3, quantity: 1, charge: true },
    ]) {
      const res = await record(admin(), payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0].field).toBe('charge');
    }
    expect((await statement()).closing_balance).toBe(0);
  });
});

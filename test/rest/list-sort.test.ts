import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createProduct, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Each list, its sortable fields and, as the oracle, the SQL that orders the workspace's rows by
 * each field (written here by hand, not taken from the code under test). Ties are broken by id in
 * the last key's direction.
 */
interface SortedList {
  url: string;
  graphql: { field: string; enumOf: (field: string) => string };
  table: string;
  columns: Record<string, string>;
}

const LISTS: SortedList[] = [
  {
    url: '/orders',
    graphql: { field: 'orders', enumOf: (f) => f.toUpperCase() },
    table: 'sales_order',
    columns: {
      created_at: 'created_at',
      order_date: 'order_date',
      order_code: 'order_code',
      order_total_amount: 'total_amount',
      order_status: 'status',
      delivery_date: 'delivery_date',
      id: 'id',
    },
  },
  {
    url: '/payments',
    graphql: { field: 'payments', enumOf: (f) => f.toUpperCase() },
    table: 'payment',
    columns: { paid_at: 'paid_at', amount: 'amount', created_at: 'created_at', id: 'id' },
  },
  {
    url: '/products',
    graphql: { field: 'products', enumOf: (f) => f.toUpperCase() },
    table: 'product',
    columns: { created_at: 'created_at', product_name: 'name', status: 'status', id: 'id' },
  },
  {
    url: '/users',
    graphql: { field: 'users', enumOf: (f) => f.toUpperCase() },
    table: 'app_user',
    columns: { created_at: 'created_at', first_name: 'first_name', last_name: 'last_name', user_type: 'user_type', status: 'status', id: 'id' },
  },
  {
    url: '/masters/towns',
    graphql: { field: 'towns', enumOf: (f) => f.toUpperCase() },
    table: 'town',
    columns: { name: 'name', status: 'status', created_at: 'created_at', id: 'id' },
  },
  {
    url: '/attendance',
    graphql: { field: 'attendance', enumOf: (f) => f.toUpperCase() },
    table: 'attendance',
    columns: { date: 'day', check_in_at: 'check_in_at', check_out_at: 'check_out_at', id: 'id' },
  },
  {
    url: '/sales-plan/targets',
    graphql: { field: 'salesTargets', enumOf: (f) => f.toUpperCase() },
    table: 'sales_target',
    columns: {
      period_start: 'period_start',
      period_type: 'period_type',
      user_id: 'user_id',
      target_amount: 'target_amount',
      target_quantity: 'target_quantity',
      created_at: 'created_at',
      id: 'id',
    },
  },
];

describe('sort on every list', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  const get = (url: string) => t.request({ method: 'GET', url: `/api/v1${url}`, token: ws.token });
  const gql = (query: string, variables?: Record<string, unknown>) => t.graphql(query, variables, ws.token) as Promise<GraphqlAnswer>;

  /** The workspace's ids of `list` in the order the hand-written SQL gives for `keys`, id last. */
  async function expectedIds(list: SortedList, keys: Array<[string, 'asc' | 'desc']>): Promise<number[]> {
    const order = keys.map(([field, direction]) => `${list.columns[field]} ${direction}`);
    if (!keys.some(([field]) => field === 'id')) order.push(`id ${keys[keys.length - 1][1]}`);
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select id from ${list.table} where organization_id = ? order by ${order.join(', ')}`, [ws.organizationId]);
    return (rows as Array<{ id: number }>).map((r) => r.id);
  }

  const idsOf = (res: { json(): { data: Array<{ id: number }> } }) => res.json().data.map((row) => row.id);

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    const n = unique();
    // Same names and amounts on purpose: ties must fall back to id.
    for (const name of ['Zeta', 'Alpha', 'Alpha']) {
      await createProduct(t, ws, {
        product_name: `${name} ${n}`,
        product_class_id: cat.productClassId,
        variants: [{ variant_name: '1', item_sku_code: `S-${name}-${unique()}`, mrp: 10, sp: 9 }],
      });
    }
    for (const name of ['Mumbai', 'Agra', 'Pune']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: `${name} ${n}` } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const orders = [];
    for (const [quantity, date] of [
      [3, '2026-01-05'],
      [1, '2026-03-01'],
      [3, '2026-02-10'],
      [2, '2026-03-01'],
    ] as const) {
      orders.push(await placeOrder(t, ws.token, { user_id: cat.distributorId, order_date: date, items: [{ product_variant_id: cat.variantIds[0], quantity }] }));
    }
    for (const [order, amount] of [
      [orders[0], 5],
      [orders[1], 1],
      [orders[2], 5],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/api/v1/payments', token: ws.token, payload: { order_id: order.id, amount } });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (let i = 0; i < 3; i += 1) {
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const res = await t.request({ method: 'POST', url: '/api/v1/attendance/check-in', token: employee.token, payload: {} });
      expect(res.statusCode, res.body).toBe(201);
      if (i === 1) expect((await t.request({ method: 'POST', url: '/api/v1/attendance/check-out', token: employee.token, payload: {} })).statusCode).toBe(200);
      // Sales targets: equal amounts and periods on purpose, some amounts or quantities absent.
      for (const [periodType, periodStart, amount, quantity] of [
        [1, '2026-11-01', 500, null],
        [2, '2026-10-01', 500, 30],
        [1, '2026-12-01', null, 30],
      ] as const) {
        const target = await t.request({
          method: 'POST',
          url: '/api/v1/sales-plan/targets',
          token: ws.token,
          payload: { user_id: employee.id, period_type: periodType, period_start: periodStart, target_amount: amount, target_quantity: quantity },
        });
        expect(target.statusCode, target.body).toBe(201);
      }
    }
  });
  afterAll(() => t.close());

  for (const list of LISTS) {
    describe(`GET ${list.url}`, () => {
      it('sorts by each field either way, id breaking ties; without sort, the default order', async () => {
        for (const field of Object.keys(list.columns)) {
          for (const direction of ['asc', 'desc'] as const) {
            const res = await get(`${list.url}?limit=100&sort=${direction === 'desc' ? '-' : ''}${field}`);
            expect(res.statusCode, res.body).toBe(200);
            expect(idsOf(res), `${field} ${direction}`).toEqual(await expectedIds(list, [[field, direction]]));
          }
        }
        const [first, second] = Object.keys(list.columns);
        const twoKeys = await get(`${list.url}?limit=100&sort=${second},-${first}`);
        expect(idsOf(twoKeys)).toEqual(await expectedIds(list, [[second, 'asc'], [first, 'desc']]));
        const plain = await get(`${list.url}?limit=100`);
        const sortParam = (t.app.swagger() as any).paths[list.url].get.parameters.find((p: { name: string }) => p.name === 'sort');
        const defaultText = /Default: `([^`]+)`/.exec(sortParam.description)![1];
        expect(idsOf(await get(`${list.url}?limit=100&sort=${defaultText}`))).toEqual(idsOf(plain));
      });

      it('lists its sortable fields in the OpenAPI document', async () => {
        const sortParam = (t.app.swagger() as any).paths[list.url].get.parameters.find((p: { name: string }) => p.name === 'sort');
        expect(sortParam.in).toBe('query');
        expect(sortParam.schema['x-sortable-fields']).toEqual(Object.keys(list.columns));
        for (const field of Object.keys(list.columns)) expect(sortParam.description).toContain(field);
      });

      it('an unknown, repeated or malformed sort field is a 400 naming sort', async () => {
        for (const [sort, message] of [
          ['-nope', /"nope" is not a sortable field of this list; sortable: /],
          ['id,-id', /names "id" twice/],
          ['id,,', /is not a field name/],
          ['-', /is not a field name/],
          ['a,b,c,d,e', /at most 4 fields/],
        ] as const) {
          const res = await get(`${list.url}?sort=${encodeURIComponent(sort)}`);
          expect(res.statusCode, `${sort}: ${res.body}`).toBe(400);
          expect(res.json().errors).toEqual([{ field: 'sort', message: expect.stringMatching(message) }]);
        }
      });

      it('GraphQL takes the same fields as sort: [{field, direction}]', async () => {
        const fields = Object.keys(list.columns);
        const field = fields[fields.length - 2];
        const query = `query($sort: [${typeName(list)}Sort!]) { ${list.graphql.field}(limit: 100, sort: $sort) { nodes { id } } }`;
        const data = expectGraphqlData(await gql(query, { sort: [{ field: list.graphql.enumOf(field), direction: 'DESC' }] }));
        expect(data[list.graphql.field].nodes.map((node: { id: number }) => node.id)).toEqual(await expectedIds(list, [[field, 'desc']]));
        const asc = expectGraphqlData(await gql(query, { sort: [{ field: list.graphql.enumOf(field), direction: 'ASC' }] }));
        expect(asc[list.graphql.field].nodes.map((node: { id: number }) => node.id)).toEqual(await expectedIds(list, [[field, 'asc']]));
        expectGraphqlError(await gql(query, { sort: [{ field: 'ID', direction: 'ASC' }, { field: 'ID', direction: 'DESC' }] }), 'BAD_USER_INPUT', /names "id" twice/);
      });
    });
  }
});

/** The GraphQL name of a list's sort input: `OrderSort`, `MasterSort`, … */
function typeName(list: SortedList): string {
  const names: Record<string, string> = {
    '/orders': 'Order',
    '/payments': 'Payment',
    '/products': 'Product',
    '/users': 'User',
    '/masters/towns': 'Master',
    '/attendance': 'Attendance',
    '/sales-plan/targets': 'SalesTarget',
  };
  return names[list.url];
}

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_QUERY_COMPLEXITY, MAX_QUERY_DEPTH, MAX_QUERY_FIELDS, MAX_QUERY_TOKENS } from '../../src/graphql/limits';
import { createWorkspace, seedCatalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlError, expectNoLeak } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';


// Depth as graphql-depth-limit counts it: top-level fields are depth 0, so the leaf of `nest(9)` is depth 9.
const CHAIN = ['items', 'variant', 'product', 'variants', 'product', 'variants', 'product', 'variants'];
/** `orders(limit: 1) { nodes { items { ... } } }` whose deepest field sits at `depth` (one order keeps its cost low). */
function nested(depth: number): string {
  const fields = ['orders(limit: 1)', 'nodes', ...CHAIN].slice(0, depth);
  return `query Deep { ${fields.map((f) => `${f} {`).join(' ')} id ${'}'.repeat(fields.length)} }`;
}

describe('GraphQL limits, introspection and error hygiene', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    await seedCatalog(t, ws);
  });
  afterAll(() => t.close());

  it('marks every answer as not to be stored by caches, errors included', async () => {
    const ask = (query: string) => t.request({ method: 'POST', url: '/graphql', token: ws.token, payload: { query } });
    const answered = await ask('{ orders { pageInfo { total } } }');
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.headers['cache-control']).toBe('no-store');
    const refused = await ask('{ nope }');
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('uses the documented limits', () => {
    expect(MAX_QUERY_DEPTH).toBe(8);
    expect(MAX_QUERY_COMPLEXITY).toBe(50_000);
    expect(MAX_QUERY_FIELDS).toBe(2000);
    expect(MAX_QUERY_TOKENS).toBe(10_000);
  });

  it(`accepts a query ${MAX_QUERY_DEPTH} levels deep and refuses one deeper, before running it`, async () => {
    const atLimit = await t.graphql<{ orders: { nodes: unknown[] } }>(nested(8), {}, ws.token);
    expect(atLimit.errors, JSON.stringify(atLimit.errors)).toBeUndefined();
    expect(atLimit.data?.orders.nodes).toEqual([]);

    t.queries.reset();
    const tooDeep = await t.graphql(nested(9), {}, ws.token);
    expect(tooDeep.statusCode).toBe(400);
    expectGraphqlError(tooDeep, 'GRAPHQL_VALIDATION_FAILED', "'Deep' exceeds maximum operation depth of 8");
    expect('data' in tooDeep).toBe(false);
    // Only the credential lookup ran; no resolver touched the database.
    expect(t.queries.count, t.queries.statements.join('\n')).toBe(1);
  });

  it('refuses a query whose estimated cost is above 50,000 with QUERY_TOO_COMPLEX, before running it', async () => {
    // dashboardStats costs 15,000 and each field it selects 1: three are allowed, four are not.
    const stats = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `s${i}: dashboardStats { orderDeliveredCount }`).join(' ')} }`;
    t.queries.reset();
    const refused = await t.graphql(stats(4), {}, ws.token);
    expectGraphqlError(refused, 'QUERY_TOO_COMPLEX', 'Query is too complex: 60004, the maximum is 50000');
    expect(refused.statusCode).toBe(400);
    expect(t.queries.count, t.queries.statements.join('\n')).toBe(1);
    const allowed = await t.graphql<Record<string, unknown>>(stats(3), {}, ws.token);
    expect(allowed.errors, JSON.stringify(allowed.errors)).toBeUndefined();
    expect(Object.keys(allowed.data ?? {})).toHaveLength(3);

    // 1,000 × me (2,500 each) was once priced 2,000 and ran for seconds.
    const me = `{ ${Array.from({ length: 1000 }, (_, i) => `m${i}: me { id }`).join(' ')} }`;
    t.queries.reset();
    expectGraphqlError(await t.graphql(me, {}, ws.token), 'QUERY_TOO_COMPLEX', 'Query is too complex: 2501000, the maximum is 50000');
    expect(t.queries.count).toBe(1);

    // A page costs 2,000 plus its limit × what each row selects, the limit counting through variables:
    // 2,000 + 100 × (1 + 480) is over, 2,000 + 98 × 481 and 2,000 + 100 × 480 are not.
    const wide = (fields: number) => `query($n: Int) { orders(limit: $n) { nodes { ${Array.from({ length: fields }, (_, i) => `f${i}: id`).join(' ')} } } }`;
    expectGraphqlError(await t.graphql(wide(480), { n: 100 }, ws.token), 'QUERY_TOO_COMPLEX', 'Query is too complex: 50100, the maximum is 50000');
    const under = await t.graphql(wide(480), { n: 98 }, ws.token);
    expect(under.errors, JSON.stringify(under.errors)).toBeUndefined();
    const atMax = await t.graphql(wide(479), { n: 100 }, ws.token);
    expect(atMax.errors, JSON.stringify(atMax.errors)).toBeUndefined();
    // Estimates are kept per query and variables: the same query again is judged by its own limit.
    expectGraphqlError(await t.graphql(wide(480), { n: 100 }, ws.token), 'QUERY_TOO_COMPLEX', 'Query is too complex: 50100, the maximum is 50000');
    const againUnder = await t.graphql(wide(480), { n: 98 }, ws.token);
    expect(againUnder.errors, JSON.stringify(againUnder.errors)).toBeUndefined();
  });

  it('runs a normal query', async () => {
    const res = await t.graphql<{ products: { nodes: Array<{ variants: unknown[] }>; pageInfo: { total: number } } }>(
      `{ products(limit: 10) { nodes { name productClass { name } variants { sp } } pageInfo { total } } }`,
      {},
      ws.token,
    );
    expect(res.errors).toBeUndefined();
    expect(res.statusCode).toBe(200);
    expect(res.data?.products.pageInfo.total).toBe(1);
    expect(res.data?.products.nodes[0].variants).toEqual([{ sp: 28.5 }, { sp: 55 }]);
  });

  it('answers introspection, with and without a credential', async () => {
    for (const token of [undefined, ws.token]) {
      const res = await t.graphql<{ __schema: { queryType: { name: string }; mutationType: { name: string } } }>(
        '{ __schema { queryType { name } mutationType { name } } }',
        {},
        token,
      );
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({ __schema: { queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } } });
    }
    const type = await t.graphql<{ __type: { enumValues: Array<{ name: string }> } }>(
      '{ __type(name: "OrderStatus") { enumValues { name } } }',
    );
    expect(type.data?.__type.enumValues.map((v) => v.name)).toEqual(['INITIATED', 'FORWARDED', 'APPROVED', 'DELIVERED']);
  });

  it('refuses unknown fields and malformed queries as validation or parse failures', async () => {
    const unknown = await t.graphql('{ orders { nodes { id secretColumn } } }', {}, ws.token);
    expect(unknown.statusCode).toBe(400);
    expectGraphqlError(unknown, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "secretColumn" on type "Order"/);
    const unknownRoot = await t.graphql('{ adminPasswords }', {}, ws.token);
    expectGraphqlError(unknownRoot, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "adminPasswords" on type "Query"/);
    const unknownArg = await t.graphql('{ orders(tenantId: 1) { pageInfo { total } } }', {}, ws.token);
    expectGraphqlError(unknownArg, 'GRAPHQL_VALIDATION_FAILED', /Unknown argument "tenantId"/);
    const parse = await t.graphql('{ orders { nodes { id }', {}, ws.token);
    expect(parse.statusCode).toBe(400);
    expectGraphqlError(parse, 'GRAPHQL_PARSE_FAILED');
  });

  it('refuses badly typed variables as BAD_USER_INPUT, not as a server error', async () => {
    const res = await t.graphql('query($id: Int!) { order(id: $id) { id } }', { id: 'seven' }, ws.token);
    expect(res.statusCode).toBe(400);
    expectGraphqlError(res, 'BAD_USER_INPUT', /^Variable "\$id" got invalid value "seven"/);
    const missing = await t.graphql('query($id: Int!) { order(id: $id) { id } }', {}, ws.token);
    expectGraphqlError(missing, 'BAD_USER_INPUT', /^Variable "\$id" of required type "Int!" was not provided/);
  });

  it('hides unexpected failures behind INTERNAL_SERVER_ERROR with no stack trace or SQL', async () => {
    const boom = Object.assign(new Error('select "password_hash" from "app_user" where 1 = 1 - relation broke'), {
      sql: 'select * from app_user',
    });
    const spy = vi.spyOn(t.app.services.orders, 'listRows').mockRejectedValueOnce(boom);
    try {
      const res = await t.graphql('{ orders { pageInfo { total } } }', {}, ws.token);
      expect(spy).toHaveBeenCalledTimes(1);
      expectGraphqlError(res, 'INTERNAL_SERVER_ERROR', 'Internal server error');
      expect(JSON.stringify(res)).not.toMatch(/password_hash|app_user|relation broke/);
      expect(res.errors![0]).toEqual({
        message: 'Internal server error',
        locations: [{ line: 1, column: 3 }],
        path: ['orders'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('never puts a stack trace in any error it sends', async () => {
    const answers = await Promise.all([
      t.graphql('{ me { id } }'),
      t.graphql('{ order(id: 999999) { id } }', {}, ws.token),
      t.graphql('mutation { createTown(input: { name: "" }) { id } }', {}, ws.token),
      t.graphql('{ nope }', {}, ws.token),
      t.graphql(nested(10), {}, ws.token),
    ]);
    expect(answers.map((a) => a.errors?.[0].extensions?.code)).toEqual([
      'UNAUTHENTICATED',
      'NOT_FOUND',
      'BAD_USER_INPUT',
      'GRAPHQL_VALIDATION_FAILED',
      'GRAPHQL_VALIDATION_FAILED',
    ]);
    for (const answer of answers) {
      expectNoLeak(answer);
      for (const error of answer.errors ?? []) expect(Object.keys(error.extensions ?? {})).toEqual(['code']);
    }
    expect(answers[2].errors![0].message).toBe('name is required');
  });
});

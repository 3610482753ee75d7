import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_FIELDS, MAX_QUERY_TOKENS } from '../../src/graphql/limits';
import { createWorkspace, type Workspace } from '../helpers/fixtures';
import { expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** `{ a0: <field> a1: <field> … }` with `n` aliases. */
const aliased = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

/**
 * Documents refused before anything runs: each answers 400 with a stable code (never a 500), runs
 * no resolver, and is logged as nothing unexpected.
 */
describe('GraphQL documents refused before execution', () => {
  let t: TestApp;
  let ws: Workspace;
  const logged: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ LOG_LEVEL: 'error' }, { logStream: { write: (line) => logged.push(line) } });
    ws = await createWorkspace(t);
  });
  afterAll(() => t.close());

  /** Sends `payload` to /graphql with the workspace's session; the statements it ran are in t.queries. */
  async function send(payload: Record<string, unknown>) {
    t.queries.reset();
    const res = await t.request({ method: 'POST', url: '/graphql', token: ws.token, payload });
    return { ...res.json(), statusCode: res.statusCode };
  }

  /** Only the credential lookup ran: no resolver reached the database. */
  function expectNothingRan(): void {
    expect(t.queries.count, t.queries.statements.join('\n')).toBe(1);
  }

  it('refuses an operationName that names no operation in graphql-js’s words', async () => {
    const res = await send({ query: 'query A { me { id } }', operationName: 'B' });
    expect(res.statusCode).toBe(400);
    expectGraphqlError(res, 'OPERATION_RESOLUTION_FAILURE', 'Unknown operation named "B".');
    expectNothingRan();
  });

  it('refuses several operations without an operationName, and runs the one named', async () => {
    const query = 'query A { me { id } } query B { workspace { slug } }';
    const res = await send({ query });
    expect(res.statusCode).toBe(400);
    expectGraphqlError(res, 'OPERATION_RESOLUTION_FAILURE', 'Must provide operation name if query contains multiple operations.');
    expectNothingRan();

    const named = await send({ query, operationName: 'B' });
    expect(named.statusCode).toBe(200);
    expect(named.data).toEqual({ workspace: { slug: ws.slug } });
  });

  it('refuses a persisted-query hash that does not match the query with BAD_REQUEST', async () => {
    const query = '{ workspace { slug } }';
    const wrong = await send({ query, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } });
    expect(wrong.statusCode).toBe(400);
    expectGraphqlError(wrong, 'BAD_REQUEST', 'provided sha does not match query');
    const version = await send({ query, extensions: { persistedQuery: { version: 2, sha256Hash: 'ab'.repeat(32) } } });
    expect(version.statusCode).toBe(400);
    expectGraphqlError(version, 'BAD_REQUEST', 'Unsupported persisted query version');

    // The right hash registers the query, and the hash alone then runs it.
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const registered = await send({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(registered.data).toEqual({ workspace: { slug: ws.slug } });
    const byHash = await send({ extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(byHash.data).toEqual({ workspace: { slug: ws.slug } });
  });

  it(`refuses a document of more than ${MAX_QUERY_TOKENS} tokens while parsing: 12,000 aliases`, async () => {
    const res = await send({ query: aliased(12_000, 'me { id }') });
    expect(res.statusCode).toBe(400);
    expectGraphqlError(res, 'QUERY_TOO_COMPLEX', `Query is too complex: more than ${MAX_QUERY_TOKENS} tokens`);
    expectNothingRan();
  });

  it(`refuses an operation of more than ${MAX_QUERY_FIELDS} fields, counted through fragments`, async () => {
    // 2,001 aliases of 3 tokens each: under the token limit, over the field limit.
    const flat = await send({ query: aliased(MAX_QUERY_FIELDS + 1, '__typename') });
    expect(flat.statusCode).toBe(400);
    expectGraphqlError(flat, 'QUERY_TOO_COMPLEX', `Query is too complex: more than ${MAX_QUERY_FIELDS} fields`);
    const atLimit = await send({ query: aliased(MAX_QUERY_FIELDS, '__typename') });
    expect(atLimit.statusCode, JSON.stringify(atLimit.errors)).toBe(200);

    // A chain of 40 fragments each spreading the next twice: 2^40 fields in about 400 tokens.
    const chain = Array.from({ length: 40 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const bomb = await send({ query: `{ ...F0 } ${chain} fragment F40 on Query { __typename }` });
    expect(bomb.statusCode).toBe(400);
    expectGraphqlError(bomb, 'QUERY_TOO_COMPLEX', `Query is too complex: more than ${MAX_QUERY_FIELDS} fields`);
    expectNothingRan();
  });

  it('leaves unknown and cyclic fragments to graphql-js’s validation errors', async () => {
    const unknown = await send({ query: '{ ...Nope }' });
    expect(unknown.statusCode).toBe(400);
    expectGraphqlError(unknown, 'GRAPHQL_VALIDATION_FAILED', 'Unknown fragment "Nope".');
    const cycle = await send({ query: '{ ...A } fragment A on Query { __typename ...B } fragment B on Query { ...A }' });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(cycle.errors?.[0].message).toMatch(/^Cannot spread fragment "A" within itself via "B"/);
  });

  it('logs none of these refusals as a failure', () => {
    expect(logged.filter((line) => line.includes('GraphQL operation failed') || line.includes('"level":50'))).toEqual([]);
  });
});

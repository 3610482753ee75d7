import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** GET /graphql from a browser: GraphiQL, its assets from this process, and nothing opened to callers without a credential. */

const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the GraphQL explorer', () => {
  it('answers a browser page load with GraphiQL whose scripts and styles are all of this origin, each served with its type', async () => {
    const res = await t.request({ method: 'GET', url: '/graphql', headers: { accept: HTML_ACCEPT } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<div id="graphiql">');
    const refs = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toHaveLength(5);
    for (const ref of refs) expect(ref, 'same origin, no CDN').toMatch(/^\/graphql\/explorer\/[\w.-]+$/);
    expect(res.body).not.toMatch(/https?:\/\//);
    const types: Record<string, RegExp> = { js: /^text\/javascript; charset=utf-8$/, css: /^text\/css; charset=utf-8$/ };
    for (const ref of refs) {
      const asset = await t.request({ method: 'GET', url: ref });
      expect(asset.statusCode, ref).toBe(200);
      expect(asset.headers['content-type'], ref).toMatch(types[ref.split('.').at(-1)!]);
      expect(asset.rawPayload.length, ref).toBeGreaterThan(100);
    }
    const graphiql = await t.request({ method: 'GET', url: '/graphql/explorer/graphiql.min.js' });
    expect(graphiql.body).toContain('GraphiQL');
    expect((await t.request({ method: 'GET', url: '/graphql/explorer/nothing.js' })).statusCode).toBe(404);
  });

  it('still answers operations as before: a GET with a query, a GET from an API client, a POST', async () => {
    const me = await t.request({ method: 'GET', url: '/graphql?query=%7B__typename%7D', headers: { accept: HTML_ACCEPT, 'apollo-require-preflight': 'true' } });
    expect(me.headers['content-type']).toMatch(/^application\/(graphql-response\+)?json/);
    const client = await t.request({ method: 'GET', url: '/graphql', headers: { accept: 'application/json' } });
    expect(client.headers['content-type']).not.toMatch(/html/);
  });

  it('loads the schema and its docs without a credential, while operations still need one', async () => {
    const schema = await t.request({ method: 'POST', url: '/graphql', payload: { query: getIntrospectionQuery() } });
    expect(schema.statusCode, schema.body.slice(0, 300)).toBe(200);
    const types = schema.json().data.__schema.types as { name: string; description: string | null }[];
    expect(types.some((type) => type.name === 'Order')).toBe(true);
    const data = await t.request({ method: 'POST', url: '/graphql', payload: { query: '{ me { id } }' } });
    expect(data.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const ws = await createWorkspace(t);
    const signedIn = await t.request({ method: 'POST', url: '/graphql', token: ws.token, payload: { query: '{ me { id } }' } });
    expect(signedIn.json().data.me.id).toBeDefined();
  });

  it('refuses the page to automated clients without an API key, as every route does', async () => {
    const res = await t.request({ method: 'GET', url: '/graphql', headers: { accept: HTML_ACCEPT, 'user-agent': 'curl/8.5.0' } });
    expect(res.statusCode).toBe(403);
  });
});

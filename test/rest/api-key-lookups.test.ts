import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Key lookups are cached: a busy integration does not cost a database round trip per request. */
describe('API key lookups', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
  });
  afterAll(() => t.close());

  const lookups = () => t.queries.statements.filter((s) => s.includes('from api_key k join organization o'));
  const lastUseWrites = () => t.queries.statements.filter((s) => s.includes('update api_key set last_used_at'));

  it('reads a key once, then serves it from the cache; last_used_at is written once', async () => {
    const { key } = await createApiKey(t, ws);
    t.queries.reset();
    for (let i = 0; i < 20; i += 1) {
      const res = await t.request({ method: 'GET', url: '/api/v1/workspace/config', apiKey: key });
      expect(res.statusCode, res.body).toBe(200);
    }
    await t.settled();
    expect(lookups()).toHaveLength(1);
    expect(lastUseWrites()).toHaveLength(1);
  });

  it('shares one lookup among concurrent first uses of a key', async () => {
    const { key } = await createApiKey(t, ws);
    t.queries.reset();
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.request({ method: 'GET', url: '/api/v1/orders', apiKey: key })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(lookups()).toHaveLength(1);
  });

  it('does not keep unknown keys: a lookup each time, so a new key is never shadowed', async () => {
    const unknown = `df_${'ab'.repeat(24)}`;
    t.queries.reset();
    for (let i = 0; i < 3; i += 1) {
      expect((await t.request({ method: 'GET', url: '/api/v1/orders', apiKey: unknown })).statusCode).toBe(401);
    }
    expect(lookups()).toHaveLength(3);
  });

  it('refuses malformed keys without a lookup', async () => {
    t.queries.reset();
    for (const bad of ['abc', `DF_${'a'.repeat(48)}`, `df_${'g'.repeat(48)}`, `df_${'a'.repeat(39)}`, `df_${'a'.repeat(129)}`]) {
      const res = await t.request({ method: 'GET', url: '/api/v1/orders', apiKey: bad });
      expect(res.json()).toEqual({ response_code: 401, message: 'Invalid API key' });
    }
    expect(lookups()).toHaveLength(0);
  });
});

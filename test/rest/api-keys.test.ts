import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { catalogOf, DOMAINS } from '../../src/domains';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { createApiKey, createUser, createWorkspace, unique, type IssuedKey, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/**
 * API key management: POST/GET/DELETE /api/v1/developer/api-keys and the GraphQL apiKeys,
 * createApiKey and revokeApiKey, for administrators signed in with a session only.
 */

const KEYS_URL = '/api/v1/developer/api-keys';
const KEY_SHAPE = /^df_[0-9a-f]{48}$/;
const PREFIX_LENGTH = 11;
const DAY_MS = 86_400_000;
/** Every token a scopes string may hold (the domains' scoped groups), as the 400s list them. */
const ALLOWED = ['read', 'write', '*', ...catalogOf(DOMAINS).scopedGroups].join(', ');
const CREATED_MESSAGE = 'API key created; store it now, it is not shown again';
const CAP_MESSAGE = 'A workspace may hold at most 50 active API keys; revoke one first';
const ADMINS_ONLY = 'Only workspace administrators may do this';
const NO_KEYS_HERE = 'API keys are not accepted on /developer: sign in with a session token';
const LIST_ITEM_KEYS = ['created_at', 'expires_at', 'id', 'key_prefix', 'last_used_at', 'name', 'scopes', 'status'];

/** A key as GET /developer/api-keys lists it. */
interface ListedKey {
  id: number;
  name: string;
  key_prefix: string;
  scopes: string;
  status: number;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function sql<Row>(query: string, params: unknown[] = []): Promise<Row[]> {
  return (await t.orm.em.fork().getConnection().execute(query, params)) as unknown as Row[];
}

const postKey = (token: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: KEYS_URL, token, payload });
const revokeKey = (token: string, id: number | string) => t.request({ method: 'DELETE', url: `${KEYS_URL}/${id}`, token });
/** A read any key may do (every key has read, and orders is a resource group). */
const useKey = (key: string) => t.request({ method: 'GET', url: '/api/v1/orders', apiKey: key });

async function listKeys(ws: Workspace): Promise<ListedKey[]> {
  const res = await t.request({ method: 'GET', url: KEYS_URL, token: ws.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function listedKey(ws: Workspace, id: number): Promise<ListedKey> {
  const found = (await listKeys(ws)).find((k) => k.id === id);
  expect(found, `key ${id} listed`).toBeDefined();
  return found!;
}

/** Every key row of the workspace, revoked and expired ones included. */
async function countKeys(ws: Workspace): Promise<number> {
  const [row] = await sql<{ n: number }>('select count(*)::int as n from api_key where organization_id = ?', [ws.organizationId]);
  return row.n;
}

async function countLiveKeys(ws: Workspace): Promise<number> {
  const [row] = await sql<{ n: number }>(
    'select count(*)::int as n from api_key where organization_id = ? and status = 1 and (expires_at is null or expires_at > now())',
    [ws.organizationId],
  );
  return row.n;
}

/** Active keys straight in the table (random hashes nobody holds), to reach the cap quickly. */
async function seedLiveKeys(ws: Workspace, n: number): Promise<void> {
  await sql(
    `insert into api_key (organization_id, name, key_hash, key_prefix, scopes, status)
     select ?, 'Seeded ' || g, md5(random()::text || g) || md5(clock_timestamp()::text || g), 'df_00000000', 'read', 1
       from generate_series(1, ?) g`,
    [ws.organizationId, n],
  );
}

function expectError(res: LightMyRequestResponse, status: number, message: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toStrictEqual(errorEnvelope(status, message));
}

/** `iso` lies within `toleranceMs` of `expectedMs`. */
function expectNear(iso: string | null, expectedMs: number, toleranceMs = 60_000): void {
  expect(iso).not.toBeNull();
  expect(Math.abs(Date.parse(iso!) - expectedMs), `${iso} vs ${new Date(expectedMs).toISOString()}`).toBeLessThanOrEqual(toleranceMs);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('POST /developer/api-keys: issuing a key', () => {
  it('answers 201 with the key once; the key works at once and only its SHA-256 is stored', async () => {
    const ws = await createWorkspace(t);
    const res = await postKey(ws.token, { name: 'ERP sync' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toStrictEqual({
      response_code: 201,
      message: CREATED_MESSAGE,
      data: {
        id: expect.any(Number),
        key: expect.stringMatching(KEY_SHAPE),
        name: 'ERP sync',
        key_prefix: expect.any(String),
        scopes: 'read',
        expires_at: null,
      },
    });
    const { id, key, key_prefix: prefix } = body.data;
    expect(prefix).toBe(key.slice(0, PREFIX_LENGTH));

    expect((await useKey(key)).statusCode).toBe(200);

    const [row] = await sql<Record<string, unknown>>(
      'select organization_id, name, key_hash, key_prefix, scopes, status, expires_at, created_by_user_id from api_key where id = ?',
      [id],
    );
    expect(row).toStrictEqual({
      organization_id: ws.organizationId,
      name: 'ERP sync',
      key_hash: sha256(key),
      key_prefix: prefix,
      scopes: 'read',
      status: 1,
      expires_at: null,
      created_by_user_id: ws.adminId,
    });
    // The secret part appears in no column of any key row.
    const rows = await sql<{ row: string }>('select row_to_json(k)::text as row from api_key k');
    expect(rows.length).toBeGreaterThan(0);
    for (const { row: text } of rows) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(PREFIX_LENGTH));
    }
  });

  it('issues a different key each time', async () => {
    const ws = await createWorkspace(t);
    const a = await createApiKey(t, ws);
    const b = await createApiKey(t, ws);
    expect(a.key).not.toBe(b.key);
    expect(a.keyPrefix).not.toBe(b.keyPrefix);
    expect(a.id).not.toBe(b.id);
  });

  it('sets expires_at expires_in_days from now, and the key works until then', async () => {
    const ws = await createWorkspace(t);
    const res = await postKey(ws.token, { name: 'Month key', expires_in_days: 30 });
    expect(res.statusCode, res.body).toBe(201);
    const { id, key, expires_at } = res.json().data;
    expectNear(expires_at, Date.now() + 30 * DAY_MS);
    expect((await listedKey(ws, id)).expires_at).toBe(expires_at);
    expect((await useKey(key)).statusCode).toBe(200);
  });

  it('treats null scopes as "read" and null expires_in_days as no expiry', async () => {
    const ws = await createWorkspace(t);
    const res = await postKey(ws.token, { name: 'Nulls', scopes: null, expires_in_days: null });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ scopes: 'read', expires_at: null });
  });

  it('accepts the bounds: a 100-character name, 1 and 3650 days', async () => {
    const ws = await createWorkspace(t);
    const longName = 'n'.repeat(100);
    const named = await postKey(ws.token, { name: longName });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().data.name).toBe(longName);
    for (const days of [1, 3650]) {
      const res = await postKey(ws.token, { name: `${days} days`, expires_in_days: days });
      expect(res.statusCode, res.body).toBe(201);
      expectNear(res.json().data.expires_at, Date.now() + days * DAY_MS);
    }
  });
});

describe('scopes: canonical spelling', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await createWorkspace(t);
  });

  it.each([
    ['read', 'read'],
    ['write', 'read,write'],
    ['*', 'read,write'],
    ['users', 'read,users'],
    ['orders, WRITE', 'read,write,orders'],
    [' Read , Write ', 'read,write'],
    ['*,write,read', 'read,write'],
    ['ORDERS,orders,Orders', 'read,orders'],
    ['workspace,orders,read', 'read,orders,workspace'],
    ['reports,exports,dashboard,masters,products,users,orders,workspace,*', 'read,write,orders,users,products,masters,dashboard,exports,workspace,reports'],
  ])('%j → %j, answered, stored and listed', async (given, canonical) => {
    const res = await postKey(ws.token, { name: `Scopes ${unique()}`, scopes: given });
    expect(res.statusCode, res.body).toBe(201);
    const { id, scopes } = res.json().data;
    expect(scopes).toBe(canonical);
    expect((await listedKey(ws, id)).scopes).toBe(canonical);
    const [row] = await sql<{ scopes: string }>('select scopes from api_key where id = ?', [id]);
    expect(row.scopes).toBe(canonical);
  });
});

describe('POST /developer/api-keys: invalid input', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await createWorkspace(t);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['unknown scope token', { name: 'k', scopes: 'read,Nope' }, `scopes has unknown token "nope"; allowed: ${ALLOWED}`],
    ['empty scope token', { name: 'k', scopes: 'read,,orders' }, `scopes has an empty token; allowed: ${ALLOWED}`],
    ['trailing comma', { name: 'k', scopes: 'read,' }, `scopes has an empty token; allowed: ${ALLOWED}`],
    ['empty scopes', { name: 'k', scopes: '' }, `scopes must name at least one scope: ${ALLOWED}`],
    ['blank scopes', { name: 'k', scopes: '   ' }, `scopes must name at least one scope: ${ALLOWED}`],
    ['scopes over 200 characters', { name: 'k', scopes: 'read,'.repeat(40) + 'read' }, 'scopes must be at most 200 characters'],
    ['scopes not a string', { name: 'k', scopes: 7 }, 'scopes must be a string'],
    ['name missing', { scopes: 'read' }, 'name is required'],
    ['name empty', { name: '' }, 'name must not be empty'],
    ['name blank', { name: '   ' }, 'name is required'],
    ['name of 101 characters', { name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
    ['expires_in_days 0', { name: 'k', expires_in_days: 0 }, 'expires_in_days must be >= 1'],
    ['expires_in_days 3651', { name: 'k', expires_in_days: 3651 }, 'expires_in_days must be <= 3650'],
    ['expires_in_days 1.5', { name: 'k', expires_in_days: 1.5 }, 'expires_in_days must be an integer'],
    ['expires_in_days "ten"', { name: 'k', expires_in_days: 'ten' }, 'expires_in_days must be an integer'],
  ])('%s → 400, nothing created', async (_case, payload, message) => {
    const before = await countKeys(ws);
    expectError(await postKey(ws.token, payload), 400, message);
    expect(await countKeys(ws)).toBe(before);
  });
});

describe('GET /developer/api-keys', () => {
  it('lists every key newest first, revoked ones included, without the key or its hash', async () => {
    const ws = await createWorkspace(t);
    const first = await createApiKey(t, ws, { name: 'First' });
    const second = await createApiKey(t, ws, { name: 'Second', scopes: 'orders,write', expires_in_days: 10 });
    const third = await createApiKey(t, ws, { name: 'Third' });
    expect((await revokeKey(ws.token, second.id)).statusCode).toBe(200);

    const res = await t.request({ method: 'GET', url: KEYS_URL, token: ws.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'response_code']);
    expect(res.json().response_code).toBe(200);
    const list: ListedKey[] = res.json().data;
    expect(list.map((k) => k.id)).toEqual([third.id, second.id, first.id]);
    for (const item of list) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
    for (let i = 1; i < list.length; i += 1) {
      expect(Date.parse(list[i - 1].created_at)).toBeGreaterThanOrEqual(Date.parse(list[i].created_at));
    }
    expect(list[1]).toStrictEqual({
      id: second.id,
      name: 'Second',
      key_prefix: second.keyPrefix,
      scopes: 'read,write,orders',
      status: 0,
      last_used_at: null,
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    expectNear(list[1].expires_at, Date.now() + 10 * DAY_MS);
    expectNear(list[2].created_at, Date.now());
    expect(list.map((k) => [k.name, k.status, k.expires_at === null])).toEqual([
      ['Third', 1, true],
      ['Second', 0, false],
      ['First', 1, true],
    ]);
    for (const issued of [first, second, third]) expect(res.body).not.toContain(issued.key.slice(PREFIX_LENGTH));
  });

  it('shows last_used_at once the key is used, and a second use within the minute leaves it', async () => {
    const ws = await createWorkspace(t);
    const issued = await createApiKey(t, ws);
    expect((await listedKey(ws, issued.id)).last_used_at).toBeNull();

    expect((await useKey(issued.key)).statusCode).toBe(200);
    await t.settled();
    const firstUse = (await listedKey(ws, issued.id)).last_used_at;
    expectNear(firstUse, Date.now(), 10_000);

    await sleep(20);
    expect((await useKey(issued.key)).statusCode).toBe(200);
    await t.settled();
    expect((await listedKey(ws, issued.id)).last_used_at).toBe(firstUse);
  });

  it("lists only the caller's workspace's keys", async () => {
    const a = await createWorkspace(t);
    const b = await createWorkspace(t);
    const aKeys = [await createApiKey(t, a), await createApiKey(t, a)];
    const bKey = await createApiKey(t, b);
    expect((await listKeys(b)).map((k) => k.id)).toEqual([bKey.id]);
    expect((await listKeys(a)).map((k) => k.id)).toEqual([aKeys[1].id, aKeys[0].id]);
  });
});

describe('DELETE /developer/api-keys/{id}', () => {
  it('revokes: 200 with the key as listed and status 0; the key is refused at once; again is a no-op', async () => {
    const ws = await createWorkspace(t);
    const issued = await createApiKey(t, ws);
    expect((await useKey(issued.key)).statusCode).toBe(200); // now looked up and cached
    await t.settled();
    const listed = await listedKey(ws, issued.id);

    const res = await revokeKey(ws.token, issued.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toStrictEqual({ response_code: 200, message: 'API key revoked', data: { ...listed, status: 0 } });
    expectError(await useKey(issued.key), 401, 'This API key has been revoked');

    const [row] = await sql<{ status: number; revoked_at: Date | null; revoked_by_user_id: number | null }>(
      'select status, revoked_at, revoked_by_user_id from api_key where id = ?',
      [issued.id],
    );
    expect(row).toMatchObject({ status: 0, revoked_by_user_id: ws.adminId });
    expect(row.revoked_at).not.toBeNull();

    const again = await revokeKey(ws.token, issued.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toStrictEqual({ response_code: 200, message: 'API key was already revoked', data: { ...listed, status: 0 } });
    expectError(await useKey(issued.key), 401, 'This API key has been revoked');
  });

  it("answers 404 for another workspace's key, which keeps working", async () => {
    const ws = await createWorkspace(t);
    const other = await createWorkspace(t);
    const theirs = await createApiKey(t, other);
    expectError(await revokeKey(ws.token, theirs.id), 404, `API key ${theirs.id} not found`);
    expect((await useKey(theirs.key)).statusCode).toBe(200);
    expect((await listedKey(other, theirs.id)).status).toBe(1);
  });

  it('answers 404 for an unknown id and 400 for an id that is not a number', async () => {
    const ws = await createWorkspace(t);
    expectError(await revokeKey(ws.token, 999999), 404, 'API key 999999 not found');
    expectError(await revokeKey(ws.token, 'abc'), 400, 'id must be an integer');
  });
});

describe('who may manage keys: administrators signed in with a session', () => {
  let ws: Workspace;
  let existing: IssuedKey;
  beforeAll(async () => {
    ws = await createWorkspace(t);
    existing = await createApiKey(t, ws);
  });

  /** GET, POST and DELETE with one credential; nothing may change. */
  async function expectAllRefused(credential: { token?: string; apiKey?: string }, status: number, message: string): Promise<void> {
    const before = await countKeys(ws);
    for (const req of [
      { method: 'GET' as const, url: KEYS_URL },
      { method: 'POST' as const, url: KEYS_URL, payload: { name: 'Sneaky', scopes: '*' } },
      { method: 'DELETE' as const, url: `${KEYS_URL}/${existing.id}` },
    ]) {
      expectError(await t.request({ ...req, ...credential }), status, message);
    }
    expect(await countKeys(ws)).toBe(before);
    expect((await listedKey(ws, existing.id)).status).toBe(1);
    expect((await useKey(existing.key)).statusCode).toBe(200);
  }

  it('refuses an employee session with 403', async () => {
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    await expectAllRefused({ token: employee.token }, 403, ADMINS_ONLY);
  });

  it.each(['*', 'read'])('refuses an API key with scopes %j with 403', async (scopes) => {
    const issued = await createApiKey(t, ws, { scopes });
    await expectAllRefused({ apiKey: issued.key }, 403, NO_KEYS_HERE);
  });

  it('refuses a request without a credential with 401', async () => {
    await expectAllRefused({}, 401, 'Authentication required: send a session token or an API key');
  });

  it('lets a second administrator manage the keys', async () => {
    const admin = await createUser(t, ws, UserType.ADMIN);
    const res = await postKey(admin.token, { name: 'By the second admin' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await listKeys({ ...ws, token: admin.token })).toHaveLength(await countKeys(ws));
  });
});

describe('expiry', () => {
  it('refuses a key past its expiry with 401 (set before it was ever used)', async () => {
    const ws = await createWorkspace(t);
    const expiring = await createApiKey(t, ws, { expires_in_days: 1 });
    const fresh = await createApiKey(t, ws, { expires_in_days: 1 });
    await sql(`update api_key set expires_at = now() - interval '1 second' where id = ?`, [expiring.id]);
    expectError(await useKey(expiring.key), 401, 'This API key has expired');
    expect((await useKey(fresh.key)).statusCode).toBe(200);
    expect((await listedKey(ws, expiring.id)).status).toBe(1); // expired is not revoked
  });

  it('checks the expiry on every request, even while the key is cached', async () => {
    const ws = await createWorkspace(t);
    const issued = await createApiKey(t, ws, { expires_in_days: 1 });
    const [{ expires_at: expiresAt }] = await sql<{ expires_at: Date }>(
      `update api_key set expires_at = now() + interval '2 seconds' where id = ? returning expires_at`,
      [issued.id],
    );
    expect((await useKey(issued.key)).statusCode).toBe(200); // looked up and cached (TTL 5 s)
    await sleep(Math.max(0, new Date(expiresAt).getTime() - Date.now()) + 100);
    expectError(await useKey(issued.key), 401, 'This API key has expired');
  });
});

describe('at most 50 active keys per workspace', () => {
  /** Creates `n` keys over REST, ten at a time. */
  async function issueKeys(ws: Workspace, n: number): Promise<number[]> {
    const ids: number[] = [];
    for (let done = 0; done < n; done += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, n - done) }, (_, i) => postKey(ws.token, { name: `Bulk ${done + i}` })),
      );
      for (const res of batch) {
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json().data.id);
      }
    }
    return ids;
  }

  it('refuses the 51st with 400 and creates nothing; revoking one makes room for exactly one', async () => {
    const ws = await createWorkspace(t);
    const ids = await issueKeys(ws, 50);
    expect(await countLiveKeys(ws)).toBe(50);

    expectError(await postKey(ws.token, { name: 'One too many' }), 400, CAP_MESSAGE);
    expect(await countKeys(ws)).toBe(50);

    expect((await revokeKey(ws.token, ids[0])).statusCode).toBe(200);
    const replacement = await postKey(ws.token, { name: 'Replacement' });
    expect(replacement.statusCode, replacement.body).toBe(201);
    expectError(await postKey(ws.token, { name: 'Still too many' }), 400, CAP_MESSAGE);
    expect(await countKeys(ws)).toBe(51);
    expect(await countLiveKeys(ws)).toBe(50);
  });

  it('does not count expired keys', async () => {
    const ws = await createWorkspace(t);
    await seedLiveKeys(ws, 50);
    expectError(await postKey(ws.token, { name: 'Over the cap' }), 400, CAP_MESSAGE);

    await sql(
      `update api_key set expires_at = now() - interval '1 second'
        where id = (select min(id) from api_key where organization_id = ?)`,
      [ws.organizationId],
    );
    const res = await postKey(ws.token, { name: 'In place of the expired one' });
    expect(res.statusCode, res.body).toBe(201);
    expectError(await postKey(ws.token, { name: 'Over the cap again' }), 400, CAP_MESSAGE);
  });

  it('lets only as many parallel creations through as there is room for', async () => {
    const ws = await createWorkspace(t);
    await seedLiveKeys(ws, 48);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => postKey(ws.token, { name: `Racer ${i}` })));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 201, 400, 400, 400]);
    for (const res of answers.filter((r) => r.statusCode === 400)) expect(res.json()).toStrictEqual(errorEnvelope(400, CAP_MESSAGE));
    expect(await countLiveKeys(ws)).toBe(50);
    expect(await countKeys(ws)).toBe(50);
    await t.settled();
  });
});

describe('notice e-mails to administrators', () => {
  it('e-mails every administrator (not the employee) on creation and on revocation, never the key itself', async () => {
    const workspaceName = `Notice Dairy ${unique()}`;
    const ws = await createWorkspace(t, workspaceName);
    const actor = await createUser(t, ws, UserType.ADMIN);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const [owner] = await sql<{ first_name: string; last_name: string; official_email: string }>(
      'select first_name, last_name, official_email from app_user where id = ?',
      [ws.adminId],
    );
    const adminEmails = [owner.official_email, actor.body.official_email as string].sort();
    const newMail = async (since: number) => (await t.outbox()).slice(since);

    // Created by the second administrator.
    let seen = (await t.outbox()).length;
    const res = await postKey(actor.token, { name: 'ERP sync', scopes: 'orders,write', expires_in_days: 30 });
    expect(res.statusCode, res.body).toBe(201);
    const { key, key_prefix: prefix, expires_at: expiresAt } = res.json().data;
    const created = await newMail(seen);
    expect(created.map((m) => m.to).sort()).toEqual(adminEmails);
    expect(created.map((m) => m.to)).not.toContain(employee.body.official_email);
    for (const mail of created) {
      expect(mail.channel).toBe('email');
      expect(mail.subject).toBe(`API key created in ${workspaceName}: ERP sync`);
      expect(mail.text).toContain(workspaceName);
      expect(mail.text).toContain('Name:    ERP sync');
      expect(mail.text).toContain(`Prefix:  ${prefix}`);
      expect(mail.text).toContain('Scopes:  read,write,orders');
      expect(mail.text).toContain(`Expires: ${expiresAt}`);
      expect(mail.text).toContain(`By:      ${actor.body.first_name} ${actor.body.last_name} <${actor.body.official_email}>`);
      expect(mail.text).not.toContain(key.slice(PREFIX_LENGTH));
      expect(mail.subject).not.toContain(key.slice(PREFIX_LENGTH));
    }

    // Revoked by the workspace's first administrator.
    seen += created.length;
    expect((await revokeKey(ws.token, res.json().data.id)).statusCode).toBe(200);
    const revoked = await newMail(seen);
    expect(revoked.map((m) => m.to).sort()).toEqual(adminEmails);
    for (const mail of revoked) {
      expect(mail.subject).toBe(`API key revoked in ${workspaceName}: ERP sync`);
      expect(mail.text).toContain(`Prefix:  ${prefix}`);
      expect(mail.text).toContain(`By:      ${owner.first_name} ${owner.last_name} <${owner.official_email}>`);
      expect(mail.text).not.toContain(key.slice(PREFIX_LENGTH));
    }

    // Revoking again sends nothing.
    seen += revoked.length;
    expect((await revokeKey(ws.token, res.json().data.id)).statusCode).toBe(200);
    expect(await newMail(seen)).toEqual([]);
  });
});

describe('GraphQL: apiKeys, createApiKey, revokeApiKey', () => {
  const CREATE = `mutation Create($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { key apiKey { id name keyPrefix scopes status lastUsedAt expiresAt createdAt revokedAt } }
  }`;
  const LIST = '{ apiKeys { id name keyPrefix scopes status revokedAt } }';
  const REVOKE = 'mutation Revoke($id: Int!) { revokeApiKey(id: $id) { id status revokedAt } }';

  it('creates, lists and revokes a key with an admin session', async () => {
    const ws = await createWorkspace(t);
    const created = expectGraphqlData(
      await t.graphql(CREATE, { input: { name: 'x', scopes: 'orders,write', expiresInDays: 7 } }, ws.token),
    ).createApiKey;
    expect(created.key).toMatch(KEY_SHAPE);
    expect(created.apiKey).toStrictEqual({
      id: expect.any(Number),
      name: 'x',
      keyPrefix: created.key.slice(0, PREFIX_LENGTH),
      scopes: 'read,write,orders',
      status: 'ACTIVE',
      lastUsedAt: null,
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      revokedAt: null,
    });
    expectNear(created.apiKey.expiresAt, Date.now() + 7 * DAY_MS);
    const [row] = await sql<{ key_hash: string }>('select key_hash from api_key where id = ?', [created.apiKey.id]);
    expect(row.key_hash).toBe(sha256(created.key));
    expect((await useKey(created.key)).statusCode).toBe(200);

    const listed = expectGraphqlData(await t.graphql(LIST, {}, ws.token)).apiKeys;
    expect(listed).toStrictEqual([
      { id: created.apiKey.id, name: 'x', keyPrefix: created.apiKey.keyPrefix, scopes: 'read,write,orders', status: 'ACTIVE', revokedAt: null },
    ]);

    const revoked = expectGraphqlData(await t.graphql(REVOKE, { id: created.apiKey.id }, ws.token)).revokeApiKey;
    expect(revoked).toMatchObject({ id: created.apiKey.id, status: 'REVOKED' });
    expectNear(revoked.revokedAt, Date.now(), 10_000);
    expectError(await useKey(created.key), 401, 'This API key has been revoked');
    expect(expectGraphqlData(await t.graphql(LIST, {}, ws.token)).apiKeys[0].status).toBe('REVOKED');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown scope', { name: 'x', scopes: 'nope' }, `scopes has unknown token "nope"; allowed: ${ALLOWED}`],
    ['expiresInDays 0', { name: 'x', expiresInDays: 0 }, 'expiresInDays must be a whole number of days from 1 to 3650'],
    ['expiresInDays 3651', { name: 'x', expiresInDays: 3651 }, 'expiresInDays must be a whole number of days from 1 to 3650'],
    ['a blank name', { name: '  ' }, 'name is required'],
  ])('answers BAD_USER_INPUT for %s and creates nothing', async (_case, input, message) => {
    const ws = await createWorkspace(t);
    expectGraphqlError(await t.graphql(CREATE, { input }, ws.token), 'BAD_USER_INPUT', message);
    expect(await countKeys(ws)).toBe(0);
  });

  it('refuses API keys with HTTP 403 FORBIDDEN, whatever their scopes', async () => {
    const ws = await createWorkspace(t);
    const issued = await createApiKey(t, ws, { scopes: '*' });
    for (const [query, variables] of [
      [LIST, {}],
      [CREATE, { input: { name: 'By a key' } }],
      [REVOKE, { id: issued.id }],
    ] as const) {
      const res = await t.graphql(query, variables, { apiKey: issued.key });
      expect(res.statusCode).toBe(403);
      expectGraphqlError(res, 'FORBIDDEN', NO_KEYS_HERE);
    }
    expect(await countKeys(ws)).toBe(1);
    expect((await listedKey(ws, issued.id)).status).toBe(1);
  });

  it('refuses an employee session with FORBIDDEN', async () => {
    const ws = await createWorkspace(t);
    const issued = await createApiKey(t, ws);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expectGraphqlError(await t.graphql(LIST, {}, employee.token), 'FORBIDDEN', ADMINS_ONLY);
    expectGraphqlError(await t.graphql(CREATE, { input: { name: 'By an employee' } }, employee.token), 'FORBIDDEN', ADMINS_ONLY);
    expectGraphqlError(await t.graphql(REVOKE, { id: issued.id }, employee.token), 'FORBIDDEN', ADMINS_ONLY);
    expect(await countKeys(ws)).toBe(1);
    expect((await listedKey(ws, issued.id)).status).toBe(1);
  });

  it("lists only the caller's workspace's keys and cannot revoke another's", async () => {
    const a = await createWorkspace(t);
    const b = await createWorkspace(t);
    const aKey = await createApiKey(t, a);
    const bKey = await createApiKey(t, b);
    expect(expectGraphqlData(await t.graphql(LIST, {}, b.token)).apiKeys.map((k: { id: number }) => k.id)).toEqual([bKey.id]);
    expectGraphqlError(await t.graphql(REVOKE, { id: aKey.id }, b.token), 'NOT_FOUND', `API key ${aKey.id} not found`);
    expect((await useKey(aKey.key)).statusCode).toBe(200);
  });
});

import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, signIn, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/** GET /auth/me, session tokens (one active per user), logout, the User-Agent rule and error envelopes. */

const ERROR = { response_code: expect.any(Number), message: expect.any(String) };

describe('authentication', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Auth Test Dairy');
  });
  afterAll(() => t.close());

  const me = (token?: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: '/api/v1/auth/me', token, headers });

  /** The claims a real session token of this user carries, with a valid session id. */
  function claimsOf(token: string): jwt.JwtPayload {
    return jwt.decode(token) as jwt.JwtPayload;
  }

  describe('GET /api/v1/auth/me', () => {
    it('returns the user with role and organization, and the workspace', async () => {
      const res = await me(ws.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'response_code']);
      expect(body.response_code).toBe(200);
      expect(body.data).toEqual({
        user: {
          id: ws.adminId,
          first_name: 'Admin',
          last_name: expect.stringMatching(/^Number\d+$/),
          official_email: expect.stringMatching(/^admin\d+@example\.test$/),
          primary_contact_number: expect.stringMatching(/^\+91\d{10}$/),
          role_id: ws.roles.Admin,
          role_name: 'Admin',
          user_type: 0,
          status: 1,
          town_id: null,
          town_name: null,
          route_id: null,
          route_name: null,
          organization_id: ws.organizationId,
          createdAt: expect.any(String),
          role: { id: ws.roles.Admin, role_name: 'Admin' },
          organization: {
            id: ws.organizationId,
            organization_name: 'Auth Test Dairy',
            workspace_id: expect.any(String),
            slug: ws.slug,
          },
        },
        workspace: {
          workspace_id: body.data.user.organization.workspace_id,
          slug: ws.slug,
          display_name: 'Auth Test Dairy',
          domain: null,
          plan: 'free',
          status: 2,
          max_users: expect.any(Number),
          trial_ends_at: expect.any(String),
        },
      });
      expect(Number.isNaN(Date.parse(body.data.user.createdAt))).toBe(false);
    });

    it('shows a distributor their own profile with store_name', async () => {
      const distributor = await createUser(t, ws, UserType.DISTRIBUTOR, { store_name: 'Corner Store' });
      const res = await me(distributor.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.user).toMatchObject({
        id: distributor.id,
        user_type: 2,
        role_name: 'Distributor',
        role: { id: ws.roles.Distributor, role_name: 'Distributor' },
        store_name: 'Corner Store',
        organization_id: ws.organizationId,
      });
    });
  });

  describe('401 for missing or bad credentials', () => {
    it('without a token', async () => {
      const res = await me();
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
    });

    it.each([
      ['garbage token', 'Bearer not-a-jwt'],
      ['three garbage segments', 'Bearer aaa.bbb.ccc'],
      ['wrong scheme', 'Basic dXNlcjpwYXNz'],
      ['empty bearer', 'Bearer '],
    ])('with a %s', async (_label, authorization) => {
      const res = await t.request({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization } });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
    });

    it('with a token signed by another secret', async () => {
      const claims = claimsOf(ws.token);
      const forged = jwt.sign(
        { org: claims.org, sid: claims.sid },
        'another-secret-that-is-also-long-enough-for-hs256',
        { algorithm: 'HS256', subject: String(ws.adminId), expiresIn: 3600 },
      );
      const res = await me(forged);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
      // The real token still works.
      expect((await me(ws.token)).statusCode).toBe(200);
    });

    it('with an unsigned (alg none) token', async () => {
      const claims = claimsOf(ws.token);
      const unsigned = jwt.sign({ org: claims.org, sid: claims.sid, sub: String(ws.adminId) }, '', { algorithm: 'none' });
      const res = await me(unsigned);
      expect(res.statusCode, res.body).toBe(401);
    });

    it('with an expired token (right secret, right session)', async () => {
      const claims = claimsOf(ws.token);
      const now = Math.floor(Date.now() / 1000);
      const expired = jwt.sign(
        { org: claims.org, sid: claims.sid, iat: now - 7200, exp: now - 60 },
        t.config.jwtSecret!,
        { algorithm: 'HS256', subject: String(ws.adminId) },
      );
      const res = await me(expired);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.stringMatching(/expired/i) });
      // Control: the same claims, not expired, are accepted, so the 401 above is the expiry.
      const fresh = jwt.sign({ org: claims.org, sid: claims.sid }, t.config.jwtSecret!, {
        algorithm: 'HS256',
        subject: String(ws.adminId),
        expiresIn: 600,
      });
      expect((await me(fresh)).statusCode).toBe(200);
    });

    it('with a token naming another organization than the user’s', async () => {
      const other = await createWorkspace(t);
      const claims = claimsOf(ws.token);
      const crossed = jwt.sign({ org: other.organizationId, sid: claims.sid }, t.config.jwtSecret!, {
        algorithm: 'HS256',
        subject: String(ws.adminId),
        expiresIn: 600,
      });
      const res = await me(crossed);
      expect(res.statusCode, res.body).toBe(401);
    });

    it('issued session tokens last 15 days', () => {
      const claims = claimsOf(ws.token);
      expect(claims.exp! - claims.iat!).toBe(15 * 24 * 60 * 60);
    });
  });

  describe('one active token per user', () => {
    it('signing in again makes the previous token 401 and the new one 200', async () => {
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const first = employee.token;
      expect((await me(first)).statusCode).toBe(200);

      const second = await signIn(t, ws, employee.id);
      expect(second).not.toBe(first);
      const old = await me(first);
      expect(old.statusCode, old.body).toBe(401);
      expect(old.json()).toEqual({ response_code: 401, message: expect.any(String) });
      const current = await me(second);
      expect(current.statusCode, current.body).toBe(200);
      expect(current.json().data.user.id).toBe(employee.id);
    });

    it('POST /auth/logout answers 200 {response_code, message} and ends the session', async () => {
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const res = await t.request({ method: 'POST', url: '/api/v1/auth/logout', token: employee.token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ response_code: 200, message: expect.any(String) });

      expect((await me(employee.token)).statusCode).toBe(401);
      const again = await t.request({ method: 'POST', url: '/api/v1/auth/logout', token: employee.token });
      expect(again.statusCode).toBe(401);
      // Another user's session is untouched.
      expect((await me(ws.token)).statusCode).toBe(200);
      // Signing in afterwards works.
      expect((await me(await signIn(t, ws, employee.id))).statusCode).toBe(200);
    });

    it('POST /auth/logout without a token → 401', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/auth/logout' });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
    });

    it('every issued token is unique, even two sessions in the same second', async () => {
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const tokens = [employee.token];
      for (let i = 0; i < 4; i++) tokens.push(await signIn(t, ws, employee.id));
      expect(new Set(tokens).size).toBe(tokens.length);
      const iats = tokens.map((tk) => claimsOf(tk).iat);
      // At least two of them were issued in the same second, which is the case that matters.
      expect(new Set(iats).size).toBeLessThan(tokens.length);
      const ids = tokens.map((tk) => claimsOf(tk).jti);
      expect(new Set(ids).size).toBe(tokens.length);
      // Only the last one works.
      for (const old of tokens.slice(0, -1)) expect((await me(old)).statusCode).toBe(401);
      expect((await me(tokens[tokens.length - 1])).statusCode).toBe(200);
    });

    it('a deactivated user’s token → 401', async () => {
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      await t.orm.em.fork().getConnection().execute('update app_user set status = 0 where id = ?', [employee.id]);
      const res = await me(employee.token);
      expect(res.statusCode, res.body).toBe(401);
    });
  });

  describe('User-Agent rule', () => {
    it.each([
      ['missing', undefined],
      ['empty', ''],
      ['9 characters', 'Abcdefghi'],
      ['curl', 'curl/8.5.0'],
      ['python-requests', 'python-requests/2.31'],
      ['Go-http-client', 'Go-http-client/1.1'],
      ['axios', 'axios/1.6.0'],
      ['node-fetch', 'node-fetch/1.0'],
      ['undici', 'undici'],
      ['okhttp', 'okhttp/4.12.0'],
      ['Java', 'Java/17.0.2'],
      ['Wget', 'Wget/1.21.4'],
      ['libwww-perl', 'libwww-perl/6.72'],
      ['PostmanRuntime', 'PostmanRuntime/7.36'],
    ])('%s agent → 403 with the error envelope', async (_label, agent) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/auth/me',
        // light-my-request sends its own agent unless the header is given as undefined.
        headers: { authorization: `Bearer ${ws.token}`, 'user-agent': agent },
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
    });

    it('the rule is checked before authentication (403 even without a token)', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/users', headers: { 'user-agent': 'curl/8.5.0' } });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
    });

    it('a refused agent creates nothing', async () => {
      const before = await t.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from app_user');
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/users',
        token: ws.token,
        headers: { 'user-agent': 'python-requests/2.31' },
        payload: {
          first_name: 'Blocked',
          last_name: 'Agent',
          primary_contact_number: '+919888877777',
          password: 'password123',
          role_id: ws.roles.Employee,
          user_type: 1,
        },
      });
      expect(res.statusCode, res.body).toBe(403);
      const after = await t.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from app_user');
      expect(after[0].n).toBe(before[0].n);
    });

    it.each([
      ['Chrome', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
      ['Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'],
      ['Safari', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15'],
      ['exactly 10 characters', 'MyApp/1.00'],
    ])('%s agent passes', async (_label, agent) => {
      const res = await me(ws.token, { 'user-agent': agent });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.user.id).toBe(ws.adminId);
    });

    it.each(['/healthz', '/readyz'])('%s answers 200 with no agent at all', async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'user-agent': undefined } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: expect.any(String) });
    });

    it('a request with X-API-Key skips the rule (then 401: no key is valid yet)', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/users',
        headers: { 'user-agent': 'curl/8.5.0', 'x-api-key': 'df_0123456789abcdef0123456789abcdef' },
      });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
      const noAgent = await t.app.inject({ method: 'GET', url: '/api/v1/users', headers: { 'x-api-key': 'df_00', 'user-agent': undefined } });
      expect(noAgent.statusCode, noAgent.body).toBe(401);
    });

    it('a made-up X-API-Key cannot slip past the rule on a public route (signup): 401, nothing created', async () => {
      const before = await t.orm.em.fork().getConnection().execute('select count(*)::int as n from organization');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/signup/register',
        headers: { 'user-agent': 'curl/8.5.0', 'x-api-key': 'df_bogus' },
        payload: {
          first_name: 'Key',
          last_name: 'Smuggler',
          official_email: 'smuggler@example.test',
          primary_contact_number: '+919811112222',
          password: 'password123',
          organization_name: 'Smuggled',
        },
      });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: 'Invalid API key' });
      const after = await t.orm.em.fork().getConnection().execute('select count(*)::int as n from organization');
      expect(after[0].n).toBe(before[0].n);
    });
  });

  describe('error envelopes', () => {
    it('an unknown /api/v1 path → 404 envelope (with or without a token)', async () => {
      for (const token of [ws.token, undefined]) {
        const res = await t.request({ method: 'GET', url: '/api/v1/no-such-thing', token });
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({ response_code: 404, message: expect.any(String) });
      }
      const wrongMethod = await t.request({ method: 'DELETE', url: '/api/v1/auth/me', token: ws.token });
      expect(wrongMethod.statusCode, wrongMethod.body).toBe(404);
      expect(wrongMethod.json()).toEqual(ERROR);
    });

    it('a malformed JSON body → 400 envelope, nothing created', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/users',
        token: ws.token,
        headers: { 'content-type': 'application/json' },
        payload: '{"first_name": "Broken", ',
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.any(String)));
      const rows = await t.orm.em.fork().getConnection().execute<{ n: string }[]>(
        "select count(*) as n from app_user where first_name = 'Broken'",
      );
      expect(Number(rows[0].n)).toBe(0);
    });

    it('a malformed JSON body on signup → 400 envelope', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/signup/register',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.any(String)));
    });

    it('GraphQL { me { id } } without a token → UNAUTHENTICATED', async () => {
      const res = await t.graphql('{ me { id } }');
      expect(res.data ?? null).toBeNull();
      expect(res.errors).toHaveLength(1);
      expect(res.errors![0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('GraphQL { me { id } } with an ended token → UNAUTHENTICATED, with a live one → the user', async () => {
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const live = await t.graphql<{ me: { id: number } }>('{ me { id } }', undefined, employee.token);
      expect(live.errors).toBeUndefined();
      expect(live.data?.me.id).toBe(employee.id);
      await signIn(t, ws, employee.id);
      const ended = await t.graphql('{ me { id } }', undefined, employee.token);
      expect(ended.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });
  });
});

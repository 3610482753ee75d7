import { createChallenge, solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { secretsFrom } from '../../src/secrets';
import { createUser, createWorkspace, unique, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/**
 * Password sign-in: POST /api/v1/auth/login and the GraphQL `login` mutation behind the bot-check
 * (off, ALTCHA, Turnstile with a fake fetch), the lockout (5 failures → 423), the per-account
 * rate limit (20 per 15 minutes, shared by REST and GraphQL), one session per user, and
 * password change. Each lockout or rate-limit scenario uses its own user or e-mail, so no state
 * leaks between tests; requests come from distinct client addresses to show the budget ignores them.
 */

const PASSWORD = 'password123';
const WRONG = 'Invalid e-mail or password';
const MISSING = 'challenge_token is missing: security verification is required';
const FAILED = 'challenge_token failed security verification; solve a new challenge and retry';
const LOCKED = /^Account locked after 5 failed sign-ins; try again after (\d{4}-\d\d-\d\dT[\d:.]+Z)$/;
const TOO_MANY = 'Too many requests, please try again later';
const NO_CHALLENGE = 'Self-hosted challenge (the bot-check provider issues its own) not found';
const NO_SESSION = 'Authentication required: send a session token or an API key';

const LOGIN = `mutation($i: LoginInput!) { login(input: $i) {
  token user { id firstName } workspace { slug displayName } modules { key label path actions } } }`;

let addressSeq = 0;
/** A client address no other request of this file uses. */
const freshAddress = () => `10.30.${Math.floor(++addressSeq / 250)}.${(addressSeq % 250) + 1}`;

const login = (t: TestApp, payload: Record<string, unknown>, remoteAddress = freshAddress()) =>
  t.request({ method: 'POST', url: '/api/v1/auth/login', payload, remoteAddress });

const me = (t: TestApp, token: string) => t.request({ method: 'GET', url: '/api/v1/auth/me', token });

/** The response is exactly the error envelope with this status and message. */
function expectError(res: { statusCode: number; body: string; json(): unknown }, status: number, message: string | RegExp): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual(errorEnvelope(status, typeof message === 'string' ? message : expect.stringMatching(message)));
}

type Created = { body: Record<string, unknown> };
const emailOf = (user: Created) => user.body.official_email as string;
/** The bot-check token given, else 'x' (which passes when the provider is off); an explicit undefined omits it. */
const tokenOr = (given: unknown[]) => (given.length ? given[0] : 'x');
/** The REST login body for this user. */
const creds = (user: Created, password = PASSWORD, ...token: unknown[]) => ({ email: emailOf(user), password, challenge_token: tokenOr(token) });
/** The GraphQL login mutation. */
const gqlLogin = (t: TestApp, email: string, password = PASSWORD, ...token: unknown[]) =>
  t.graphql(LOGIN, { i: { email, password, challengeToken: tokenOr(token) } });

const entry = (key: string, label: string, actions: string[]) => ({ key, label, path: `/${key.replace(/_/g, '-')}`, actions });
const CUSTOMER_MODULES = [entry('orders', 'My orders', ['view', 'create']), entry('products', 'Products', ['view'])];

describe('password sign-in (CHALLENGE_PROVIDER=off)', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Sign-in Dairy');
  });
  afterAll(() => t.close());

  const employee = () => createUser(t, ws, UserType.EMPLOYEE);

  describe('POST /api/v1/auth/login: success', () => {
    it('an admin gets exactly token, user, workspace and the admin modules; the token works', async () => {
      const own = await createWorkspace(t, 'Admin Login Dairy');
      const email = (await me(t, own.token)).json().data.user.official_email as string;
      const res = await login(t, { email, password: PASSWORD, challenge_token: 'x' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        response_code: 200,
        message: 'Signed in',
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        user: {
          id: own.adminId, first_name: 'Admin', last_name: expect.stringMatching(/^Number\d+$/), official_email: email,
          role_name: 'Admin', user_type: 0, organization_id: own.organizationId, organization_name: 'Admin Login Dairy',
        },
        workspace: { workspace_id: expect.any(String), slug: own.slug, display_name: 'Admin Login Dairy', plan: 'free', status: 2 },
        modules: expect.any(Array),
      });
      expect(body.modules).toEqual([
        entry('dashboard', 'Dashboard', ['view']), entry('orders', 'Orders', ['view', 'create', 'update_status']),
        entry('users', 'Users', ['view', 'create']), entry('products', 'Products', ['view', 'create']),
        entry('masters', 'Masters', ['view', 'create', 'update']), entry('exports', 'Exports', ['download']),
        entry('workspace_settings', 'Workspace settings', ['view', 'update']),
        entry('developer', 'Developer', ['manage_api_keys', 'manage_webhooks']),
      ]);
      const mine = await me(t, body.token);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().data.user.id).toBe(own.adminId);
    });

    it('an employee gets the employee modules (users: view only)', async () => {
      const user = await employee();
      const res = await login(t, creds(user));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.user).toMatchObject({ id: user.id, role_name: 'Employee', user_type: 1, organization_id: ws.organizationId });
      const keys = ['dashboard', 'orders', 'users', 'products', 'masters', 'exports', 'workspace_settings'];
      expect(body.modules.map((m: { key: string }) => m.key)).toEqual(keys);
      expect(body.modules[2]).toEqual(entry('users', 'Users', ['view']));
    });

    it.each([['distributor', UserType.DISTRIBUTOR, 'Distributor'], ['retailer', UserType.RETAILER, 'Retailer']] as const)('a %s gets only My orders and Products', async (_label, type, roleName) => {
      const user = await createUser(t, ws, type);
      const res = await login(t, creds(user));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user).toMatchObject({ id: user.id, role_name: roleName, user_type: type });
      expect(res.json().modules).toEqual(CUSTOMER_MODULES);
    });

    it('matches the e-mail case-insensitively and starts a new session: the previous token gets 401', async () => {
      const user = await employee();
      expect((await me(t, user.token)).statusCode).toBe(200);
      const res = await login(t, { ...creds(user), email: emailOf(user).toUpperCase() });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user).toMatchObject({ id: user.id, official_email: emailOf(user) });
      expectError(await me(t, user.token), 401, 'Session has ended; sign in again');
      expect((await me(t, res.json().token)).statusCode).toBe(200);
    });
  });

  describe('POST /api/v1/auth/login: refusals', () => {
    it.each([['missing', undefined], ['null', null], ['empty', ''], ['blank', '   ']])('a %s challenge_token → 400, even with the right password', async (_label, challenge_token) => {
      const user = await employee();
      const res = await login(t, creds(user, PASSWORD, challenge_token));
      expectError(res, 400, MISSING);
      expect((await me(t, user.token)).statusCode).toBe(200); // no session was started
    });

    it('bot-check refusals are not counted as failed sign-ins (no lockout)', async () => {
      const user = await employee();
      for (let i = 0; i < 6; i++) expectError(await login(t, creds(user, 'wrong-password', undefined)), 400, MISSING);
      expect((await login(t, creds(user))).statusCode).toBe(200);
    });

    it('a wrong password and an unknown e-mail get the identical 401', async () => {
      const user = await employee();
      const wrongPassword = await login(t, creds(user, 'not-the-password'));
      const unknownEmail = await login(t, { email: `nobody${unique()}@example.test`, password: PASSWORD, challenge_token: 'x' });
      expectError(wrongPassword, 401, WRONG);
      expectError(unknownEmail, 401, WRONG);
      expect(unknownEmail.body).toBe(wrongPassword.body);
      expect((await me(t, user.token)).statusCode).toBe(200);
    });

    it.each(['not-an-email', 'a@', '@example.test'])('a malformed e-mail %j → 400', async (email) => {
      expectError(await login(t, { email, password: PASSWORD, challenge_token: 'x' }), 400, 'email must be a valid e-mail address');
    });

    it('an inactive user with the right password → 403; with a wrong one → 401', async () => {
      const user = await employee();
      await t.orm.em.fork().getConnection().execute('update app_user set status = 0 where id = ?', [user.id]);
      const right = await login(t, creds(user));
      expectError(right, 403, 'This account is inactive; ask a workspace administrator to reactivate it');
      expectError(await login(t, creds(user, 'wrong-password')), 401, WRONG);
    });
  });

  describe('lockout', () => {
    it('the fifth failure (REST or GraphQL) answers 423; afterwards even the right password gets 423', async () => {
      const user = await employee();
      const wrong = creds(user, 'wrong-password');
      for (let i = 1; i <= 2; i++) expectGraphqlError(await gqlLogin(t, emailOf(user), 'wrong-password'), 'UNAUTHENTICATED', WRONG);
      for (let i = 3; i <= 4; i++) expectError(await login(t, wrong), 401, WRONG);
      const fifth = await login(t, wrong);
      expectError(fifth, 423, LOCKED);
      const until = Date.parse(LOCKED.exec(fifth.json().message)![1]);
      expect(Math.abs(until - (Date.now() + 30 * 60_000))).toBeLessThan(60_000);

      expectError(await login(t, wrong), 423, LOCKED);
      expectError(await login(t, { ...wrong, password: PASSWORD }), 423, LOCKED);
      expectGraphqlError(await gqlLogin(t, emailOf(user)), 'LOCKED', LOCKED);
      expect((await me(t, user.token)).statusCode).toBe(200); // the old session is untouched
    });

    it('a success before the fifth failure resets the count', async () => {
      const user = await employee();
      const wrong = creds(user, 'wrong-password');
      for (let i = 0; i < 4; i++) expectError(await login(t, wrong), 401, WRONG);
      expect((await login(t, { ...wrong, password: PASSWORD })).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) expectError(await login(t, wrong), 401, WRONG);
      expectError(await login(t, wrong), 423, LOCKED); // five since the success
    });

    it('once a lock has run out, the right password signs in and a wrong one starts a fresh count', async () => {
      const [a, b] = [await employee(), await employee()];
      await t.orm.em.fork().getConnection().execute(
        "update app_user set failed_sign_ins = 5, locked_until = now() - interval '1 minute' where id in (?, ?)",
        [a.id, b.id],
      );
      expect((await login(t, creds(a))).statusCode).toBe(200);
      const wrong = creds(b, 'wrong-password');
      for (let i = 1; i <= 4; i++) expectError(await login(t, wrong), 401, WRONG);
      expectError(await login(t, wrong), 423, LOCKED);
    });

    it('an unknown e-mail never locks', async () => {
      const email = `ghost${unique()}@example.test`;
      for (let i = 0; i < 7; i++) expectError(await login(t, { email, password: 'x', challenge_token: 'x' }), 401, WRONG);
    });
  });

  describe('rate limit: 20 attempts per 15 minutes per account', () => {
    it('the 21st attempt for one e-mail → 429 from any address and in any case; another account is unaffected', async () => {
      const email = `target${unique()}@example.test`;
      const spellings = [email, email.toUpperCase(), `Target${email.slice(6)}`];
      for (let i = 0; i < 20; i++) {
        const res = await login(t, { email: spellings[i % 3], password: `guess-${i}`, challenge_token: 'x' });
        expectError(res, 401, WRONG);
        expect(res.headers['x-ratelimit-limit']).toBe('20');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(19 - i));
      }
      for (const spelling of spellings) {
        const res = await login(t, { email: spelling, password: PASSWORD, challenge_token: 'x' });
        expectError(res, 429, TOO_MANY);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
        expect(res.headers['x-ratelimit-limit']).toBe('20');
      }
      expectError(await login(t, { email: `other${unique()}@example.test`, password: 'x', challenge_token: 'x' }), 401, WRONG);
    });

    it('REST and GraphQL draw on the same budget', async () => {
      const email = `shared${unique()}@example.test`;
      for (let i = 0; i < 10; i++) {
        expectError(await login(t, { email, password: 'x', challenge_token: 'x' }), 401, WRONG);
        expectGraphqlError(await gqlLogin(t, email, 'x'), 'UNAUTHENTICATED', WRONG);
      }
      expectGraphqlError(await gqlLogin(t, email, 'x'), 'RATE_LIMITED', TOO_MANY);
      expectError(await login(t, { email, password: 'x', challenge_token: 'x' }), 429, TOO_MANY);
    });
  });

  describe('POST /api/v1/auth/change-password', () => {
    const change = (token: string | undefined, payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/auth/change-password', token, payload });

    it('answers the new token; the old token and the old password stop working', async () => {
      const user = await employee();
      const res = await change(user.token, { current_password: PASSWORD, new_password: 'brand-new-secret' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ response_code: 200, message: 'Password changed; use the new token', token: expect.any(String) });
      expectError(await me(t, user.token), 401, 'Session has ended; sign in again');
      expect((await me(t, res.json().token)).statusCode).toBe(200);
      expectError(await login(t, creds(user)), 401, WRONG);
      const fresh = await login(t, creds(user, 'brand-new-secret'));
      expect(fresh.statusCode, fresh.body).toBe(200);
    });

    it.each([
      ['a wrong current password', { current_password: 'not-my-password', new_password: 'brand-new-secret' }, 'current_password is incorrect'],
      ['a new password under 8 characters', { current_password: PASSWORD, new_password: 'short' }, 'new_password must be at least 8 characters'],
      ['the same password', { current_password: PASSWORD, new_password: PASSWORD }, 'new_password must differ from the current password'],
    ])('%s → 400; the password and session stay', async (_label, payload, message) => {
      const user = await employee();
      expectError(await change(user.token, payload), 400, message);
      expect((await me(t, user.token)).statusCode).toBe(200);
      expect((await login(t, creds(user))).statusCode).toBe(200);
    });

    it('without a token → 401', async () => {
      expectError(await change(undefined, { current_password: PASSWORD, new_password: 'brand-new-secret' }), 401, NO_SESSION);
    });

    it('a wrong current password counts toward the lockout (a stolen session cannot guess freely)', async () => {
      const user = await employee();
      const wrong = { current_password: 'not-my-password', new_password: 'brand-new-secret' };
      for (let i = 0; i < 4; i++) expectError(await change(user.token, wrong), 400, 'current_password is incorrect');
      expect((await change(user.token, wrong)).statusCode).toBe(423);
      expect((await change(user.token, { ...wrong, current_password: PASSWORD })).statusCode).toBe(423);
      expect((await login(t, creds(user))).statusCode).toBe(423);
    });

    it('draws on a budget of the signed-in account (21st → 429), apart from its login budget', async () => {
      const user = await employee();
      const same = { current_password: PASSWORD, new_password: PASSWORD }; // refused before any password check
      for (let i = 0; i < 20; i++) expectError(await change(user.token, same), 400, 'new_password must differ from the current password');
      const res = await change(user.token, same);
      expectError(res, 429, TOO_MANY);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect((await login(t, creds(user))).statusCode).toBe(200);
    });
  });

  describe('GraphQL', () => {
    it('login answers token, user, workspace and modules; the token works', async () => {
      const user = await createUser(t, ws, UserType.RETAILER);
      const data = expectGraphqlData(await gqlLogin(t, emailOf(user)));
      expect(data.login).toEqual({
        token: expect.any(String),
        user: { id: user.id, firstName: user.body.first_name },
        workspace: { slug: ws.slug, displayName: 'Sign-in Dairy' },
        modules: CUSTOMER_MODULES,
      });
      expect((await me(t, data.login.token)).statusCode).toBe(200);
      expect((await me(t, user.token)).statusCode).toBe(401);
    });

    it('login refusals carry BAD_USER_INPUT (camelCase field) and UNAUTHENTICATED', async () => {
      const user = await employee();
      const noToken = await gqlLogin(t, emailOf(user), PASSWORD, undefined);
      expectGraphqlError(noToken, 'BAD_USER_INPUT', 'challengeToken is missing: security verification is required');
      expectGraphqlError(await gqlLogin(t, emailOf(user), 'wrong-password'), 'UNAUTHENTICATED', WRONG);
    });

    it('authChallenge is null and GET /auth/challenge is 404 when the provider is off', async () => {
      expect(expectGraphqlData(await t.graphql('query { authChallenge }'))).toEqual({ authChallenge: null });
      expectError(await t.request({ method: 'GET', url: '/api/v1/auth/challenge' }), 404, NO_CHALLENGE);
    });

    it('changePassword returns a new token (the old one ends); logout ends the session', async () => {
      const user = await employee();
      const mutation = `mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }`;
      const wrong = await t.graphql(mutation, { c: 'not-my-password', n: 'graphql-secret' }, user.token);
      expectGraphqlError(wrong, 'BAD_USER_INPUT', 'currentPassword is incorrect');
      const data = expectGraphqlData(await t.graphql(mutation, { c: PASSWORD, n: 'graphql-secret' }, user.token));
      expect(data.changePassword).toEqual(expect.any(String));
      expect((await me(t, user.token)).statusCode).toBe(401);
      expect((await me(t, data.changePassword)).statusCode).toBe(200);
      expect((await login(t, creds(user, 'graphql-secret'))).statusCode).toBe(200);

      const other = await employee();
      expect(expectGraphqlData(await t.graphql('mutation { logout }', undefined, other.token))).toEqual({ logout: true });
      expect((await me(t, other.token)).statusCode).toBe(401);
    });
  });
});

describe('bot-check: ALTCHA', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp({ CHALLENGE_PROVIDER: 'altcha' });
    ws = await createWorkspace(t, 'Altcha Dairy');
  });
  afterAll(() => t.close());

  const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64');

  async function fetchChallenge(): Promise<Challenge> {
    const res = await t.request({ method: 'GET', url: '/api/v1/auth/challenge' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json();
  }

  async function solvedToken(challenge: Challenge): Promise<{ token: string; solution: { counter: number; derivedKey: string } }> {
    const solution = (await solveChallenge({ challenge, deriveKey }))!;
    expect(solution).not.toBeNull();
    return { token: encode({ challenge, solution }), solution };
  }

  it('GET /auth/challenge answers a fresh signed ALTCHA v2 challenge each time', async () => {
    const a = await fetchChallenge();
    const b = await fetchChallenge();
    expect(Object.keys(a).sort()).toEqual(['parameters', 'signature']);
    expect(a.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(a.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 10, keyLength: 32, keyPrefix: expect.stringMatching(/^[0-9a-f]+$/) });
    expect([a.parameters.nonce, a.parameters.salt]).toEqual([expect.stringMatching(/^[0-9a-f]+$/), expect.stringMatching(/^[0-9a-f]+$/)]);
    expect(a.parameters.expiresAt! - Date.now() / 1000).toBeGreaterThan(9 * 60); // 10 minutes
    expect(a.parameters.expiresAt! - Date.now() / 1000).toBeLessThanOrEqual(10 * 60 + 1);
    expect(b.parameters.nonce).not.toBe(a.parameters.nonce);
  });

  it('a solved challenge signs in once; tampered, forged or garbage tokens → 400', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const challenge = await fetchChallenge();
    const { token, solution } = await solvedToken(challenge);

    const flipped = solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const refusals = [
      encode({ challenge, solution: { ...solution, derivedKey: flipped } }),
      encode({ challenge: { ...challenge, parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt! + 3600 } }, solution }),
      encode({ challenge: { ...challenge, signature: 'ab'.repeat(32) }, solution }),
      encode({ challenge: { parameters: challenge.parameters }, solution }),
      'not base64 at all!',
      Buffer.from('{"challenge": 1}').toString('base64'),
      'x', // what passes when the provider is off
    ];
    for (const bad of refusals) expectError(await login(t, creds(user, PASSWORD, bad)), 400, FAILED);
    expectError(await login(t, creds(user, PASSWORD, undefined)), 400, MISSING);

    // Single use, even when two requests race with the same token.
    const raced = await Promise.all([login(t, creds(user, PASSWORD, token)), login(t, creds(user, PASSWORD, token))]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(raced.find((r) => r.statusCode === 200)!.json().user.id).toBe(user.id);
    expectError(raced.find((r) => r.statusCode === 400)!, 400, FAILED);
    expectError(await login(t, creds(user, PASSWORD, token)), 400, FAILED);
  });

  it('an expired challenge, even correctly signed and solved → 400 (control: unexpired → 200)', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const secrets = secretsFrom(t.config.jwtSecret!);
    const forge = (expiresAt: Date) =>
      createChallenge({
        algorithm: 'SHA-256', cost: 10, counter: 7, deriveKey, expiresAt,
        hmacSignatureSecret: secrets.deriveKey('altcha-challenge').toString('hex'),
        hmacKeySignatureSecret: secrets.deriveKey('altcha-key').toString('hex'),
      });
    const expired = await solvedToken(await forge(new Date(Date.now() - 60_000)));
    expectError(await login(t, creds(user, PASSWORD, expired.token)), 400, FAILED);
    const live = await solvedToken(await forge(new Date(Date.now() + 60_000)));
    const res = await login(t, creds(user, PASSWORD, live.token));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('GraphQL authChallenge answers a challenge whose solution signs in through login', async () => {
    const user = await createUser(t, ws, UserType.DISTRIBUTOR);
    const { authChallenge } = expectGraphqlData(await t.graphql('query { authChallenge }'));
    expect(Object.keys(authChallenge).sort()).toEqual(['parameters', 'signature']);
    const { token } = await solvedToken(authChallenge);
    const data = expectGraphqlData(await gqlLogin(t, emailOf(user), PASSWORD, token));
    expect(data.login.user.id).toBe(user.id);
    const again = await gqlLogin(t, emailOf(user), PASSWORD, token);
    expectGraphqlError(again, 'BAD_USER_INPUT', 'challengeToken failed security verification; solve a new challenge and retry');
  });
});

describe('bot-check: Turnstile (fake Cloudflare)', () => {
  let t: TestApp;
  let ws: Workspace;
  let answer: () => Promise<Response>;
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer();
  }) as typeof fetch;

  beforeAll(async () => {
    t = await buildTestApp({ CHALLENGE_PROVIDER: 'turnstile', TURNSTILE_SECRET: 'sekrit' }, { fetch: fakeFetch });
    ws = await createWorkspace(t, 'Turnstile Dairy');
  });
  afterAll(() => t.close());

  const json = (body: unknown, status = 200) => async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('a token Cloudflare accepts signs in; the service posted secret, response and remoteip as a form', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    answer = json({ success: true });
    calls.length = 0;
    const res = await login(t, creds(user, PASSWORD, 'cf-token-123'), '203.0.113.77');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(user.id);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('https://challenges.cloudflare.com/turnstile/v0/siteverify');
    expect(calls[0].init.method).toBe('POST');
    expect(new Headers(calls[0].init.headers).get('content-type')).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(String(calls[0].init.body));
    expect(Object.fromEntries(form)).toEqual({ secret: 'sekrit', response: 'cf-token-123', remoteip: '203.0.113.77' });
  });

  it.each([
    ['success: false', json({ success: false, 'error-codes': ['invalid-input-response'] })],
    ['success: "true" (not a boolean)', json({ success: 'true' })],
    ['HTTP 500', json({ success: true }, 500)],
    ['a body that is not JSON', async () => new Response('<html>oops</html>', { status: 200 })],
    ['a network error', async () => { throw new TypeError('fetch failed'); }],
  ])('%s → 400 (fails closed)', async (_label, reply) => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    answer = reply as () => Promise<Response>;
    calls.length = 0;
    expectError(await login(t, creds(user, PASSWORD, 'cf-token')), 400, FAILED);
    expect(calls).toHaveLength(1);
    expect((await me(t, user.token)).statusCode).toBe(200);
  });

  it('a missing token never reaches Cloudflare; GET /auth/challenge → 404', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    calls.length = 0;
    expectError(await login(t, creds(user, PASSWORD, undefined)), 400, MISSING);
    expect(calls).toHaveLength(0);
    expectError(await t.request({ method: 'GET', url: '/api/v1/auth/challenge' }), 404, NO_CHALLENGE);
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigationFor } from '../../src/domains/auth/navigation';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, uniquePhone, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type OutboxMessage, type TestApp } from '../helpers/test-app';

/**
 * GraphQL sign-in with one-time secrets: requestOtp / verifyOtp, requestMagicLink / verifyMagicLink,
 * setPasswordFromLink, createDesktopCode / exchangeDesktopCode. The same services as REST answer,
 * so messages match REST's; field names in messages are camelCase; the account budget and the
 * lockout are shared with REST. A fresh user per scenario keeps lockout and budget from leaking.
 */

const OTP_FAILED = 'Invalid or expired code';
const LINK_FAILED = 'This link is invalid, used or expired; ask for a new one';
const DESKTOP_FAILED = 'Invalid or expired desktop sign-in code';
const OTP_SENT = 'If this number belongs to an active account, a sign-in code has been sent to it';
const LINK_SENT = 'If this address belongs to an active account, a link has been sent to it';
const LOCKED = /^Account locked after 5 failed sign-ins; try again after \d{4}-\d\d-\d\dT[\d:.]+Z$/;

const SIGNED_IN = 'token user { id firstName userType organizationId role { name } } workspace { id slug displayName } modules { key label path actions }';
const REQUEST_OTP = 'mutation($phone: String!) { requestOtp(phone: $phone) { message } }';
const VERIFY_OTP = `mutation($phone: String!, $otp: String!) { verifyOtp(phone: $phone, otp: $otp) { ${SIGNED_IN} } }`;
const REQUEST_LINK = 'mutation($email: String!, $purpose: LinkPurpose) { requestMagicLink(email: $email, purpose: $purpose) { message } }';
const REQUEST_LINK_DEFAULT = 'mutation($email: String!) { requestMagicLink(email: $email) { message } }';
const VERIFY_LINK = `mutation($token: String!) { verifyMagicLink(token: $token) { ${SIGNED_IN} } }`;
const SET_PASSWORD = 'mutation($token: String!, $password: String!) { setPasswordFromLink(token: $token, password: $password) }';
const CREATE_DESKTOP = 'mutation($stateHash: String!) { createDesktopCode(stateHash: $stateHash) { code expiresAt } }';
const EXCHANGE_DESKTOP = `mutation($code: String!, $state: String!) { exchangeDesktopCode(code: $code, state: $state) { ${SIGNED_IN} } }`;
const LOGIN = 'mutation($input: LoginInput!) { login(input: $input) { token user { id } } }';
const ME = '{ me { id } }';

/** A fresh employee, its current session and the invite its creation e-mailed. */
type Account = { id: number; token: string; email: string; phone: string; firstName: string; invite: OutboxMessage };

const tokenIn = (message: OutboxMessage) => /token=([A-Za-z0-9_-]+)/.exec(message.text)![1];
const otpIn = (message: OutboxMessage) => /\b(\d{6})\b/.exec(message.text)![1];
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const stateHashOf = (state: string) => createHash('sha256').update(state).digest('base64url');

describe('GraphQL sign-in with one-time codes and links', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Codes GraphQL Dairy');
  });
  afterAll(() => t.close());

  const gql = (query: string, variables?: Record<string, unknown>, token?: string) => t.graphql(query, variables, token) as Promise<GraphqlAnswer>;
  const post = (url: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: `/api/v1${url}`, payload });
  const sql = (query: string, params: unknown[]) => t.orm.em.fork().getConnection().execute(query, params);
  const expire = (userId: number, purpose: string) => sql("update sign_in_code set expires_at = now() - interval '1 minute' where user_id = ? and purpose = ?", [userId, purpose]);

  /** Runs `action` and returns its answer and the messages it added to the outbox. */
  async function capture<T>(action: () => Promise<T>): Promise<{ result: T; sent: OutboxMessage[] }> {
    const before = new Set((await t.outbox()).map((m) => JSON.stringify(m)));
    const result = await action();
    return { result, sent: (await t.outbox()).filter((m) => !before.has(JSON.stringify(m))) };
  }

  async function newAccount(): Promise<Account> {
    const { result, sent } = await capture(() => createUser(t, ws, UserType.EMPLOYEE));
    const body = result.body as { official_email: string; primary_contact_number: string; first_name: string };
    expect(sent).toHaveLength(1);
    return { id: result.id, token: result.token, email: body.official_email, phone: body.primary_contact_number, firstName: body.first_name, invite: sent[0] };
  }

  /** The operation signed `a` in: the payload is a's, its token works and a's previous session has ended. */
  async function expectSignedIn(res: GraphqlAnswer, field: string, a: Account): Promise<void> {
    const payload = expectGraphqlData(res)[field];
    expect(payload).toEqual({
      token: expect.any(String),
      user: { id: a.id, firstName: a.firstName, userType: 'EMPLOYEE', organizationId: ws.organizationId, role: { name: 'Employee' } },
      workspace: { id: ws.organizationId, slug: ws.slug, displayName: 'Codes GraphQL Dairy' },
      modules: navigationFor(UserType.EMPLOYEE),
    });
    expectGraphqlError(await gql(ME, {}, a.token), 'UNAUTHENTICATED', 'Session has ended; sign in again');
    expect(expectGraphqlData(await gql(ME, {}, payload.token)).me).toEqual({ id: a.id });
    a.token = payload.token;
  }

  const expectLive = async (a: Account) => expect(expectGraphqlData(await gql(ME, {}, a.token)).me).toEqual({ id: a.id });

  /** Runs a request mutation that must send exactly one message; returns it. */
  async function sendOne(query: string, variables: Record<string, unknown>): Promise<OutboxMessage> {
    const { result, sent } = await capture(() => gql(query, variables));
    expectGraphqlData(result);
    expect(sent).toHaveLength(1);
    return sent[0];
  }
  const requestOtp = async (a: Account) => otpIn(await sendOne(REQUEST_OTP, { phone: a.phone }));
  const requestLink = async (a: Account, purpose = 'SIGN_IN') => tokenIn(await sendOne(REQUEST_LINK, { email: a.email, purpose }));

  describe('requestOtp and verifyOtp', () => {
    it('texts a code and signs in with it once', async () => {
      const a = await newAccount();
      const { result, sent } = await capture(() => gql(REQUEST_OTP, { phone: a.phone }));
      expect(expectGraphqlData(result)).toEqual({ requestOtp: { message: OTP_SENT } });
      expect(sent).toEqual([{ channel: 'sms', to: a.phone, subject: null, text: expect.stringContaining('Codes GraphQL Dairy'), created_at: expect.any(String) }]);
      const code = otpIn(sent[0]);
      await expectSignedIn(await gql(VERIFY_OTP, { phone: a.phone, otp: code }), 'verifyOtp', a);
      expectGraphqlError(await gql(VERIFY_OTP, { phone: a.phone, otp: code }), 'UNAUTHENTICATED', OTP_FAILED);
      await expectLive(a);
    });

    it('answers the same for an unknown phone and texts nobody; refuses a malformed phone', async () => {
      const { result, sent } = await capture(() => gql(REQUEST_OTP, { phone: uniquePhone() }));
      expect(expectGraphqlData(result)).toEqual({ requestOtp: { message: OTP_SENT } });
      expect(sent).toEqual([]);
      const malformed = await capture(() => gql(REQUEST_OTP, { phone: 'call me maybe' }));
      expectGraphqlError(malformed.result, 'BAD_USER_INPUT', 'phone must be a phone number of 10 to 15 digits, optionally starting with +');
      expect(malformed.sent).toEqual([]);
    });

    it('answers every failure with the same UNAUTHENTICATED error', async () => {
      const a = await newAccount();
      const code = await requestOtp(a);
      for (const [phone, otp] of [
        [uniquePhone(), code],
        ['not-a-phone', code],
        ['', code],
        [a.phone, otherCode(code)],
        [a.phone, ''],
        [a.phone, `${code}0`],
      ]) {
        expectGraphqlError(await gql(VERIFY_OTP, { phone, otp }), 'UNAUTHENTICATED', OTP_FAILED);
      }
      const expired = await newAccount();
      const expiredCode = await requestOtp(expired);
      await expire(expired.id, 'otp');
      expectGraphqlError(await gql(VERIFY_OTP, { phone: expired.phone, otp: expiredCode }), 'UNAUTHENTICATED', OTP_FAILED);
      await expectSignedIn(await gql(VERIFY_OTP, { phone: a.phone, otp: code }), 'verifyOtp', a);
    });

    it('shares the lockout with REST: 4 wrong codes over REST and 1 over GraphQL lock the account', async () => {
      const a = await newAccount();
      const code = await requestOtp(a);
      for (let i = 0; i < 4; i += 1) {
        const res = await post('/auth/otp/verify', { phone: a.phone, otp: otherCode(code) });
        expect(res.statusCode, res.body).toBe(401);
      }
      expectGraphqlError(await gql(VERIFY_OTP, { phone: a.phone, otp: otherCode(code) }), 'LOCKED', LOCKED);
      expectGraphqlError(await gql(VERIFY_OTP, { phone: a.phone, otp: code }), 'LOCKED', LOCKED);
      const rest = await post('/auth/otp/verify', { phone: a.phone, otp: code });
      expect(rest.statusCode, rest.body).toBe(423);
      await expectLive(a);
    });

    it('shares the account budget with REST: 20 requests over REST, the 21st over GraphQL is RATE_LIMITED', async () => {
      const a = await newAccount();
      for (let i = 0; i < 20; i += 1) expect((await post('/auth/otp/request', { phone: a.phone })).statusCode, `request ${i + 1}`).toBe(200);
      const { result, sent } = await capture(() => gql(REQUEST_OTP, { phone: a.phone }));
      expectGraphqlError(result, 'RATE_LIMITED', 'Too many requests, please try again later');
      expect(sent).toEqual([]);
      expectGraphqlError(await gql(VERIFY_OTP, { phone: a.phone, otp: '123456' }), 'RATE_LIMITED', 'Too many requests, please try again later');
      expect(expectGraphqlData(await gql(REQUEST_OTP, { phone: uniquePhone() }))).toEqual({ requestOtp: { message: OTP_SENT } });
    });

    it('spends the account budget once per root field: of three aliased requests with one attempt left, the third alone is refused', async () => {
      const a = await newAccount();
      for (let i = 0; i < 18; i += 1) expect((await post('/auth/otp/request', { phone: a.phone })).statusCode, `request ${i + 1}`).toBe(200);
      const THRICE = 'mutation($phone: String!) { first: requestOtp(phone: $phone) { message } second: requestOtp(phone: $phone) { message } third: requestOtp(phone: $phone) { message } }';
      const { result, sent } = await capture(() => gql(THRICE, { phone: a.phone }));
      // A non-null root field that fails nulls the whole answer; the first two ran all the same.
      expect(result.errors).toEqual([expect.objectContaining({ path: ['third'], extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);
      expect(sent.map((m) => m.to)).toEqual([a.phone, a.phone]);
      const rest = await post('/auth/otp/request', { phone: a.phone });
      expect(rest.statusCode, rest.body).toBe(429);
      expect(rest.headers).toMatchObject({ 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0' });
    });
  });

  describe('requestMagicLink and verifyMagicLink', () => {
    it('e-mails a sign-in link by default and signs in with it once', async () => {
      const a = await newAccount();
      const { result, sent } = await capture(() => gql(REQUEST_LINK_DEFAULT, { email: a.email }));
      expect(expectGraphqlData(result)).toEqual({ requestMagicLink: { message: LINK_SENT } });
      expect(sent).toEqual([{ channel: 'email', to: a.email, subject: 'Sign in to Codes GraphQL Dairy', text: expect.stringContaining('http://localhost:3000/auth/magic-link?token='), created_at: expect.any(String) }]);
      const token = tokenIn(sent[0]);
      await expectSignedIn(await gql(VERIFY_LINK, { token }), 'verifyMagicLink', a);
      expectGraphqlError(await gql(VERIFY_LINK, { token }), 'UNAUTHENTICATED', LINK_FAILED);
      await expectLive(a);
    });

    it('answers the same for an unknown address; refuses a malformed address or an unknown purpose', async () => {
      const { result, sent } = await capture(() => gql(REQUEST_LINK, { email: 'nobody-here@example.test', purpose: 'RESET_PASSWORD' }));
      expect(expectGraphqlData(result)).toEqual({ requestMagicLink: { message: LINK_SENT } });
      expect(sent).toEqual([]);
      expectGraphqlError(await gql(REQUEST_LINK, { email: 'not-an-address', purpose: 'SIGN_IN' }), 'BAD_USER_INPUT', 'email must be a valid e-mail address');
      expectGraphqlError(await gql(REQUEST_LINK, { email: 'someone@example.test', purpose: 'INVITE' }), 'BAD_USER_INPUT', /LinkPurpose/);
    });

    it('refuses expired links, invite and reset links, and made-up tokens', async () => {
      const a = await newAccount();
      const token = await requestLink(a);
      await expire(a.id, 'magic_link');
      const reset = await requestLink(a, 'RESET_PASSWORD');
      for (const bad of [token, reset, tokenIn(a.invite), 'garbage-token']) expectGraphqlError(await gql(VERIFY_LINK, { token: bad }), 'UNAUTHENTICATED', LINK_FAILED);
      await expectLive(a);
    });
  });

  describe('setPasswordFromLink', () => {
    const login = (email: string, password: string) => gql(LOGIN, { input: { email, password, challengeToken: 'x' } });

    it('sets the password from a reset link, ends the session and signs nobody in', async () => {
      const a = await newAccount();
      const message = await sendOne(REQUEST_LINK, { email: a.email, purpose: 'RESET_PASSWORD' });
      expect(message).toMatchObject({ to: a.email, subject: 'Reset your Codes GraphQL Dairy password', text: expect.stringContaining('http://localhost:3000/auth/set-password?token=') });
      const token = tokenIn(message);
      expect(expectGraphqlData(await gql(SET_PASSWORD, { token, password: 'graphql-password-1' }))).toEqual({ setPasswordFromLink: true });
      expectGraphqlError(await gql(ME, {}, a.token), 'UNAUTHENTICATED');
      expectGraphqlError(await login(a.email, 'password123'), 'UNAUTHENTICATED', 'Invalid e-mail or password');
      expect(expectGraphqlData(await login(a.email, 'graphql-password-1')).login.user).toEqual({ id: a.id });
      expectGraphqlError(await gql(SET_PASSWORD, { token, password: 'graphql-password-2' }), 'UNAUTHENTICATED', LINK_FAILED);
    });

    it('refuses a short password without using up the invite, and a magic sign-in link', async () => {
      const a = await newAccount();
      const invite = tokenIn(a.invite);
      expectGraphqlError(await gql(SET_PASSWORD, { token: invite, password: 'short' }), 'BAD_USER_INPUT', 'password must be at least 8 characters');
      const magic = await requestLink(a);
      expectGraphqlError(await gql(SET_PASSWORD, { token: magic, password: 'hijacked-password' }), 'UNAUTHENTICATED', LINK_FAILED);
      await expectLive(a);
      expect(expectGraphqlData(await gql(SET_PASSWORD, { token: invite, password: 'invited-password' }))).toEqual({ setPasswordFromLink: true });
      expect(expectGraphqlData(await login(a.email, 'invited-password')).login.user).toEqual({ id: a.id });
    });
  });

  describe('createDesktopCode and exchangeDesktopCode', () => {
    it('needs a session and a base64url SHA-256 stateHash', async () => {
      expectGraphqlError(await gql(CREATE_DESKTOP, { stateHash: stateHashOf('s') }), 'UNAUTHENTICATED');
      const a = await newAccount();
      const message = 'stateHash must be base64url(SHA-256(state)): 43 characters of A-Z, a-z, 0-9, - and _';
      for (const bad of [createHash('sha256').update('s').digest('hex'), createHash('sha256').update('s').digest('base64'), `${stateHashOf('s')}A`, 'plain-state']) {
        expectGraphqlError(await gql(CREATE_DESKTOP, { stateHash: bad }, a.token), 'BAD_USER_INPUT', message);
      }
    });

    it('mints a 2-minute code and exchanges it once, with the state, for a session', async () => {
      const a = await newAccount();
      const state = 'graphql-desktop-state';
      const { createDesktopCode } = expectGraphqlData(await gql(CREATE_DESKTOP, { stateHash: stateHashOf(state) }, a.token));
      expect(createDesktopCode).toEqual({ code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String) });
      const left = Date.parse(createDesktopCode.expiresAt) - Date.now();
      expect(left).toBeGreaterThan(110_000);
      expect(left).toBeLessThanOrEqual(120_000);
      await expectSignedIn(await gql(EXCHANGE_DESKTOP, { code: createDesktopCode.code, state }), 'exchangeDesktopCode', a);
      expectGraphqlError(await gql(EXCHANGE_DESKTOP, { code: createDesktopCode.code, state }), 'UNAUTHENTICATED', DESKTOP_FAILED);
    });

    it('burns the code on a wrong state, and refuses unknown codes', async () => {
      const a = await newAccount();
      const state = 'another-desktop-state';
      const { code } = expectGraphqlData(await gql(CREATE_DESKTOP, { stateHash: stateHashOf(state) }, a.token)).createDesktopCode;
      expectGraphqlError(await gql(EXCHANGE_DESKTOP, { code, state: 'a-guessed-state' }), 'UNAUTHENTICATED', DESKTOP_FAILED);
      expectGraphqlError(await gql(EXCHANGE_DESKTOP, { code, state }), 'UNAUTHENTICATED', DESKTOP_FAILED);
      expectGraphqlError(await gql(EXCHANGE_DESKTOP, { code: 'made-up-code', state }), 'UNAUTHENTICATED', DESKTOP_FAILED);
      await expectLive(a);
    });

    it('exchanges over GraphQL a code minted over REST', async () => {
      const a = await newAccount();
      const res = await t.request({ method: 'POST', url: '/api/v1/auth/desktop/code', payload: { state_hash: stateHashOf('cross-state') }, token: a.token });
      expect(res.statusCode, res.body).toBe(201);
      await expectSignedIn(await gql(EXCHANGE_DESKTOP, { code: res.json().data.code, state: 'cross-state' }), 'exchangeDesktopCode', a);
    });
  });
});

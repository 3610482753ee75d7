import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigationFor } from '../../src/domains/auth/navigation';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, uniquePhone, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type OutboxMessage, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/**
 * REST sign-in with one-time secrets: SMS codes (/auth/otp), magic links (/auth/magic-link),
 * invite and reset links that only set a password (/auth/magic-link/set-password), and the desktop
 * hand-off (/auth/desktop). Each scenario uses a fresh user so the lockout and the per-account
 * budget never leak between tests; time moves by editing sign_in_code and app_user rows.
 */

const OTP_FAILED = 'Invalid or expired code';
const LINK_FAILED = 'This link is invalid, used or expired; ask for a new one';
const DESKTOP_FAILED = 'Invalid or expired desktop sign-in code';
const LOCKED = /^Account locked after 5 failed sign-ins; try again after \d{4}-\d\d-\d\dT[\d:.]+Z$/;
const TOO_MANY = 'Too many requests, please try again later';
const OTP_SENT = { response_code: 200, message: 'If this number belongs to an active account, a sign-in code has been sent to it', data: { code_length: 6, expires_in_seconds: 300 } };
const LINK_SENT = { response_code: 200, message: 'If this address belongs to an active account, a link has been sent to it' };
const PASSWORD_SET = { response_code: 200, message: 'Password set; sign in with it' };
const BAD_STATE_HASH = 'state_hash must be base64url(SHA-256(state)): 43 characters of A-Z, a-z, 0-9, - and _';
/** The text of an e-mail with a link to this page of the web app (PUBLIC_APP_URL defaults to http://localhost:3000). */
const linkText = (page: string) => expect.stringMatching(new RegExp(`http://localhost:3000/auth/${page}\\?token=[A-Za-z0-9_-]{43}(?![\\w-])`));
const MINUTE = 60_000;

/** A workspace and the `workspace` block of its users' sign-in answers. */
type Tenant = { ws: Workspace; name: string; workspace: Record<string, unknown> };
/** A fresh employee, its current session and the invite its creation e-mailed. */
type Account = { tenant: Tenant; id: number; token: string; email: string; phone: string; firstName: string; invite: OutboxMessage };

const tokenIn = (message: OutboxMessage) => /token=([A-Za-z0-9_-]+)/.exec(message.text)![1];
const otpIn = (message: OutboxMessage) => /\b(\d{6})\b/.exec(message.text)![1];
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const stateHashOf = (state: string) => createHash('sha256').update(state).digest('base64url');
const spaced = (phone: string) => `${phone.slice(0, 3)} ${phone.slice(3, 8)} ${phone.slice(8)}`;

describe('sign-in with one-time codes and links (REST)', () => {
  let t: TestApp;
  beforeAll(async () => void (t = await buildTestApp()));
  afterAll(() => t.close());

  const post = (url: string, payload: Record<string, unknown>, token?: string) => t.request({ method: 'POST', url: `/api/v1${url}`, payload, token });
  const me = (token: string) => t.request({ method: 'GET', url: '/api/v1/auth/me', token });
  const live = async (token: string) => (await me(token)).statusCode;
  const login = (email: string, password: string) => post('/auth/login', { email, password, challenge_token: 'x' });
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute<T[]>(query, params);
  type CodeRow = { code_hash: string; state_hash: string | null; expires_at: Date; used_at: Date | null };
  const codeRows = (userId: number, purpose: string) =>
    sql<CodeRow>('select code_hash, state_hash, expires_at, used_at from sign_in_code where user_id = ? and purpose = ? order by id', [userId, purpose]);
  const expire = (userId: number, purpose: string) => sql("update sign_in_code set expires_at = now() - interval '1 minute' where user_id = ? and purpose = ?", [userId, purpose]);
  const lock = (userId: number) => sql("update app_user set failed_sign_ins = 5, locked_until = now() + interval '30 minutes' where id = ?", [userId]);
  const unlock = (userId: number) => sql("update app_user set locked_until = now() - interval '1 second' where id = ?", [userId]);

  /** The one stored row of this purpose: a 64-hex HMAC that does not contain `secret`, valid `ttl` ms from about now. */
  async function expectStored(userId: number, purpose: string, secret: string, ttl: number) {
    const rows = await codeRows(userId, purpose);
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].code_hash).not.toContain(secret);
    const left = new Date(rows[0].expires_at).getTime() - Date.now();
    expect(left > ttl - 10_000 && left <= ttl, `${left} ms left of ${ttl}`).toBe(true);
    return rows[0];
  }

  /** Runs `action` and returns its answer and the messages it added to the outbox. */
  async function capture<T>(action: () => Promise<T>): Promise<{ result: T; sent: OutboxMessage[] }> {
    const before = new Set((await t.outbox()).map((m) => JSON.stringify(m)));
    const result = await action();
    return { result, sent: (await t.outbox()).filter((m) => !before.has(JSON.stringify(m))) };
  }

  async function newTenant(name: string): Promise<Tenant> {
    const ws = await createWorkspace(t, name);
    const { workspace } = (await me(ws.token)).json().data;
    return { ws, name, workspace: { workspace_id: workspace.workspace_id, slug: ws.slug, display_name: name, plan: 'free', status: workspace.status } };
  }

  async function newAccount(tenant: Tenant): Promise<Account> {
    const { result, sent } = await capture(() => createUser(t, tenant.ws, UserType.EMPLOYEE));
    const body = result.body as { official_email: string; primary_contact_number: string; first_name: string };
    expect(sent).toHaveLength(1);
    return { tenant, id: result.id, token: result.token, email: body.official_email, phone: body.primary_contact_number, firstName: body.first_name, invite: sent[0] };
  }

  /** The answer is a's sign-in answer; its token works and a's previous session has ended. */
  async function expectSignedIn(res: LightMyRequestResponse, a: Account): Promise<void> {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      response_code: 200,
      message: 'Signed in',
      token: expect.any(String),
      user: { id: a.id, first_name: a.firstName, last_name: 'Employee', official_email: a.email, role_name: 'Employee', user_type: UserType.EMPLOYEE,
        organization_id: a.tenant.ws.organizationId, organization_name: a.tenant.name },
      workspace: a.tenant.workspace,
      modules: navigationFor(UserType.EMPLOYEE),
    });
    const token = res.json().token as string;
    expect(await live(a.token)).toBe(401);
    expect((await me(token)).json()).toMatchObject({ response_code: 200, data: { user: { id: a.id } } });
    a.token = token;
  }

  function expectAnswer(res: LightMyRequestResponse, status: number, body: unknown): void {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual(body);
  }
  const expectError = (res: LightMyRequestResponse, status: number, message: string | RegExp) =>
    expectAnswer(res, status, errorEnvelope(status, typeof message === 'string' ? message : expect.stringMatching(message)));

  /** Posts a request that must answer 200 and send exactly one message; returns that message. */
  async function sendOne(url: string, payload: Record<string, unknown>): Promise<OutboxMessage> {
    const { result, sent } = await capture(() => post(url, payload));
    expect(result.statusCode, result.body).toBe(200);
    expect(sent).toHaveLength(1);
    return sent[0];
  }
  /** Requests an OTP for `a` and returns the code its SMS carried. */
  const requestOtp = async (a: Account) => otpIn(await sendOne('/auth/otp/request', { phone: a.phone }));
  /** Requests a link for `a` and returns the token its e-mail carried. */
  const requestLink = async (a: Account, purpose = 'sign_in') => tokenIn(await sendOne('/auth/magic-link/request', { email: a.email, purpose }));

  describe('SMS codes: /auth/otp/request and /auth/otp/verify', () => {
    let tenant: Tenant;
    beforeAll(async () => void (tenant = await newTenant('Codes OTP Dairy')));
    const verify = (phone: string, otp: string) => post('/auth/otp/verify', { phone, otp });

    it('texts a 6-digit code, keeps only its hash, and signs in with it once', async () => {
      const a = await newAccount(tenant);
      const { result, sent } = await capture(() => post('/auth/otp/request', { phone: a.phone }));
      expectAnswer(result, 200, OTP_SENT);
      expect(sent).toEqual([{ channel: 'sms', to: a.phone, subject: null, text: expect.stringContaining('Codes OTP Dairy'), created_at: expect.any(String) }]);
      const code = otpIn(sent[0]);
      await expectStored(a.id, 'otp', code, 5 * MINUTE);
      await expectSignedIn(await verify(a.phone, code), a);
      expect((await codeRows(a.id, 'otp'))[0].used_at).not.toBeNull();
      // Used: the same code fails, and the session it started survives the attempt.
      expectError(await verify(a.phone, code), 401, OTP_FAILED);
      expect(await live(a.token)).toBe(200);
    });

    it('redeems a code once when two verifications race', async () => {
      const a = await newAccount(tenant);
      const code = await requestOtp(a);
      const answers = (await Promise.all([verify(a.phone, code), verify(a.phone, code)])).map((r) => r.json().message);
      expect(answers.sort()).toEqual([OTP_FAILED, 'Signed in']);
    });

    it('answers the same for unknown phones and inactive users, and texts nobody', async () => {
      const inactive = await newAccount(tenant);
      await sql('update app_user set status = 0 where id = ?', [inactive.id]);
      for (const phone of [uniquePhone(), inactive.phone]) {
        const { result, sent } = await capture(() => post('/auth/otp/request', { phone }));
        expectAnswer(result, 200, OTP_SENT);
        expect(sent).toEqual([]);
      }
      expect(await codeRows(inactive.id, 'otp')).toEqual([]);
    });

    it('normalises the spacing of the phone number on request and verify', async () => {
      const a = await newAccount(tenant);
      const { result, sent } = await capture(() => post('/auth/otp/request', { phone: spaced(a.phone) }));
      expect(result.json()).toEqual(OTP_SENT);
      expect(sent.map((m) => [m.channel, m.to])).toEqual([['sms', a.phone]]);
      await expectSignedIn(await verify(`${a.phone.slice(0, 3)}-${a.phone.slice(3, 8)}-${a.phone.slice(8)}`, otpIn(sent[0])), a);
    });

    it('refuses a malformed phone with 400 naming phone', async () => {
      const malformed = 'phone must be a phone number of 10 to 15 digits, optionally starting with +';
      for (const [phone, message] of [['not-a-phone', malformed], ['+91 12345', malformed], ['', 'phone must not be empty']]) {
        const { result, sent } = await capture(() => post('/auth/otp/request', { phone }));
        expectError(result, 400, message);
        expect(sent).toEqual([]);
      }
    });

    it('voids the previous code when a new one is requested', async () => {
      const a = await newAccount(tenant);
      const first = await requestOtp(a);
      let second = await requestOtp(a);
      while (second === first) second = await requestOtp(a); // one chance in a million
      expect(await codeRows(a.id, 'otp')).toHaveLength(1);
      expectError(await verify(a.phone, first), 401, OTP_FAILED);
      await expectSignedIn(await verify(a.phone, second), a);
    });

    it('answers every failure with the same 401 body', async () => {
      const [wrong, expired, shape] = [await newAccount(tenant), await newAccount(tenant), await newAccount(tenant)];
      const wrongCode = await requestOtp(wrong);
      const expiredCode = await requestOtp(expired);
      await expire(expired.id, 'otp');
      const code = await requestOtp(shape);
      const malformed = [code.slice(0, 5), `${code}0`, 'abcdef', ` ${code}`].map((otp) => [shape.phone, otp]);
      const attempts = [[uniquePhone(), '123456'], ['not-a-phone', '123456'], [wrong.phone, otherCode(wrongCode)], [expired.phone, expiredCode], ...malformed];
      for (const [phone, otp] of attempts) expectError(await verify(phone, otp), 401, OTP_FAILED);
      // Four malformed codes neither burned the code nor locked the account; success clears the count.
      await expectSignedIn(await verify(shape.phone, code), shape);
      expect(await sql('select failed_sign_ins from app_user where id = ?', [shape.id])).toEqual([{ failed_sign_ins: 0 }]);
      await expectSignedIn(await verify(wrong.phone, wrongCode), wrong);
    });

    // BUG: the route's JSON schema (minLength 1, maxLength 20/30) answers these 400 before the
    // service can answer its uniform 401; GraphQL verifyOtp answers UNAUTHENTICATED for the same input.
    it('answers 401, like every other failure, for an empty or over-long phone or code', async () => {
      const a = await newAccount(tenant);
      const attempts = [[a.phone, ''], [a.phone, '1'.repeat(21)], ['', '123456'], ['1'.repeat(31), '123456']];
      const answers = [];
      for (const [phone, otp] of attempts) answers.push((await verify(phone, otp)).json());
      expect(answers).toEqual(attempts.map(() => ({ response_code: 401, message: OTP_FAILED })));
    });

    it('locks the account on the fifth wrong code; then even the right code answers 423', async () => {
      const a = await newAccount(tenant);
      const code = await requestOtp(a);
      for (let i = 0; i < 4; i += 1) expectError(await verify(a.phone, otherCode(code)), 401, OTP_FAILED);
      expectError(await verify(a.phone, otherCode(code)), 423, LOCKED);
      expectError(await verify(a.phone, code), 423, LOCKED);
      expect(await live(a.token)).toBe(200);
      expect(new Date((await sql<{ locked_until: Date }>('select locked_until from app_user where id = ?', [a.id]))[0].locked_until).getTime() - Date.now()).toBeGreaterThan(29 * MINUTE);
      // Once the lock runs out a fresh count starts, and the code the lock refused still signs in.
      await unlock(a.id);
      expectError(await verify(a.phone, otherCode(code)), 401, OTP_FAILED);
      await expectSignedIn(await verify(a.phone, code), a);
      expect(await sql('select failed_sign_ins, locked_until from app_user where id = ?', [a.id])).toEqual([{ failed_sign_ins: 0, locked_until: null }]);
    });

    it('spends one account budget (20 per 15 minutes) across spellings of the phone and verification', async () => {
      const a = await newAccount(tenant);
      for (let i = 0; i < 20; i += 1) expect((await post('/auth/otp/request', { phone: i % 2 ? a.phone : spaced(a.phone) })).statusCode, `request ${i + 1}`).toBe(200);
      const limited = await post('/auth/otp/request', { phone: spaced(a.phone) });
      expectError(limited, 429, TOO_MANY);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0' });
      expectError(await verify(a.phone, '123456'), 429, TOO_MANY);
      expect((await post('/auth/otp/request', { phone: uniquePhone() })).statusCode).toBe(200);
    });
  });

  describe('magic links: /auth/magic-link/request and /auth/magic-link/verify', () => {
    let tenant: Tenant;
    beforeAll(async () => void (tenant = await newTenant('Codes Link Dairy')));
    const verify = (token: string) => post('/auth/magic-link/verify', { token });

    it('e-mails a single-use, 15-minute sign-in link (the default purpose), keeping only its hash', async () => {
      const a = await newAccount(tenant);
      const { result, sent } = await capture(() => post('/auth/magic-link/request', { email: a.email }));
      expectAnswer(result, 200, LINK_SENT);
      expect(sent).toEqual([{ channel: 'email', to: a.email, subject: 'Sign in to Codes Link Dairy', text: linkText('magic-link'), created_at: expect.any(String) }]);
      const token = tokenIn(sent[0]);
      await expectStored(a.id, 'magic_link', token, 15 * MINUTE);
      await expectSignedIn(await verify(token), a);
      expectError(await verify(token), 401, LINK_FAILED);
      expect(await live(a.token)).toBe(200);
    });

    it('finds the account whatever the case of the address (purpose sign_in)', async () => {
      const a = await newAccount(tenant);
      const { result, sent } = await capture(() => post('/auth/magic-link/request', { email: ` ${a.email.toUpperCase()} `, purpose: 'sign_in' }));
      expect(result.json()).toEqual(LINK_SENT);
      expect(sent.map((m) => [m.to, m.subject])).toEqual([[a.email, 'Sign in to Codes Link Dairy']]);
      await expectSignedIn(await verify(tokenIn(sent[0])), a);
    });

    it('answers the same for unknown addresses and inactive users, and e-mails nobody', async () => {
      const inactive = await newAccount(tenant);
      await sql('update app_user set status = 0 where id = ?', [inactive.id]);
      for (const payload of [{ email: 'nobody-here@example.test' }, { email: inactive.email }, { email: inactive.email, purpose: 'reset_password' }]) {
        const { result, sent } = await capture(() => post('/auth/magic-link/request', payload));
        expectAnswer(result, 200, LINK_SENT);
        expect(sent).toEqual([]);
      }
    });

    it('refuses an invalid purpose or a malformed address with 400', async () => {
      const a = await newAccount(tenant);
      for (const [payload, message] of [
        [{ email: a.email, purpose: 'invite' }, 'purpose must be one of: sign_in, reset_password'],
        [{ email: 'not-an-address' }, 'email must be a valid e-mail address'],
        [{ email: '' }, 'email must not be empty'],
      ] as const) {
        const { result, sent } = await capture(() => post('/auth/magic-link/request', payload));
        expectError(result, 400, message);
        expect(sent).toEqual([]);
      }
    });

    it('refuses replaced and expired links', async () => {
      const a = await newAccount(tenant);
      const first = await requestLink(a);
      const second = await requestLink(a);
      expectError(await verify(first), 401, LINK_FAILED);
      await expire(a.id, 'magic_link');
      expectError(await verify(second), 401, LINK_FAILED);
      expect(await live(a.token)).toBe(200);
    });

    // BUG: OneTimeCodes.issue deletes the older link and inserts the new one without a lock or a
    // unique (user_id, purpose) key, so concurrent requests leave several live links.
    it('leaves one live link when requests race', async () => {
      const a = await newAccount(tenant);
      const { sent } = await capture(() => Promise.all([1, 2, 3, 4].map(() => post('/auth/magic-link/request', { email: a.email }))));
      expect(sent).toHaveLength(4);
      const answers = [];
      for (const message of sent) answers.push((await verify(tokenIn(message))).statusCode);
      expect(answers.filter((status) => status === 200), `answers: ${answers}`).toHaveLength(1);
    });

    it('never signs in with an invite or reset link, nor a made-up token (and does not burn them)', async () => {
      const a = await newAccount(tenant);
      const invite = tokenIn(a.invite);
      const reset = await requestLink(a, 'reset_password');
      for (const token of [invite, reset, 'garbage-token', 'A'.repeat(43)]) expectError(await verify(token), 401, LINK_FAILED);
      expectError(await verify(''), 400, 'token must not be empty');
      expect(await live(a.token)).toBe(200);
      expect((await post(`/auth/magic-link/set-password/${reset}`, { password: 'reset-pass-1' })).json()).toEqual(PASSWORD_SET);
      // Setting the password voids every other outstanding link, the invite included.
      expectError(await post(`/auth/magic-link/set-password/${invite}`, { password: 'invite-pass-1' }), 401, LINK_FAILED);
    });

    it('answers 423 for a locked account even with a valid link, which the refusal does not use up', async () => {
      const a = await newAccount(tenant);
      const token = await requestLink(a);
      await lock(a.id);
      expectError(await verify(token), 423, LOCKED);
      await unlock(a.id);
      await expectSignedIn(await verify(token), a);
    });
  });

  describe('set-password links: /auth/magic-link/set-password/{token}', () => {
    let tenant: Tenant;
    beforeAll(async () => void (tenant = await newTenant('Codes Password Dairy')));
    const setPassword = (token: string, password: string) => post(`/auth/magic-link/set-password/${token}`, { password });

    /** `password` signs `a` in and `previous` does not. */
    async function expectPassword(a: Account, password: string, previous: string): Promise<void> {
      expectError(await login(a.email, previous), 401, 'Invalid e-mail or password');
      await expectSignedIn(await login(a.email, password), a);
    }

    it('a reset voids every other outstanding code and link of the user; a password change does too', async () => {
      const a = await newAccount(tenant);
      const magic = await requestLink(a);
      const otp = await requestOtp(a);
      const reset = await requestLink(a, 'reset_password');
      expect(await setPassword(reset, 'a-brand-new-password')).toMatchObject({ statusCode: 200 });
      expectError(await post('/auth/magic-link/verify', { token: magic }), 401, LINK_FAILED);
      expectError(await post('/auth/otp/verify', { phone: a.phone, otp }), 401, OTP_FAILED);

      const b = await newAccount(tenant);
      const magicB = await requestLink(b);
      const changed = await post('/auth/change-password', { current_password: 'password123', new_password: 'another-password-1' }, b.token);
      expect(changed.statusCode, changed.body).toBe(200);
      expectError(await post('/auth/magic-link/verify', { token: magicB }), 401, LINK_FAILED);
    });

    it('sets the password from the 7-day invite e-mailed on creation, ends the session, returns no token', async () => {
      const a = await newAccount(tenant);
      expect(a.invite).toEqual({ channel: 'email', to: a.email, subject: 'You are invited to Codes Password Dairy', text: linkText('set-password'), created_at: expect.any(String) });
      const token = tokenIn(a.invite);
      await expectStored(a.id, 'invite', token, 7 * 24 * 60 * MINUTE);
      const res = await setPassword(token, 'my-own-password');
      expectAnswer(res, 200, PASSWORD_SET);
      expect(await live(a.token)).toBe(401);
      await expectPassword(a, 'my-own-password', 'password123');
      expectError(await setPassword(token, 'another-password'), 401, LINK_FAILED);
      await expectPassword(a, 'my-own-password', 'another-password');
    });

    it('sets a new password from a 1-hour reset link', async () => {
      const a = await newAccount(tenant);
      const { result, sent } = await capture(() => post('/auth/magic-link/request', { email: a.email, purpose: 'reset_password' }));
      expect(result.json()).toEqual(LINK_SENT);
      expect(sent).toEqual([{ channel: 'email', to: a.email, subject: 'Reset your Codes Password Dairy password', text: linkText('set-password'), created_at: expect.any(String) }]);
      const token = tokenIn(sent[0]);
      await expectStored(a.id, 'password_reset', token, 60 * MINUTE);
      const res = await setPassword(token, 'fresh-password-9');
      expectAnswer(res, 200, PASSWORD_SET);
      expect(await live(a.token)).toBe(401);
      await expectPassword(a, 'fresh-password-9', 'password123');
      expectError(await setPassword(token, 'fresh-password-9'), 401, LINK_FAILED);
    });

    it('refuses a magic sign-in link (which still signs in afterwards) and made-up tokens', async () => {
      const a = await newAccount(tenant);
      const magic = await requestLink(a);
      expectError(await setPassword(magic, 'hijacked-password'), 401, LINK_FAILED);
      expectError(await setPassword('garbage-token', 'hijacked-password'), 401, LINK_FAILED);
      expect(await live(a.token)).toBe(200);
      await expectSignedIn(await post('/auth/magic-link/verify', { token: magic }), a);
      await expectPassword(a, 'password123', 'hijacked-password');
    });

    it('refuses a short password with 400 without using up the link', async () => {
      const a = await newAccount(tenant);
      const token = tokenIn(a.invite);
      expectError(await setPassword(token, 'short'), 400, 'password must be at least 8 characters');
      expect(await live(a.token)).toBe(200);
      expect((await codeRows(a.id, 'invite'))[0].used_at).toBeNull();
      expect((await setPassword(token, 'long-enough-now')).json()).toEqual(PASSWORD_SET);
      await expectPassword(a, 'long-enough-now', 'short');
    });

    it('refuses an expired link and keeps the old password', async () => {
      const a = await newAccount(tenant);
      const token = await requestLink(a, 'reset_password');
      await expire(a.id, 'password_reset');
      expectError(await setPassword(token, 'too-late-password'), 401, LINK_FAILED);
      expect(await live(a.token)).toBe(200);
      await expectPassword(a, 'password123', 'too-late-password');
    });
  });

  describe('desktop hand-off: /auth/desktop/code and /auth/desktop/exchange', () => {
    let tenant: Tenant;
    beforeAll(async () => void (tenant = await newTenant('Codes Desktop Dairy')));
    const exchange = (code: string, state: string) => post('/auth/desktop/exchange', { code, state });

    /** Mints a code in a's browser session for a new random state. */
    async function mint(a: Account): Promise<{ code: string; state: string }> {
      const state = `state-${Math.random().toString(36).slice(2)}-${Date.now()}`;
      const res = await post('/auth/desktop/code', { state_hash: stateHashOf(state) }, a.token);
      expect(res.statusCode, res.body).toBe(201);
      return { code: res.json().data.code, state };
    }

    it('needs a session (401) and a state_hash of 43 base64url characters (400)', async () => {
      expectError(await post('/auth/desktop/code', { state_hash: stateHashOf('s') }), 401, 'Authentication required: send a session token or an API key');
      const a = await newAccount(tenant);
      const digest = (encoding: 'hex' | 'base64') => createHash('sha256').update('s').digest(encoding);
      for (const bad of [digest('hex'), digest('base64'), stateHashOf('s').slice(0, 42), `${stateHashOf('s')}A`, `${stateHashOf('s').slice(0, 41)}+/`, 'my-desktop-state']) {
        expectError(await post('/auth/desktop/code', { state_hash: bad }, a.token), 400, BAD_STATE_HASH);
      }
      expectError(await post('/auth/desktop/code', { state_hash: '' }, a.token), 400, 'state_hash must not be empty');
      expect(await codeRows(a.id, 'desktop')).toEqual([]);
    });

    it('mints a 2-minute code bound to the state hash and exchanges it once for a session', async () => {
      const a = await newAccount(tenant);
      const state = 'desktop-state-0123456789';
      const res = await post('/auth/desktop/code', { state_hash: stateHashOf(state) }, a.token);
      expectAnswer(res, 201, { response_code: 201, message: 'Desktop sign-in code created', data: { code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_at: expect.any(String) } });
      const { code, expires_at } = res.json().data;
      expect(Date.parse(expires_at)).toBe(new Date((await codeRows(a.id, 'desktop'))[0].expires_at).getTime());
      expect(await expectStored(a.id, 'desktop', code, 2 * MINUTE)).toMatchObject({ state_hash: stateHashOf(state), used_at: null });
      await expectSignedIn(await exchange(code, state), a); // the browser's session ends too
      expectError(await exchange(code, state), 401, DESKTOP_FAILED);
      expect(await live(a.token)).toBe(200);
    });

    it('burns the code on a wrong state', async () => {
      const a = await newAccount(tenant);
      const { code, state } = await mint(a);
      expectError(await exchange(code, `${state}-not`), 401, DESKTOP_FAILED);
      expectError(await exchange(code, state), 401, DESKTOP_FAILED);
      expect(await live(a.token)).toBe(200);
    });

    it('refuses expired, unknown and other kinds of codes', async () => {
      const a = await newAccount(tenant);
      const { code, state } = await mint(a);
      await expire(a.id, 'desktop');
      expectError(await exchange(code, state), 401, DESKTOP_FAILED);
      const magic = await requestLink(a);
      for (const other of ['made-up-desktop-code', magic, tokenIn(a.invite)]) expectError(await exchange(other, state), 401, DESKTOP_FAILED);
      expect(await live(a.token)).toBe(200);
      await expectSignedIn(await post('/auth/magic-link/verify', { token: magic }), a);
    });

    it('answers 423 for a locked account with the right state, without using the code up', async () => {
      const a = await newAccount(tenant);
      const { code, state } = await mint(a);
      await lock(a.id);
      expectError(await exchange(code, state), 423, LOCKED);
      await unlock(a.id);
      await expectSignedIn(await exchange(code, state), a);
    });
  });
});

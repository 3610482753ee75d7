import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, unique, type Workspace } from '../helpers/fixtures';
import { SoftAuthenticator, type SoftGetOverrides } from '../helpers/soft-authenticator';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The sign-in lockout across methods: five failed sign-ins of any kind (password, OTP, passkey,
 * magic link, desktop hand-off, REST or GraphQL) lock the account for 30 minutes, and while the
 * lock lasts every method answers 423, even with the right credential. A success resets the count,
 * a lock that ran out starts a new count, and nothing is counted against other accounts.
 * Every scenario uses a fresh user and stays well under the 20-per-15-minutes budget per account.
 */

const LOCKED = /^Account locked after 5 failed sign-ins; try again after (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)$/;
const WRONG_PASSWORD = { response_code: 401, message: 'Invalid e-mail or password' };

type User = Awaited<ReturnType<typeof createUser>>;

describe('sign-in lockout', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Lockout Dairy');
  });
  afterAll(() => t.close());

  const newUser = () => createUser(t, ws, UserType.EMPLOYEE);
  const emailOf = (u: User) => u.body.official_email as string;
  const phoneOf = (u: User) => u.body.primary_contact_number as string;

  const post = (url: string, payload?: Record<string, unknown>, token?: string) =>
    t.request({ method: 'POST', url: `/api/v1${url}`, payload, token });
  const login = (email: string, password = 'wrong') => post('/auth/login', { email, password, challenge_token: 'x' });

  /** Fails `n` password sign-ins, each answered 401. */
  async function failPasswords(email: string, n: number): Promise<void> {
    for (let i = 1; i <= n; i += 1) {
      const res = await login(email);
      expect(res.statusCode, `attempt ${i}: ${res.body}`).toBe(401);
      expect(res.json()).toEqual(WRONG_PASSWORD);
    }
  }

  /** Asserts a 423 in the interface's shape; returns the end of the lock the message names. */
  function expectLocked(res: LightMyRequestResponse): string {
    expect(res.statusCode, res.body).toBe(423);
    const body = res.json();
    expect(body).toEqual({ response_code: 423, message: expect.stringMatching(LOCKED) });
    const until = LOCKED.exec(body.message)![1];
    const ahead = Date.parse(until) - Date.now();
    expect(ahead).toBeGreaterThan(28 * 60_000);
    expect(ahead).toBeLessThanOrEqual(30 * 60_000 + 60_000);
    return until;
  }

  async function account(id: number): Promise<{ failed: number; lockedUntil: string | null }> {
    const [row] = await t.orm.em.fork().getConnection().execute<{ failed_sign_ins: number; locked_until: Date | null }[]>(
      'select failed_sign_ins, locked_until from app_user where id = ?',
      [id],
    );
    return { failed: row.failed_sign_ins, lockedUntil: row.locked_until ? new Date(row.locked_until).toISOString() : null };
  }

  /** Lets the user's lock run out, as if 30 minutes had passed. */
  async function expireLock(id: number): Promise<void> {
    await t.orm.em.fork().getConnection().execute(`update app_user set locked_until = now() - interval '1 minute' where id = ?`, [id]);
  }

  async function requestOtp(phone: string): Promise<string> {
    const res = await post('/auth/otp/request', { phone });
    expect(res.statusCode, res.body).toBe(200);
    const sms = (await t.outbox()).filter((m) => m.channel === 'sms' && m.to === phone);
    expect(sms.length).toBeGreaterThan(0);
    return /(\d{6})/.exec(sms.at(-1)!.text)![1];
  }
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  async function requestMagicLink(email: string): Promise<string> {
    const res = await post('/auth/magic-link/request', { email });
    expect(res.statusCode, res.body).toBe(200);
    const mails = (await t.outbox()).filter((m) => m.channel === 'email' && m.to === email && m.text.includes('/auth/magic-link?'));
    expect(mails).toHaveLength(1);
    return /token=([A-Za-z0-9_-]+)/.exec(mails[0].text)![1];
  }

  async function mintDesktopCode(token: string): Promise<{ code: string; state: string }> {
    const state = randomBytes(32).toString('base64url');
    const res = await post('/auth/desktop/code', { state_hash: createHash('sha256').update(state).digest('base64url') }, token);
    expect(res.statusCode, res.body).toBe(201);
    return { code: res.json().data.code, state };
  }

  async function addPasskey(user: User): Promise<SoftAuthenticator> {
    const auth = new SoftAuthenticator();
    const options = await post('/auth/passkey/registration/options', undefined, user.token);
    expect(options.statusCode, options.body).toBe(200);
    const verify = await post('/auth/passkey/registration/verify', { response: auth.createCredential(options.json().data) }, user.token);
    expect(verify.statusCode, verify.body).toBe(201);
    return auth;
  }

  async function passkeyLogin(auth: SoftAuthenticator, overrides: SoftGetOverrides = {}): Promise<LightMyRequestResponse> {
    const options = await post('/auth/passkey/login/options');
    expect(options.statusCode, options.body).toBe(200);
    return post('/auth/passkey/login/verify', { response: auth.getAssertion(options.json().data, overrides) });
  }

  const signedIn = (res: LightMyRequestResponse, user: User) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ response_code: 200, token: expect.any(String), user: { id: user.id } });
  };

  describe('five failures of mixed methods lock every method', () => {
    it('4 bad passwords + 1 bad OTP → 423; then passkey, password, OTP, magic link and desktop all answer 423', async () => {
      const user = await newUser();
      const email = emailOf(user);
      const phone = phoneOf(user);
      // Credentials issued before the lock, each valid.
      const auth = await addPasskey(user);
      const link = await requestMagicLink(email);
      const desktop = await mintDesktopCode(user.token);
      const otp = await requestOtp(phone);

      await failPasswords(email, 4);
      expect(await account(user.id)).toEqual({ failed: 4, lockedUntil: null });
      // The locking failure itself answers 423.
      const until = expectLocked(await post('/auth/otp/verify', { phone, otp: otherCode(otp) }));
      expect(await account(user.id)).toEqual({ failed: 5, lockedUntil: until });

      const attempts: Array<[string, () => Promise<LightMyRequestResponse>]> = [
        ['passkey', () => passkeyLogin(auth)],
        ['right password', () => login(email, 'password123')],
        ['wrong password', () => login(email, 'still-wrong')],
        ['right OTP', () => post('/auth/otp/verify', { phone, otp })],
        ['valid magic link', () => post('/auth/magic-link/verify', { token: link })],
        ['desktop exchange with the right state', () => post('/auth/desktop/exchange', desktop)],
      ];
      for (const [label, attempt] of attempts) {
        const res = await attempt();
        expect(res.statusCode, `${label}: ${res.body}`).toBe(423);
        // Same lock end for every method: attempts while locked neither count nor extend the lock.
        expect(expectLocked(res), label).toBe(until);
      }
      expect(await account(user.id)).toEqual({ failed: 5, lockedUntil: until });

      // The refused credentials were not used up: once the lock ends they still work.
      await expireLock(user.id);
      signedIn(await post('/auth/magic-link/verify', { token: link }), user);
      expect(await account(user.id)).toEqual({ failed: 0, lockedUntil: null });
      signedIn(await post('/auth/otp/verify', { phone, otp }), user);
      signedIn(await post('/auth/desktop/exchange', desktop), user);
      signedIn(await passkeyLogin(auth), user);
    });

    it('any mix counts: used link, expired link, wrong OTP, wrong desktop state, bad passkey → 423 on the fifth', async () => {
      const user = await newUser();
      const email = emailOf(user);
      const auth = await addPasskey(user);
      const used = await requestMagicLink(email);
      const first = await post('/auth/magic-link/verify', { token: used });
      signedIn(first, user);
      const token = first.json().token as string; // the one session now
      const desktop = await mintDesktopCode(token);
      const otp = await requestOtp(phoneOf(user));

      expect((await post('/auth/magic-link/verify', { token: used })).statusCode).toBe(401); // 1: used link
      expect((await post('/auth/magic-link/request', { email })).statusCode).toBe(200);
      const links = (await t.outbox()).filter((m) => m.to === email && m.text.includes('/auth/magic-link?'));
      expect(links).toHaveLength(2);
      const expired = links.map((m) => /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]).find((tk) => tk !== used)!;
      await t.orm.em.fork().getConnection().execute(
        `update sign_in_code set expires_at = now() - interval '1 second' where user_id = ? and purpose = 'magic_link'`,
        [user.id],
      );
      expect((await post('/auth/magic-link/verify', { token: expired })).statusCode).toBe(401); // 2: expired link
      expect((await post('/auth/otp/verify', { phone: phoneOf(user), otp: otherCode(otp) })).statusCode).toBe(401); // 3
      expect((await post('/auth/desktop/exchange', { code: desktop.code, state: 'not-the-state' })).statusCode).toBe(401); // 4
      expect(await account(user.id)).toEqual({ failed: 4, lockedUntil: null });
      expectLocked(await passkeyLogin(auth, { userVerification: false })); // 5
    });

    it('five concurrent failures are all counted: four 401, one 423', async () => {
      const user = await newUser();
      const answers = await Promise.all(Array.from({ length: 5 }, () => login(emailOf(user))));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([401, 401, 401, 401, 423]);
      expect(await account(user.id)).toMatchObject({ failed: 5, lockedUntil: expect.any(String) });
      expectLocked(await login(emailOf(user), 'password123'));
    });

    it('parallel guesses cannot slip a right password past the fifth failure, nor wipe the lock', async () => {
      // Regression: attempts checked the lock on a stale row, so the right password could win
      // after the fifth failure and its success cleared the lock. Attempts on one account now run
      // one after another: either the right password comes first (200, then four 401 and the
      // locking 423), or the lock comes first and refuses everything after it (six 423).
      const user = await newUser();
      await failPasswords(emailOf(user), 4);
      const guesses = [...Array.from({ length: 5 }, () => 'wrong'), 'password123'];
      const answers = await Promise.all(guesses.map((password) => login(emailOf(user), password)));
      const statuses = answers.map((r) => r.statusCode).sort();
      expect([JSON.stringify([200, 401, 401, 401, 401, 423]), JSON.stringify([423, 423, 423, 423, 423, 423])]).toContain(JSON.stringify(statuses));
      expect(await account(user.id)).toMatchObject({ failed: 5, lockedUntil: expect.any(String) });
    });

    it('the upper-case spelling of the e-mail counts against the same account', async () => {
      const user = await newUser();
      const email = emailOf(user);
      await failPasswords(email, 4);
      expectLocked(await login(email.toUpperCase()));
      expect((await account(user.id)).failed).toBe(5);
    });
  });

  describe('the count', () => {
    it('a successful sign-in resets it: 4 failures, a success, 4 more failures → still 401; the 5th after the success locks', async () => {
      const user = await newUser();
      const email = emailOf(user);
      await failPasswords(email, 4);
      signedIn(await login(email, 'password123'), user);
      expect(await account(user.id)).toEqual({ failed: 0, lockedUntil: null });
      await failPasswords(email, 4);
      expect(await account(user.id)).toEqual({ failed: 4, lockedUntil: null });
      expectLocked(await login(email));
    });

    it('a success by another method (OTP) resets the password failures too', async () => {
      const user = await newUser();
      const email = emailOf(user);
      const otp = await requestOtp(phoneOf(user));
      await failPasswords(email, 4);
      signedIn(await post('/auth/otp/verify', { phone: phoneOf(user), otp }), user);
      expect(await account(user.id)).toEqual({ failed: 0, lockedUntil: null });
      await failPasswords(email, 4);
      expect((await account(user.id)).failed).toBe(4);
    });
  });

  describe('a lock that has run out', () => {
    it('lets the right password in (200), and a new count starts: 4 failures → 401, the 5th → 423', async () => {
      const user = await newUser();
      const email = emailOf(user);
      await failPasswords(email, 4);
      expectLocked(await login(email));
      expectLocked(await login(email, 'password123'));

      await expireLock(user.id);
      signedIn(await login(email, 'password123'), user);
      expect(await account(user.id)).toEqual({ failed: 0, lockedUntil: null });
      await failPasswords(email, 4);
      expect((await account(user.id)).failed).toBe(4);
      expectLocked(await login(email));
    });

    it('a failure after the lock ran out counts as the first of a new count, not the sixth', async () => {
      const user = await newUser();
      const email = emailOf(user);
      await failPasswords(email, 4);
      expectLocked(await login(email));
      await expireLock(user.id);

      await failPasswords(email, 1);
      expect(await account(user.id)).toEqual({ failed: 1, lockedUntil: null });
      await failPasswords(email, 3);
      expectLocked(await login(email));
    });
  });

  describe('what is not counted', () => {
    it('unknown e-mails lock nothing: 6 attempts → all 401 with the wrong-password answer', async () => {
      const user = await newUser();
      const email = emailOf(user);
      for (let i = 0; i < 6; i += 1) {
        const res = await login(`nobody${unique()}-${email}`);
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json()).toEqual(WRONG_PASSWORD);
      }
      const again = await login(`nobody-${email}`);
      expect(again.statusCode).toBe(401);
      // The real account next to those addresses is untouched.
      expect(await account(user.id)).toEqual({ failed: 0, lockedUntil: null });
      signedIn(await login(email, 'password123'), user);
    });

    it('unknown phones, link tokens and passkeys answer 401 (never 423 or 500)', async () => {
      for (let i = 0; i < 6; i += 1) {
        const otp = await post('/auth/otp/verify', { phone: '+919999900001', otp: '123456' });
        expect(otp.statusCode, otp.body).toBe(401);
        const link = await post('/auth/magic-link/verify', { token: randomBytes(32).toString('base64url') });
        expect(link.statusCode, link.body).toBe(401);
      }
      const stranger = new SoftAuthenticator();
      stranger.createCredential({ challenge: 'AAAA', rp: { id: 'localhost', name: 'x' }, user: { id: 'dW5rbm93bg', name: 'u', displayName: 'u' } });
      const res = await passkeyLogin(stranger);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ response_code: 401, message: 'Passkey sign-in failed' });
    });

    it('failures of one user do not lock another', async () => {
      const victim = await newUser();
      const bystander = await newUser();
      await failPasswords(emailOf(victim), 4);
      expectLocked(await login(emailOf(victim)));
      expect(await account(bystander.id)).toEqual({ failed: 0, lockedUntil: null });
      signedIn(await login(emailOf(bystander), 'password123'), bystander);
      // An account of another workspace is not touched either.
      const other = await createUser(t, await createWorkspace(t), UserType.EMPLOYEE);
      signedIn(await login(emailOf(other), 'password123'), other);
      expectLocked(await login(emailOf(victim), 'password123'));
    });
  });

  describe('passkey failures', () => {
    it('count: 5 assertions without user verification → 401 ×4, then 423; a valid assertion then → 423', async () => {
      const user = await newUser();
      const auth = await addPasskey(user);
      for (let i = 1; i <= 4; i += 1) {
        const res = await passkeyLogin(auth, { userVerification: false });
        expect(res.statusCode, `attempt ${i}: ${res.body}`).toBe(401);
        expect(res.json()).toEqual({ response_code: 401, message: 'Passkey sign-in failed' });
      }
      expect((await account(user.id)).failed).toBe(4);
      const until = expectLocked(await passkeyLogin(auth, { userVerification: false }));
      expect(expectLocked(await passkeyLogin(auth))).toBe(until);
      expect(expectLocked(await login(emailOf(user), 'password123'))).toBe(until);
    });

    it('a replayed signature counter (not going up) counts as a failure', async () => {
      const user = await newUser();
      const auth = await addPasskey(user);
      signedIn(await passkeyLogin(auth), user); // the server now knows counter 1
      const credentialId = auth.credentials[0].id;
      for (let i = 1; i <= 4; i += 1) {
        const res = await passkeyLogin(auth, { counter: 1 });
        expect(res.statusCode, `attempt ${i}: ${res.body}`).toBe(401);
      }
      expect((await account(user.id)).failed).toBe(4);
      expectLocked(await passkeyLogin(auth, { credentialId, counter: 1 }));
    });
  });

  describe('GraphQL shares the counter', () => {
    const LOGIN = 'mutation($i: LoginInput!){ login(input:$i){ token } }';
    const gqlLogin = (email: string, password: string) => t.graphql(LOGIN, { i: { email, password, challengeToken: 'x' } });

    it('4 bad REST passwords + 1 bad GraphQL login → LOCKED; both doors then refuse the right password', async () => {
      const user = await newUser();
      const email = emailOf(user);
      await failPasswords(email, 4);
      const res = await gqlLogin(email, 'wrong');
      expect(res.data?.login ?? null).toBeNull();
      expect(res.errors).toHaveLength(1);
      expect(res.errors![0].extensions?.code).toBe('LOCKED');
      expect(res.errors![0].message).toMatch(LOCKED);
      expect(await account(user.id)).toMatchObject({ failed: 5, lockedUntil: expect.any(String) });

      const right = await gqlLogin(email, 'password123');
      expect(right.errors?.[0]?.extensions?.code).toBe('LOCKED');
      expectLocked(await login(email, 'password123'));
    });

    it('a bad GraphQL login counts for REST: 1 GraphQL + 3 REST failures, the 5th (REST) → 423', async () => {
      const user = await newUser();
      const email = emailOf(user);
      const first = await gqlLogin(email, 'wrong');
      expect(first.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      await failPasswords(email, 3);
      expectLocked(await login(email));
    });
  });
});

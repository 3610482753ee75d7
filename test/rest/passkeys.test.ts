import { randomBytes } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unlockAccount } from '../../src/domains/auth/lockout';
import { navigationFor } from '../../src/domains/auth/navigation';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { SoftAuthenticator, type SoftGetOverrides } from '../helpers/soft-authenticator';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/**
 * Passkeys over REST (/api/v1/auth/passkey*, /api/v1/auth/passkeys): registration, listing and
 * removal by the signed-in user, and password-less sign-in with a software authenticator,
 * including every way an assertion must be refused and the lockout that failures lead to.
 */

type Res = Awaited<ReturnType<TestApp['request']>>;
interface Person { id: number; token: string; email: string }

const LOGIN_FAILED = { response_code: 401, message: 'Passkey sign-in failed' };
const TODAY = () => new Date().toISOString().slice(0, 10);

/** The same registration response answering another challenge ("none" attestation signs nothing over it). */
function withChallenge(response: RegistrationResponseJSON, challenge: string): RegistrationResponseJSON {
  const client = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
  const clientDataJSON = Buffer.from(JSON.stringify({ ...client, challenge })).toString('base64url');
  return { ...response, response: { ...response.response, clientDataJSON } };
}

describe('passkeys over REST', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let wsName = 'Passkey Dairy';
  let members = 0;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Passkey Dairy');
    other = await createWorkspace(t, 'Other Dairy');
  });
  afterAll(() => t?.close());

  /** A fresh employee (fresh failure count); a new workspace every 20 users keeps under max_users. */
  async function person(): Promise<Person> {
    members += 1;
    if (members % 20 === 0) ws = await createWorkspace(t, (wsName = `Passkey Dairy ${members}`));
    const u = await createUser(t, ws, UserType.EMPLOYEE);
    return { id: u.id, token: u.token, email: String(u.body.official_email) };
  }

  const post = (url: string, token?: string, payload?: unknown) =>
    t.request({ method: 'POST', url: `/api/v1${url}`, token, ...(payload === undefined ? {} : { payload: payload as object }) });
  const me = (token: string) => t.request({ method: 'GET', url: '/api/v1/auth/me', token });
  const list = (token: string) => t.request({ method: 'GET', url: '/api/v1/auth/passkeys', token });
  const remove = (token: string, id: number | string) => t.request({ method: 'DELETE', url: `/api/v1/auth/passkeys/${id}`, token });

  const dataOf = (res: Res, status = 200) => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const creationOptions = async (token: string): Promise<PublicKeyCredentialCreationOptionsJSON> =>
    dataOf(await post('/auth/passkey/registration/options', token));
  const requestOptions = async (): Promise<PublicKeyCredentialRequestOptionsJSON> => dataOf(await post('/auth/passkey/login/options'));
  const verifyRegistration = (token: string | undefined, response: unknown, name?: unknown) =>
    post('/auth/passkey/registration/verify', token, name === undefined ? { response } : { response, name });
  const verifyLogin = (response: unknown) => post('/auth/passkey/login/verify', undefined, { response });

  /** Registers a passkey for `who` on `auth`; returns the stored passkey as presented. */
  async function register(who: Person, auth = new SoftAuthenticator(), name?: string) {
    const response = auth.createCredential(await creationOptions(who.token));
    const passkey = dataOf(await verifyRegistration(who.token, response, name), 201) as { id: number; credential_id: string; name: string };
    return { auth, response, passkey };
  }

  /** An assertion over fresh login options. */
  async function assertion(auth: SoftAuthenticator, overrides: SoftGetOverrides = {}): Promise<AuthenticationResponseJSON> {
    return auth.getAssertion(await requestOptions(), overrides);
  }

  const expectRefusedRegistration = (res: Res, message?: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, message ?? expect.stringMatching(/^response failed verification/)));
  };
  const expectLoginFailed = (res: Res) => {
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toEqual(LOGIN_FAILED);
  };
  const expectLocked = (res: Res) => {
    expect(res.statusCode, res.body).toBe(423);
    expect(res.json()).toEqual({ response_code: 423, message: expect.stringMatching(/^Account locked after 5 failed sign-ins/) });
  };
  const passkeysOf = async (who: Person): Promise<Array<Record<string, unknown>>> => dataOf(await list(who.token));

  describe('registration', () => {
    it('offers creation options for the workspace, requiring a resident key and user verification', async () => {
      const who = await person();
      const options = await creationOptions(who.token);
      expect(options).toMatchObject({
        rp: { id: 'localhost', name: wsName },
        user: { name: who.email, displayName: expect.stringMatching(/^User\d+ Employee$/) },
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        attestation: 'none',
        excludeCredentials: [],
      });
      expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(options.pubKeyCredParams).toContainEqual({ type: 'public-key', alg: -7 });
      // The user handle is an opaque HMAC of the user id, not the id or the e-mail.
      expect(Buffer.from(options.user.id, 'base64url').length).toBe(32);
      expect((await creationOptions(who.token)).challenge).not.toBe(options.challenge);
    });

    it('stores the passkey (201), lists it without key material and excludes it from the next options', async () => {
      const who = await person();
      const response = new SoftAuthenticator().createCredential(await creationOptions(who.token));
      const res = await verifyRegistration(who.token, response);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        response_code: 201,
        message: 'Passkey registered',
        data: { id: expect.any(Number), name: `Passkey added ${TODAY()}`, credential_id: response.id, backed_up: false, created_at: expect.any(String), last_used_at: null },
      });
      expect(await passkeysOf(who)).toEqual([body.data]);
      expect((await creationOptions(who.token)).excludeCredentials).toEqual([{ id: response.id, type: 'public-key', transports: ['internal'] }]);
    });

    it('keeps a given name (trimmed) and lists newest first', async () => {
      const who = await person();
      const first = await register(who, undefined, '  Work laptop  ');
      const second = await register(who, undefined, 'x'.repeat(100));
      expect(first.passkey.name).toBe('Work laptop');
      expect((await passkeysOf(who)).map((p) => [p.id, p.name])).toEqual([
        [second.passkey.id, 'x'.repeat(100)],
        [first.passkey.id, 'Work laptop'],
      ]);
    });

    it.each([
      ['a name longer than 100 characters', 'x'.repeat(101), 'name must be at most 100 characters'],
      ['a blank name', '   ', 'name is required'],
    ])('refuses %s (400) and stores nothing', async (_label, name, message) => {
      const who = await person();
      const response = new SoftAuthenticator().createCredential(await creationOptions(who.token));
      const res = await verifyRegistration(who.token, response, name);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, message));
      expect(await passkeysOf(who)).toEqual([]);
    });

    it('refuses a body without a response object (400)', async () => {
      const res = await verifyRegistration((await person()).token, {});
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, 'response.id is required'));
    });

    it.each([
      ['without user verification', (o: PublicKeyCredentialCreationOptionsJSON) => new SoftAuthenticator({ userVerification: false }).createCredential(o)],
      ['from another origin', (o: PublicKeyCredentialCreationOptionsJSON) => new SoftAuthenticator({ origin: 'https://evil.example' }).createCredential(o)],
      ['answering a forged challenge', (o: PublicKeyCredentialCreationOptionsJSON) => new SoftAuthenticator().createCredential(o, { challenge: randomBytes(52).toString('base64url') })],
      ['answering a login challenge', async (o: PublicKeyCredentialCreationOptionsJSON) => new SoftAuthenticator().createCredential({ ...o, challenge: (await requestOptions()).challenge })],
    ])('refuses a response %s (400) and stores nothing', async (_label, make) => {
      const who = await person();
      const res = await verifyRegistration(who.token, await make(await creationOptions(who.token)));
      expectRefusedRegistration(res);
      expect(await passkeysOf(who)).toEqual([]);
    });

    it("refuses a response to options fetched by another user (B answering A's challenge)", async () => {
      const [a, b] = [await person(), await person()];
      const response = new SoftAuthenticator().createCredential(await creationOptions(a.token));
      expectRefusedRegistration(await verifyRegistration(b.token, response));
      expect(await passkeysOf(b)).toEqual([]);
      // A can still use it: the failed attempt did not spend the challenge.
      expect((await verifyRegistration(a.token, response)).statusCode).toBe(201);
    });

    it('refuses a challenge used a second time', async () => {
      const who = await person();
      const options = await creationOptions(who.token);
      expect((await verifyRegistration(who.token, new SoftAuthenticator().createCredential(options))).statusCode).toBe(201);
      const res = await verifyRegistration(who.token, new SoftAuthenticator().createCredential(options));
      expectRefusedRegistration(res, 'response answers a challenge that was already used; ask for new options');
      expect(await passkeysOf(who)).toHaveLength(1);
    });

    it('refuses a credential that is already registered (409), by the same user or in another workspace', async () => {
      const who = await person();
      const { response } = await register(who);
      const again = await verifyRegistration(who.token, withChallenge(response, (await creationOptions(who.token)).challenge));
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toEqual({ response_code: 409, message: 'This passkey is already registered' });
      const outsider = await createUser(t, other, UserType.EMPLOYEE);
      const stolen = await verifyRegistration(outsider.token, withChallenge(response, (await creationOptions(outsider.token)).challenge));
      expect(stolen.statusCode, stolen.body).toBe(409);
      expect(await passkeysOf(who)).toHaveLength(1);
      expect((await list(outsider.token)).json().data).toEqual([]);
    });

    it('requires a session (401) for options, verify, list and remove', async () => {
      const who = await person();
      const response = new SoftAuthenticator().createCredential(await creationOptions(who.token));
      for (const res of [
        await post('/auth/passkey/registration/options'),
        await verifyRegistration(undefined, response),
        await t.request({ method: 'GET', url: '/api/v1/auth/passkeys' }),
        await t.request({ method: 'DELETE', url: '/api/v1/auth/passkeys/1' }),
      ]) {
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
      }
      expect(await passkeysOf(who)).toEqual([]);
    });
  });

  describe('listing and removal', () => {
    it("lists only the caller's own passkeys", async () => {
      const [a, b] = [await person(), await person()];
      const mine = await register(a);
      await register(b);
      expect((await passkeysOf(a)).map((p) => p.id)).toEqual([mine.passkey.id]);
      const keys = Object.keys((await passkeysOf(a))[0]).sort();
      expect(keys).toEqual(['backed_up', 'created_at', 'credential_id', 'id', 'last_used_at', 'name']);
    });

    it('removes a passkey (200); it can no longer sign in, and a second removal is 404', async () => {
      const who = await person();
      const { auth, passkey } = await register(who);
      const res = await remove(who.token, passkey.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ response_code: 200, message: 'Passkey removed', data: { id: passkey.id } });
      expect(await passkeysOf(who)).toEqual([]);
      expectLoginFailed(await verifyLogin(await assertion(auth)));
      const again = await remove(who.token, passkey.id);
      expect(again.statusCode, again.body).toBe(404);
      expect(again.json()).toEqual({ response_code: 404, message: `Passkey ${passkey.id} not found` });
      const bad = await remove(who.token, 'abc');
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^id /)));
    });

    it("answers 404 for someone else's passkey, in the same or another workspace, and keeps it", async () => {
      const owner = await person();
      const { auth, passkey } = await register(owner);
      const colleague = await person();
      const outsider = await createUser(t, other, UserType.EMPLOYEE);
      for (const token of [colleague.token, ws.token, outsider.token, other.token]) {
        const res = await remove(token, passkey.id);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({ response_code: 404, message: `Passkey ${passkey.id} not found` });
      }
      expect((await passkeysOf(owner)).map((p) => p.id)).toEqual([passkey.id]);
      expect((await verifyLogin(await assertion(auth))).statusCode).toBe(200);
    });
  });

  describe('sign-in', () => {
    it('offers request options for a discoverable passkey, a new challenge each time', async () => {
      const options = await requestOptions();
      expect(options).toEqual({
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
        rpId: 'localhost',
        userVerification: 'required',
        timeout: 300_000,
        ...(options.allowCredentials === undefined ? {} : { allowCredentials: [] }),
      });
      expect((await requestOptions()).challenge).not.toBe(options.challenge);
    });

    it('signs the owner in: one active token, the sign-in answer, last_used_at set', async () => {
      const who = await person();
      const { auth, passkey } = await register(who);
      const res = await verifyLogin(await assertion(auth));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        response_code: 200,
        message: 'Signed in',
        token: expect.any(String),
        user: {
          id: who.id,
          first_name: expect.stringMatching(/^User\d+$/),
          last_name: 'Employee',
          official_email: who.email,
          role_name: 'Employee',
          user_type: UserType.EMPLOYEE,
          organization_id: ws.organizationId,
          organization_name: wsName,
        },
        workspace: { workspace_id: expect.any(String), slug: ws.slug, display_name: wsName, plan: 'free', status: expect.any(Number) },
        modules: navigationFor(UserType.EMPLOYEE),
      });
      const now = await me(body.token);
      expect(now.statusCode, now.body).toBe(200);
      expect(now.json().data.user.id).toBe(who.id);
      expect((await me(who.token)).statusCode).toBe(401);
      const [stored] = await passkeysOf({ ...who, token: body.token });
      expect(stored.id).toBe(passkey.id);
      expect(Date.parse(String(stored.last_used_at))).toBeGreaterThan(Date.now() - 60_000);
    });

    it('signs in an admin of another workspace into that workspace', async () => {
      const admin: Person = { id: other.adminId, token: other.token, email: '' };
      const { auth } = await register(admin);
      const res = await verifyLogin(await assertion(auth));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user).toMatchObject({ id: other.adminId, role_name: 'Admin', organization_id: other.organizationId, organization_name: 'Other Dairy' });
      expect(res.json().workspace.slug).toBe(other.slug);
      other.token = res.json().token;
    });

    it('answers 401 for a credential it does not know', async () => {
      const stranger = new SoftAuthenticator();
      stranger.createCredential({ challenge: 'AAAA', rp: { id: 'localhost', name: 'x' }, user: { id: 'AAAA', name: 'x', displayName: 'x' } });
      expectLoginFailed(await verifyLogin(await assertion(stranger)));
      expectLoginFailed(await verifyLogin({ id: 'no-such-credential' }));
    });

    it('answers 401 for a credential id that is not base64url (other text, too long), 400 for one with a NUL, never 500', async () => {
      // Found by the API fuzz: a NUL in the id reached PostgreSQL, which refuses it in text (500).
      for (const id of ['not base64url!', 'é', 'A'.repeat(1365)]) expectLoginFailed(await verifyLogin({ id }));
      for (const id of ['\u0000', 'a\u0000b']) {
        const res = await verifyLogin({ id });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toBe('response.id must not contain NUL characters');
      }
    });

    it('refuses a replayed assertion: the challenge is single use', async () => {
      const who = await person();
      const { auth } = await register(who);
      const signed = await assertion(auth);
      expect((await verifyLogin(signed)).statusCode).toBe(200);
      expectLoginFailed(await verifyLogin(signed));
    });

    it('refuses a replay from an authenticator without a counter (always 0), yet accepts its fresh assertions', async () => {
      const who = await person();
      const { auth } = await register(who);
      // Counter 0 on both sides passes the counter check: only the spent challenge stops the replay.
      const signed = await assertion(auth, { counter: 0 });
      expect((await verifyLogin(signed)).statusCode).toBe(200);
      expectLoginFailed(await verifyLogin(signed));
      expect((await verifyLogin(await assertion(auth, { counter: 0 }))).statusCode).toBe(200);
    });

    it('refuses a counter that goes down or stays the same', async () => {
      const who = await person();
      const { auth } = await register(who);
      expect((await verifyLogin(await assertion(auth, { counter: 5 }))).statusCode).toBe(200);
      expectLoginFailed(await verifyLogin(await assertion(auth, { counter: 3 })));
      expectLoginFailed(await verifyLogin(await assertion(auth, { counter: 5 })));
      expect((await verifyLogin(await assertion(auth, { counter: 6 }))).statusCode).toBe(200);
    });

    it.each<[string, (o: PublicKeyCredentialRequestOptionsJSON, who: Person) => Promise<SoftGetOverrides>]>([
      ['without user verification', async () => ({ userVerification: false })],
      ['from another origin', async () => ({ origin: 'https://evil.example' })],
      ['for another RP ID', async () => ({ rpId: 'evil.example' })],
      ['answering a forged challenge', async () => ({ challenge: randomBytes(52).toString('base64url') })],
      ['answering a registration challenge', async (_o, who) => ({ challenge: (await creationOptions(who.token)).challenge })],
    ])('refuses an assertion %s (401) and signs nobody in', async (_label, overrides) => {
      const who = await person();
      const { auth } = await register(who);
      const options = await requestOptions();
      expectLoginFailed(await verifyLogin(auth.getAssertion(options, await overrides(options, who))));
      expect((await me(who.token)).statusCode).toBe(200);
    });

    it("refuses an assertion carrying another user's handle", async () => {
      const [a, b] = [await person(), await person()];
      const { auth } = await register(a);
      const handleOfB = (await creationOptions(b.token)).user.id;
      const signed = await assertion(auth);
      expectLoginFailed(await verifyLogin({ ...signed, response: { ...signed.response, userHandle: handleOfB } }));
      // The handle is all that was wrong: the same assertion with its own handle passes.
      expect((await verifyLogin(signed)).statusCode).toBe(200);
    });

    it('refuses a challenge after its five minutes, not before', async () => {
      const who = await person();
      const { auth } = await register(who);
      const [early, late] = [await requestOptions(), await requestOptions()];
      const start = Date.now();
      const at = (minutes: number) => vi.useFakeTimers({ toFake: ['Date'], now: start + minutes * 60_000 });
      try {
        at(4);
        expect((await verifyLogin(auth.getAssertion(early))).statusCode).toBe(200);
        at(6);
        expectLoginFailed(await verifyLogin(auth.getAssertion(late)));
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('racing requests', () => {
    it('the same assertion sent twice at once signs in once', async () => {
      const who = await person();
      const { auth } = await register(who);
      const signed = await assertion(auth);
      const answers = await Promise.all([verifyLogin(signed), verifyLogin(signed)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    });

    // A cloned key used at the same moment as the original: both assertions carry the same counter.
    it('two assertions with the same counter at once: only one is accepted', async () => {
      const who = await person();
      const { auth } = await register(who);
      expect((await verifyLogin(await assertion(auth, { counter: 5 }))).statusCode).toBe(200);
      const [a, b] = [await assertion(auth, { counter: 6 }), await assertion(auth, { counter: 6 })];
      const answers = await Promise.all([verifyLogin(a), verifyLogin(b)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    });
  });

  describe('lockout', () => {
    it('the fifth failure of any kind answers 423, and then even a valid assertion is refused', async () => {
      const who = await person();
      const { auth } = await register(who);
      const used = await assertion(auth);
      expect((await verifyLogin(used)).statusCode).toBe(200);
      expectLoginFailed(await verifyLogin(used));
      expectLoginFailed(await verifyLogin(await assertion(auth, { userVerification: false })));
      expectLoginFailed(await verifyLogin(await assertion(auth, { origin: 'https://evil.example' })));
      expectLoginFailed(await verifyLogin(await assertion(auth, { counter: 1 })));
      expectLocked(await verifyLogin(await assertion(auth, { challenge: randomBytes(52).toString('base64url') })));
      const valid = await assertion(auth, { counter: 100 });
      expectLocked(await verifyLogin(valid));
      // The refused attempt used nothing up: once the operator unlocks the account, the same assertion works.
      expect(await unlockAccount(t.orm.em.fork(), who.email)).toMatchObject({ wasLocked: true, failedSignIns: 5 });
      expect((await verifyLogin(valid)).statusCode).toBe(200);
    });

    it('a success clears the count; unknown credentials and other users do not add to it', async () => {
      const [who, bystander] = [await person(), await person()];
      const { auth } = await register(who);
      const theirs = await register(bystander);
      const fail = async () => expectLoginFailed(await verifyLogin(await assertion(auth, { userVerification: false })));
      for (let i = 0; i < 4; i++) await fail();
      expect((await verifyLogin(await assertion(auth))).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) await fail();
      for (let i = 0; i < 3; i++) expectLoginFailed(await verifyLogin({ ...(await assertion(auth)), id: randomBytes(20).toString('base64url') }));
      for (let i = 0; i < 2; i++) expectLoginFailed(await verifyLogin(await assertion(theirs.auth, { userVerification: false })));
      expect((await verifyLogin(await assertion(auth))).statusCode).toBe(200);
    });

    it("one user's lock does not lock another", async () => {
      const [locked, free] = [await person(), await person()];
      const { auth } = await register(locked);
      const theirs = await register(free);
      for (let i = 0; i < 4; i++) expectLoginFailed(await verifyLogin(await assertion(auth, { userVerification: false })));
      expectLocked(await verifyLogin(await assertion(auth, { userVerification: false })));
      expect((await verifyLogin(await assertion(theirs.auth))).statusCode).toBe(200);
    });
  });
});

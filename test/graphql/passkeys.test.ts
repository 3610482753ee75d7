import { randomBytes } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigationFor } from '../../src/domains/auth/navigation';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { SoftAuthenticator, type SoftGetOverrides } from '../helpers/soft-authenticator';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Passkeys over GraphQL: the same service as REST behind passkeyRegistrationOptions,
 * registerPasskey, passkeys, removePasskey, passkeyLoginOptions and loginWithPasskey. A full
 * register → sign-in cycle with a software authenticator, then one refusal of each kind
 * (BAD_USER_INPUT, UNAUTHENTICATED, NOT_FOUND, CONFLICT, LOCKED).
 */

const PASSKEYS = '{ passkeys { id name credentialId backedUp lastUsedAt createdAt } }';
const REGISTRATION_OPTIONS = 'mutation { passkeyRegistrationOptions }';
const REGISTER = 'mutation($response: JSONObject!, $name: String) { registerPasskey(response: $response, name: $name) { id name credentialId } }';
const REMOVE = 'mutation($id: Int!) { removePasskey(id: $id) }';
const LOGIN_OPTIONS = 'mutation { passkeyLoginOptions }';
const LOGIN = 'mutation($response: JSONObject!) { loginWithPasskey(response: $response) { token user { id } workspace { slug } modules { key } } }';
const ME = '{ me { id } }';

interface Person { id: number; token: string; email: string }

describe('passkeys over GraphQL', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  const gql = (query: string, variables?: Record<string, unknown>, token?: string) => t.graphql(query, variables, token) as Promise<GraphqlAnswer>;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Graph Dairy');
    other = await createWorkspace(t, 'Other Graph Dairy');
  });
  afterAll(() => t?.close());

  async function person(workspace = ws): Promise<Person> {
    const u = await createUser(t, workspace, UserType.EMPLOYEE);
    return { id: u.id, token: u.token, email: String(u.body.official_email) };
  }
  const creationOptions = async (token: string): Promise<PublicKeyCredentialCreationOptionsJSON> =>
    expectGraphqlData(await gql(REGISTRATION_OPTIONS, {}, token)).passkeyRegistrationOptions;
  const requestOptions = async (): Promise<PublicKeyCredentialRequestOptionsJSON> =>
    expectGraphqlData(await gql(LOGIN_OPTIONS)).passkeyLoginOptions;
  const passkeysOf = async (token: string) => expectGraphqlData(await gql(PASSKEYS, {}, token)).passkeys as Array<Record<string, unknown>>;
  const login = (response: unknown) => gql(LOGIN, { response });

  async function register(who: Person, name?: string) {
    const auth = new SoftAuthenticator();
    const response = auth.createCredential(await creationOptions(who.token));
    const passkey = expectGraphqlData(await gql(REGISTER, { response, name }, who.token)).registerPasskey;
    return { auth, response, passkey: passkey as { id: number; name: string; credentialId: string } };
  }
  const assertion = async (auth: SoftAuthenticator, overrides: SoftGetOverrides = {}) => auth.getAssertion(await requestOptions(), overrides);
  const expectLoginFailed = (res: GraphqlAnswer) => expectGraphqlError(res, 'UNAUTHENTICATED', 'Passkey sign-in failed');

  describe('register, list and sign in', () => {
    it('runs the whole cycle: options, registration, listing, sign-in, last use', async () => {
      const who = await person();
      const options = await creationOptions(who.token);
      expect(options).toMatchObject({
        rp: { id: 'localhost', name: 'Graph Dairy' },
        user: { name: who.email },
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        excludeCredentials: [],
      });
      const auth = new SoftAuthenticator();
      const response = auth.createCredential(options);
      const { registerPasskey } = expectGraphqlData(await gql(REGISTER, { response, name: 'Phone' }, who.token));
      expect(registerPasskey).toEqual({ id: expect.any(Number), name: 'Phone', credentialId: response.id });
      expect(await passkeysOf(who.token)).toEqual([
        { id: registerPasskey.id, name: 'Phone', credentialId: response.id, backedUp: false, lastUsedAt: null, createdAt: expect.any(String) },
      ]);
      expect((await creationOptions(who.token)).excludeCredentials).toEqual([{ id: response.id, type: 'public-key', transports: ['internal'] }]);

      const loginOptions = await requestOptions();
      expect(loginOptions).toMatchObject({ rpId: 'localhost', userVerification: 'required', timeout: 300_000 });
      expect(loginOptions.allowCredentials ?? []).toEqual([]);
      const { loginWithPasskey } = expectGraphqlData(await login(auth.getAssertion(loginOptions)));
      expect(loginWithPasskey).toEqual({
        token: expect.any(String),
        user: { id: who.id },
        workspace: { slug: ws.slug },
        modules: navigationFor(UserType.EMPLOYEE).map((m) => ({ key: m.key })),
      });
      expect(expectGraphqlData(await gql(ME, {}, loginWithPasskey.token)).me).toEqual({ id: who.id });
      expectGraphqlError(await gql(ME, {}, who.token), 'UNAUTHENTICATED');
      const [used] = await passkeysOf(loginWithPasskey.token);
      expect(Date.parse(String(used.lastUsedAt))).toBeGreaterThan(Date.now() - 60_000);
    });

    it('names a passkey by default and lists only the caller’s own, newest first', async () => {
      const [a, b] = [await person(), await person()];
      const first = await register(a);
      const second = await register(a, 'Laptop');
      await register(b);
      expect(first.passkey.name).toBe(`Passkey added ${new Date().toISOString().slice(0, 10)}`);
      expect((await passkeysOf(a.token)).map((p) => p.id)).toEqual([second.passkey.id, first.passkey.id]);
    });

    it('removes the caller’s passkey; it no longer signs in', async () => {
      const who = await person();
      const { auth, passkey } = await register(who);
      expect(expectGraphqlData(await gql(REMOVE, { id: passkey.id }, who.token))).toEqual({ removePasskey: true });
      expect(await passkeysOf(who.token)).toEqual([]);
      expectLoginFailed(await login(await assertion(auth)));
    });
  });

  describe('refusals', () => {
    it('BAD_USER_INPUT for a registration without user verification, from another origin, or with a reused challenge', async () => {
      const who = await person();
      const options = await creationOptions(who.token);
      for (const auth of [new SoftAuthenticator({ userVerification: false }), new SoftAuthenticator({ origin: 'https://evil.example' })]) {
        expectGraphqlError(await gql(REGISTER, { response: auth.createCredential(options) }, who.token), 'BAD_USER_INPUT', /^response failed verification/);
      }
      expectGraphqlData(await gql(REGISTER, { response: new SoftAuthenticator().createCredential(options) }, who.token));
      const reused = await gql(REGISTER, { response: new SoftAuthenticator().createCredential(options) }, who.token);
      expectGraphqlError(reused, 'BAD_USER_INPUT', 'response answers a challenge that was already used; ask for new options');
      expect(await passkeysOf(who.token)).toHaveLength(1);
    });

    it("BAD_USER_INPUT for a response to another user's options, and for a name over 100 characters", async () => {
      const [a, b] = [await person(), await person()];
      const response = new SoftAuthenticator().createCredential(await creationOptions(a.token));
      expectGraphqlError(await gql(REGISTER, { response }, b.token), 'BAD_USER_INPUT', /^response failed verification/);
      const long = new SoftAuthenticator().createCredential(await creationOptions(b.token));
      expectGraphqlError(await gql(REGISTER, { response: long, name: 'x'.repeat(101) }, b.token), 'BAD_USER_INPUT', 'name must be at most 100 characters');
      expect(await passkeysOf(b.token)).toEqual([]);
    });

    it('CONFLICT for a credential that is already registered', async () => {
      const who = await person();
      const { response } = await register(who);
      const client = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
      client.challenge = (await creationOptions(who.token)).challenge;
      const again = { ...response, response: { ...response.response, clientDataJSON: Buffer.from(JSON.stringify(client)).toString('base64url') } };
      expectGraphqlError(await gql(REGISTER, { response: again }, who.token), 'CONFLICT', 'This passkey is already registered');
    });

    it('UNAUTHENTICATED without a session for passkeys, options, registerPasskey and removePasskey', async () => {
      const who = await person();
      const response = new SoftAuthenticator().createCredential(await creationOptions(who.token));
      expectGraphqlError(await gql(PASSKEYS), 'UNAUTHENTICATED');
      expectGraphqlError(await gql(REGISTRATION_OPTIONS), 'UNAUTHENTICATED');
      expectGraphqlError(await gql(REGISTER, { response }), 'UNAUTHENTICATED');
      expectGraphqlError(await gql(REMOVE, { id: 1 }), 'UNAUTHENTICATED');
      expect(await passkeysOf(who.token)).toEqual([]);
    });

    it("NOT_FOUND for removing another user's passkey, in the same or another workspace; it stays", async () => {
      const owner = await person();
      const { auth, passkey } = await register(owner);
      const outsider = await person(other);
      for (const token of [(await person()).token, ws.token, outsider.token]) {
        expectGraphqlError(await gql(REMOVE, { id: passkey.id }, token), 'NOT_FOUND', `Passkey ${passkey.id} not found`);
      }
      expect((await passkeysOf(owner.token)).map((p) => p.id)).toEqual([passkey.id]);
      expect(expectGraphqlData(await login(await assertion(auth))).loginWithPasskey.user).toEqual({ id: owner.id });
    });

    it('UNAUTHENTICATED for an unknown credential, a replay, no user verification, a lower counter, a wrong origin and foreign challenges', async () => {
      const who = await person();
      const { auth } = await register(who);
      const registrationChallenge = (await creationOptions(who.token)).challenge; // before sign-in ends this session
      const stranger = new SoftAuthenticator();
      stranger.createCredential({ challenge: 'AAAA', rp: { id: 'localhost', name: 'x' }, user: { id: 'AAAA', name: 'x', displayName: 'x' } });
      expectLoginFailed(await login(await assertion(stranger)));
      expectLoginFailed(await login({}));

      const signed = await assertion(auth, { counter: 5 });
      expect(expectGraphqlData(await login(signed)).loginWithPasskey.user).toEqual({ id: who.id });
      expectLoginFailed(await login(signed));
      expectLoginFailed(await login(await assertion(auth, { userVerification: false })));
      expectLoginFailed(await login(await assertion(auth, { counter: 3 })));
      // A success in between resets the failure count, so the next four stay below the lock.
      expect(expectGraphqlData(await login(await assertion(auth, { counter: 6 }))).loginWithPasskey.user).toEqual({ id: who.id });
      expectLoginFailed(await login(await assertion(auth, { counter: 6 })));
      expectLoginFailed(await login(await assertion(auth, { origin: 'https://evil.example' })));
      expectLoginFailed(await login(await assertion(auth, { challenge: registrationChallenge })));
      expectLoginFailed(await login(await assertion(auth, { challenge: randomBytes(52).toString('base64url') })));
    });

    it('LOCKED on the fifth failed assertion and afterwards, even for a valid one', async () => {
      const who = await person();
      const { auth } = await register(who);
      for (let i = 0; i < 4; i++) expectLoginFailed(await login(await assertion(auth, { userVerification: false })));
      const locked = /^Account locked after 5 failed sign-ins/;
      expectGraphqlError(await login(await assertion(auth, { userVerification: false })), 'LOCKED', locked);
      expectGraphqlError(await login(await assertion(auth)), 'LOCKED', locked);
      // REST answers the same lock.
      const rest = await t.request({ method: 'POST', url: '/api/v1/auth/passkey/login/verify', payload: { response: await assertion(auth) } });
      expect(rest.statusCode, rest.body).toBe(423);
    });
  });
});

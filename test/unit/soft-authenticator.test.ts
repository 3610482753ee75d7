import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../helpers/soft-authenticator';

const ORIGIN = 'http://localhost:3000';
const RP_ID = 'localhost';
const USER_ID = new TextEncoder().encode('user-0001');

// Registers one passkey and returns what a server would store for it.
async function register(auth = new SoftAuthenticator()) {
  const options = await generateRegistrationOptions({
    rpName: 'Test',
    rpID: RP_ID,
    userName: 'a@example.com',
    userID: USER_ID,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const response = auth.createCredential(options);
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
  expect(result.verified).toBe(true);
  const { credential } = result.registrationInfo!;
  const stored: WebAuthnCredential = { id: credential.id, publicKey: credential.publicKey, counter: credential.counter };
  return { auth, options, response, registrationInfo: result.registrationInfo!, stored };
}

async function verifyLogin(response: AuthenticationResponseJSON, challenge: string, stored: WebAuthnCredential) {
  return verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    credential: stored,
    requireUserVerification: true,
  });
}

describe('SoftAuthenticator against @simplewebauthn/server', () => {
  it('registers a passkey the library accepts', async () => {
    const { auth, options, response, registrationInfo } = await register();
    expect(registrationInfo.credential.id).toBe(response.id);
    expect(registrationInfo.credential.counter).toBe(0);
    expect(registrationInfo.userVerified).toBe(true);
    expect(registrationInfo.fmt).toBe('none');
    expect(auth.credentials).toHaveLength(1);
    expect(auth.credential(response.id).userHandle).toBe(options.user.id);
    expect(Buffer.from(response.id, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('refuses creation options without rp.id', () => {
    const auth = new SoftAuthenticator();
    expect(() => auth.createCredential({ challenge: 'AAAA', rp: { name: 'Test' }, user: { id: 'AA', name: 'a', displayName: 'a' } }))
      .toThrow(/rp\.id/);
  });

  it('signs a discoverable login the library accepts, with counter 1', async () => {
    const { auth, response: reg, stored } = await register();
    const options = await generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
    const assertion = auth.getAssertion(options);
    expect(assertion.id).toBe(reg.id);
    expect(assertion.response.userHandle).toBe(Buffer.from(USER_ID).toString('base64url'));
    const result = await verifyLogin(assertion, options.challenge, stored);
    expect(result.verified).toBe(true);
    expect(result.authenticationInfo.newCounter).toBe(1);
    expect(result.authenticationInfo.userVerified).toBe(true);
    expect(auth.credential(reg.id).counter).toBe(1);
  });

  it('uses the credential named in allowCredentials', async () => {
    const { auth, response: first, stored } = await register();
    await register(auth); // a newer credential that discoverable login would pick instead
    const options = await generateAuthenticationOptions({ rpID: RP_ID, allowCredentials: [{ id: first.id }] });
    const assertion = auth.getAssertion(options);
    expect(assertion.id).toBe(first.id);
    expect((await verifyLogin(assertion, options.challenge, stored)).verified).toBe(true);
  });

  it('rejects an assertion whose counter went down', async () => {
    const { auth, response: reg, stored } = await register();
    const options = await generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
    const first = await verifyLogin(auth.getAssertion(options), options.challenge, stored);
    const afterFirst = { ...stored, counter: first.authenticationInfo.newCounter };
    expect(afterFirst.counter).toBe(1);

    auth.setCounter(reg.id, 0); // the next assertion carries 0 + 1 = 1: equal is rejected too
    await expect(verifyLogin(auth.getAssertion(options), options.challenge, afterFirst)).rejects.toThrow(/counter value 1 was lower than expected 1/);
    const lower = auth.getAssertion(options, { counter: 0 });
    await expect(verifyLogin(lower, options.challenge, afterFirst)).rejects.toThrow(/counter value 0 was lower than expected 1/);
    // Control: a normal increment from the server's value passes.
    auth.setCounter(reg.id, 1);
    expect((await verifyLogin(auth.getAssertion(options), options.challenge, afterFirst)).authenticationInfo.newCounter).toBe(2);
  });

  it('accepts counter 0 when the stored counter is 0 too (authenticators that do not count)', async () => {
    const { auth, stored } = await register();
    const options = await generateAuthenticationOptions({ rpID: RP_ID });
    const result = await verifyLogin(auth.getAssertion(options, { counter: 0 }), options.challenge, stored);
    expect(result.verified).toBe(true);
    expect(result.authenticationInfo.newCounter).toBe(0);
  });

  it('rejects an assertion without user verification when it is required', async () => {
    const { auth, stored } = await register();
    const options = await generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
    const assertion = auth.getAssertion(options, { userVerification: false });
    await expect(verifyLogin(assertion, options.challenge, stored)).rejects.toThrow(/User verification required/);
  });

  it('rejects registration without user verification when it is required', async () => {
    const auth = new SoftAuthenticator({ userVerification: false });
    await expect(register(auth)).rejects.toThrow(/User verification was required/);
  });

  it('rejects a wrong origin', async () => {
    const { auth, stored } = await register();
    const options = await generateAuthenticationOptions({ rpID: RP_ID });
    const assertion = auth.getAssertion(options, { origin: 'https://evil.example' });
    await expect(verifyLogin(assertion, options.challenge, stored)).rejects.toThrow(/origin "https:\/\/evil\.example"/);
  });

  it('rejects a wrong challenge and a wrong RP ID', async () => {
    const { auth, stored } = await register();
    const options = await generateAuthenticationOptions({ rpID: RP_ID });
    await expect(verifyLogin(auth.getAssertion(options, { challenge: 'AAAA' }), options.challenge, stored)).rejects.toThrow(/challenge/);
    await expect(verifyLogin(auth.getAssertion(options, { rpId: 'example.com' }), options.challenge, stored)).rejects.toThrow(/RP ID/);
  });

  it('rejects a tampered signature', async () => {
    const { auth, stored } = await register();
    const options = await generateAuthenticationOptions({ rpID: RP_ID });
    const assertion = auth.getAssertion(options);
    expect((await verifyLogin(assertion, options.challenge, stored)).verified).toBe(true); // control

    // Flipping a bit of the last byte changes s but keeps the DER structure parseable.
    const sig = Buffer.from(assertion.response.signature, 'base64url');
    sig[sig.length - 1] ^= 0x01;
    const tampered = { ...assertion, response: { ...assertion.response, signature: sig.toString('base64url') } };
    expect((await verifyLogin(tampered, options.challenge, stored)).verified).toBe(false);
  });
});

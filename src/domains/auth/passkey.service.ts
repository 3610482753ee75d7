import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { findRows, rowOf, type Row } from '../../db/entity-rows';
import { ConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { User } from '../users/user.entity';
import { Organization } from '../workspace/organization.entity';
import { Passkey } from './passkey.entity';
import type { SignedChallenges } from './signed-challenge';
import type { SignInResult, SignInSessions } from './sign-in-session';
import { spendNonce } from './spent-nonce.entity';

/** The relying party: the web app's origin and its host name (the RP ID). */
export interface RelyingParty {
  id: string;
  origin: string;
}

const CEREMONY_TTL_MS = 5 * 60 * 1000;
const REGISTRATION = 'passkey-registration';
const LOGIN = 'passkey-login';
const LOGIN_FAILED = 'Passkey sign-in failed';
/**
 * A credential id as browsers report it: base64url of at most 1,023 bytes (WebAuthn's limit).
 * Anything else cannot be a stored id, and is not looked up: PostgreSQL refuses a NUL in text.
 */
const CREDENTIAL_ID_SHAPE = /^[A-Za-z0-9_-]{1,1364}$/;

/** Loaded on the first ceremony: @simplewebauthn/server adds about 0.3 s to every start otherwise. */
const webauthn = () => import('@simplewebauthn/server');

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registration by a signed-in user, and sign-in
 * without a password. User verification is required in both ceremonies; a signature counter
 * that does not go up is refused (and counted as a failed sign-in).
 */
export class PasskeyService {
  constructor(
    private readonly rp: RelyingParty,
    private readonly challenges: SignedChallenges,
    private readonly userHandleKey: Buffer,
    private readonly signIns: SignInSessions,
  ) {}

  /** Creation options for the signed-in user; their existing passkeys are excluded. */
  async registrationOptions(ctx: RequestContext): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const session = ctx.requireSession();
    const user = await ctx.em.findOneOrFail(User, { id: session.userId });
    const [organization, existing] = await Promise.all([
      ctx.em.findOneOrFail(Organization, { id: user.organizationId }),
      ctx.em.find(Passkey, { user }),
    ]);
    const { generateRegistrationOptions } = await webauthn();
    return generateRegistrationOptions({
      rpName: organization.displayName,
      rpID: this.rp.id,
      userName: user.officialEmail ?? user.primaryContactNumber,
      userDisplayName: `${user.firstName} ${user.lastName}`,
      userID: this.userHandle(user.id),
      challenge: this.challenges.mint(REGISTRATION, user.id, CEREMONY_TTL_MS),
      timeout: CEREMONY_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
  }

  /** Verifies the browser's registration response and stores the passkey under `name`. */
  async register(ctx: RequestContext, response: RegistrationResponseJSON, name?: string | null): Promise<Row<Passkey>> {
    const session = ctx.requireSession();
    const label = name == null ? `Passkey added ${new Date().toISOString().slice(0, 10)}` : rules.requiredText('name', name, 100);
    let nonce: { nonce: string; expiresAt: Date } | null = null;
    let verification;
    const { verifyRegistrationResponse } = await webauthn();
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: (challenge) => !!(nonce = this.challenges.open(REGISTRATION, session.userId, challenge)),
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch (err) {
      throw new ValidationError('response', `failed verification: ${(err as Error).message}`);
    }
    if (!verification.verified || !nonce) throw new ValidationError('response', 'failed verification');
    const opened = nonce as { nonce: string; expiresAt: Date };
    if (!(await spendNonce(ctx.em, opened.nonce, opened.expiresAt))) {
      throw new ValidationError('response', 'answers a challenge that was already used; ask for new options');
    }
    const { credential, credentialBackedUp } = verification.registrationInfo;
    const taken = await ctx.em.count(Passkey, { credentialId: credential.id }, { filters: false });
    if (taken > 0) throw new ConflictError('This passkey is already registered');
    const passkey = ctx.em.create(Passkey, {
      organizationId: ctx.organizationId,
      user: ctx.em.getReference(User, session.userId),
      name: label,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      signCount: BigInt(credential.counter),
      transports: credential.transports ?? [],
      backedUp: credentialBackedUp,
    });
    await ctx.em.flush();
    return rowOf(ctx.em, Passkey, passkey);
  }

  /** The signed-in user's passkeys, newest first. */
  list(ctx: RequestContext): Promise<Array<Row<Passkey>>> {
    const session = ctx.requireSession();
    return findRows(ctx.em, Passkey, { user: session.userId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Removes one of the signed-in user's passkeys; anyone else's is not found. */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    const session = ctx.requireSession();
    const passkey = await ctx.em.findOne(Passkey, { id, user: session.userId });
    if (!passkey) throw new NotFoundError('Passkey', id);
    await ctx.em.remove(passkey).flush();
  }

  /** Request options for a sign-in with a discoverable passkey (no e-mail asked, none revealed). */
  async loginOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const { generateAuthenticationOptions } = await webauthn();
    return generateAuthenticationOptions({
      rpID: this.rp.id,
      userVerification: 'required',
      challenge: this.challenges.mint(LOGIN, 0, CEREMONY_TTL_MS),
      timeout: CEREMONY_TTL_MS,
    });
  }

  /** Verifies an assertion and signs its owner in; failures count against the owner's account. */
  async login(ctx: RequestContext, response: AuthenticationResponseJSON): Promise<SignInResult> {
    const credentialId = typeof response?.id === 'string' ? response.id : '';
    // Before sign-in the tenant is unknown: the credential id, unique across workspaces, is the key.
    const passkey = CREDENTIAL_ID_SHAPE.test(credentialId) ? await ctx.em.findOne(Passkey, { credentialId }, { filters: false, populate: ['user', 'publicKey', 'signCount', 'transports'] }) : null;
    if (!passkey) throw new UnauthenticatedError(LOGIN_FAILED);
    const user = passkey.user;
    await this.signIns.attempt(ctx.em, user, async (tx) =>
      (await this.assertionIsGood(tx, passkey, response)) ? null : new UnauthenticatedError(LOGIN_FAILED),
    );
    return this.signIns.complete(ctx.em, user);
  }

  /**
   * True when the assertion verifies (challenge ours and unspent, origin, RP ID, user
   * verification, signature, user handle) and its counter advances; spends the challenge.
   */
  private async assertionIsGood(tx: EntityManager, passkey: Passkey, response: AuthenticationResponseJSON): Promise<boolean> {
    let opened: { nonce: string; expiresAt: Date } | null = null;
    let newCounter: number;
    const { verifyAuthenticationResponse } = await webauthn();
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (challenge) => !!(opened = this.challenges.open(LOGIN, 0, challenge)),
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: Uint8Array.from(passkey.publicKey),
          counter: Number(passkey.signCount),
          transports: passkey.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
      if (!verification.verified) return false;
      newCounter = verification.authenticationInfo.newCounter;
    } catch {
      return false; // wrong challenge, origin, flags or a counter that did not go up
    }
    const handle = response.response?.userHandle;
    if (handle && !this.sameHandle(handle, passkey.user.id)) return false;
    const challenge = opened as { nonce: string; expiresAt: Date } | null;
    if (!challenge || !(await spendNonce(tx, challenge.nonce, challenge.expiresAt))) return false;
    return this.advanceCounter(tx, passkey, newCounter);
  }

  /**
   * Stores the new signature counter only if it still exceeds the stored one: two assertions with
   * the same counter racing each other (a cloned key) cannot both win. Counters that stay 0
   * (authenticators without one) are stored as they are; their challenge is single use anyway.
   */
  private async advanceCounter(tx: EntityManager, passkey: Passkey, newCounter: number): Promise<boolean> {
    const counter = BigInt(newCounter);
    const where = newCounter > 0 ? { id: passkey.id, signCount: { $lt: counter } } : { id: passkey.id };
    const changed = await tx.nativeUpdate(Passkey, where, { signCount: counter, lastUsedAt: new Date() }, { filters: false });
    return changed === 1;
  }

  /** The WebAuthn user handle of a user: opaque, stable, and free of personal data. */
  private userHandle(userId: number): Uint8Array<ArrayBuffer> {
    return Uint8Array.from(createHmac('sha256', this.userHandleKey).update(`user:${userId}`).digest());
  }

  private sameHandle(encoded: string, userId: number): boolean {
    const given = Buffer.from(encoded, 'base64url');
    const expected = Buffer.from(this.userHandle(userId));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../users/user.entity';
import { lockAccountRow } from './lockout';
import { SignInCode, SignInCodePurpose } from './sign-in-code.entity';

/** How long each kind of code stays valid. */
export const CODE_TTL_MS: Record<SignInCodePurpose, number> = {
  [SignInCodePurpose.OTP]: 5 * 60 * 1000,
  [SignInCodePurpose.MAGIC_LINK]: 15 * 60 * 1000,
  [SignInCodePurpose.PASSWORD_RESET]: 60 * 60 * 1000,
  [SignInCodePurpose.INVITE]: 7 * 24 * 60 * 60 * 1000,
  [SignInCodePurpose.DESKTOP]: 2 * 60 * 1000,
};

/** A freshly issued code: the secret goes to its owner, only its hash is kept. */
export interface IssuedCode {
  secret: string;
  expiresAt: Date;
}

/**
 * Issues, finds and redeems one-time codes and links. Secrets are random (6 digits for an OTP,
 * 256 bits for links and desktop codes) and stored as an HMAC under the service's hash key, so
 * a copy of the database gives no usable code.
 */
export class OneTimeCodes {
  constructor(private readonly hashKey: Buffer) {}

  /**
   * A new code for the user, replacing any earlier one of the same purpose (an OTP request
   * voids the previous code, a new link the previous link). Must run in the user's tenant scope.
   */
  async issue(em: EntityManager, user: User, purpose: SignInCodePurpose, options: { stateHash?: string } = {}): Promise<IssuedCode> {
    const secret = purpose === SignInCodePurpose.OTP ? String(randomInt(0, 1_000_000)).padStart(6, '0') : randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + CODE_TTL_MS[purpose]);
    await em.transactional(async (tx) => {
      // Serializes issues for one user, so racing requests leave exactly one live code.
      await lockAccountRow(tx, user);
      await tx.nativeDelete(SignInCode, { user: user.id, purpose });
      tx.create(SignInCode, {
        organizationId: user.organizationId,
        user: user.id,
        purpose,
        codeHash: this.hash(purpose, user.id, secret),
        stateHash: options.stateHash ?? null,
        expiresAt,
      });
    });
    return { secret, expiresAt };
  }

  /**
   * The code a link or desktop secret names, whatever its state (expired and used ones included,
   * so the caller can count the failure against its owner); null when no such code exists.
   */
  async findBySecret(em: EntityManager, purposes: SignInCodePurpose[], secret: string): Promise<SignInCode | null> {
    // Before sign-in the tenant is unknown: the hash, unique across workspaces, is the key.
    const hashes = purposes.map((purpose) => this.hash(purpose, null, secret));
    return em.findOne(SignInCode, { codeHash: { $in: hashes } }, { filters: false, populate: ['user'] });
  }

  /**
   * The user's current OTP row when `code` matches it (compared in constant time), else null.
   * Costs the same lookup and hash for a user id that does not exist.
   */
  async matchOtp(em: EntityManager, userId: number, code: string): Promise<SignInCode | null> {
    const row = await em.findOne(SignInCode, { user: userId, purpose: SignInCodePurpose.OTP }, { filters: false, orderBy: { id: 'desc' } });
    const expected = Buffer.from(row?.codeHash ?? '0'.repeat(64), 'hex');
    const actual = Buffer.from(this.hash(SignInCodePurpose.OTP, userId, code), 'hex');
    return row && timingSafeEqual(expected, actual) ? row : null;
  }

  /** Marks the code used; false when it was used already (checked atomically, so a code redeems once). */
  async redeem(em: EntityManager, code: SignInCode): Promise<boolean> {
    const changed = await em.nativeUpdate(SignInCode, { id: code.id, usedAt: null }, { usedAt: new Date() }, { filters: false });
    return changed === 1;
  }

  /** Voids every unused code and link of the user (after a password change or reset). */
  async revokeAll(em: EntityManager, userId: number): Promise<void> {
    await em.nativeDelete(SignInCode, { user: userId, usedAt: null });
  }

  /** True when the code can still be redeemed. */
  static isLive(code: SignInCode, now = new Date()): boolean {
    return code.usedAt === null && code.expiresAt > now;
  }

  /** OTPs are short, so their hash also binds the user: equal digits of two users never collide. */
  private hash(purpose: SignInCodePurpose, userId: number | null, secret: string): string {
    const subject = purpose === SignInCodePurpose.OTP ? `${purpose}:${userId}:${secret}` : `${purpose}:${secret}`;
    return createHmac('sha256', this.hashKey).update(subject).digest('hex');
  }
}

import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/core';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/** What a one-time code or link is good for. */
export enum SignInCodePurpose {
  /** 6-digit code sent by SMS; signs in. */
  OTP = 'otp',
  /** E-mailed link; signs in. */
  MAGIC_LINK = 'magic_link',
  /** E-mailed to a user an admin created; sets a password, never signs in. */
  INVITE = 'invite',
  /** E-mailed on request; sets a new password, never signs in. */
  PASSWORD_RESET = 'password_reset',
  /** Minted by a signed-in browser for the desktop app; exchanged with the app's own state. */
  DESKTOP = 'desktop',
}

/**
 * A single-use secret that stands in for a password: an OTP, a magic, invite or reset link, or a
 * desktop hand-off code. Only a keyed hash of the secret is kept. Looked up by that hash before
 * the tenant is known, hence the global unique index (like the sign-in identifiers of users).
 */
@Entity({ tableName: 'sign_in_code' })
@Index({ properties: ['organizationId', 'user', 'purpose'] })
@Index({ name: 'sign_in_code_hash_unique', expression: 'create unique index "sign_in_code_hash_unique" on "sign_in_code" ("code_hash")' })
@Index({ name: 'sign_in_code_expires_at_index', expression: 'create index "sign_in_code_expires_at_index" on "sign_in_code" ("expires_at")' })
export class SignInCode extends TenantEntity<'stateHash' | 'usedAt'> {
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => SignInCodePurpose })
  purpose!: SignInCodePurpose;

  /** HMAC-SHA256 (hex) of the secret under the service's hash key. */
  @Property({ length: 64 })
  codeHash!: string;

  /** Desktop hand-off: the S256 hash (base64url) of the desktop app's state, sent when the code was minted. */
  @Property({ type: 'string', length: 64, nullable: true })
  stateHash: string | null = null;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;
}

import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/** A WebAuthn credential (passkey) registered by a user; signs that user in without a password. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'passkey' })
@Index({ properties: ['organizationId', 'user'] })
@Index({ name: 'passkey_credential_id_unique', expression: 'create unique index "passkey_credential_id_unique" on "passkey" ("credential_id")' })
export class Passkey extends TenantEntity<'lastUsedAt' | 'transports' | 'backedUp'> {
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @Field({ description: 'A label the owner gave it, e.g. "Work laptop".' })
  @Property({ length: 100 })
  name!: string;

  /** Credential id as the browser reports it (base64url). */
  @Field({ description: 'WebAuthn credential id (base64url).' })
  @Property({ length: 1024 })
  credentialId!: string;

  /** COSE public key. */
  @Property({ type: 'blob', hidden: true })
  publicKey!: Buffer;

  /** Last signature counter seen; a later assertion must exceed it (unless both are 0). */
  @Property({ type: 'bigint', hidden: true })
  signCount!: bigint;

  @Property({ type: 'text[]', hidden: true })
  transports: string[] = [];

  @Field({ description: 'Whether the authenticator says the key is synced (backed up).' })
  @Property()
  backedUp: boolean = false;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;
}

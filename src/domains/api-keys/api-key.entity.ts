import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/** Key status codes of the interface: 1 active, 0 revoked. */
export enum ApiKeyStatus {
  REVOKED = 0,
  ACTIVE = 1,
}
registerEnumType(ApiKeyStatus, { name: 'ApiKeyStatus', description: '1 active, 0 revoked' });

/**
 * A machine credential of a workspace. Only the SHA-256 of the key is stored; revoked keys stay
 * as the audit record of who made and who revoked them.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'api_key' })
@Index({ properties: ['organizationId', 'status'] })
export class ApiKey extends TenantEntity<'status' | 'lastUsedAt' | 'expiresAt' | 'revokedAt' | 'revokedBy'> {
  @Field()
  @Property({ length: 100 })
  name!: string;

  /** SHA-256 of the whole key, hex; what a presented key is looked up by. */
  @Property({ length: 64, hidden: true })
  @Unique()
  keyHash!: string;

  @Field({ description: 'The first characters of the key, to tell keys apart.' })
  @Property({ length: 16 })
  keyPrefix!: string;

  @Field({ description: 'Comma-separated scope tokens, e.g. "read,write,orders".' })
  @Property({ length: 200 })
  scopes!: string;

  @Field(() => ApiKeyStatus)
  @Property({ type: 'smallint' })
  status: ApiKeyStatus = ApiKeyStatus.ACTIVE;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  @Field(() => Date, { nullable: true, description: 'Null means the key does not expire.' })
  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @ManyToOne(() => User, { fieldName: 'created_by_user_id', deleteRule: 'set null', nullable: true })
  createdBy!: User | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  @ManyToOne(() => User, { fieldName: 'revoked_by_user_id', deleteRule: 'set null', nullable: true })
  revokedBy: User | null = null;

  /** Whether the key is active and not past its expiry at `now`. */
  isLive(now = new Date()): boolean {
    return this.status === ApiKeyStatus.ACTIVE && (this.expiresAt === null || this.expiresAt > now);
  }
}


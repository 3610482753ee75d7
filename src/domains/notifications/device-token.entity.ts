import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/**
 * A push token of one app installation (FCM practice, research §14(c)): whose it is, for which
 * app and platform, when it was last registered, and when the provider refused it for good
 * (UNREGISTERED / 404 → disabled, never sent to again until registered anew). One row per token
 * in a workspace: registering it again touches the row (and moves it to the caller).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'device_token' })
@Unique({ properties: ['organizationId', 'token'] })
@Index({ properties: ['organizationId', 'user'] })
export class DeviceToken extends TenantEntity<'disabledAt' | 'lastError' | 'lastSeenAt'> {
  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @Field({ description: 'portal, driver or field' })
  @Property({ length: 20 })
  app!: string;

  @Field({ description: 'android, ios or web' })
  @Property({ length: 20 })
  platform!: string;

  @Field()
  @Property({ length: 1000 })
  token!: string;

  @Field()
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  lastSeenAt: Date = new Date();

  @Field(() => Date, { nullable: true, description: 'When the push provider refused the token for good (UNREGISTERED); null while live' })
  @Property({ type: 'datetime', nullable: true })
  disabledAt: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ length: 500, nullable: true })
  lastError: string | null = null;
}

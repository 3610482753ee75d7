import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../db/active-status';

/**
 * A registered webhook target. The signing secret is kept encrypted (AES-256-GCM, key derived
 * from JWT_SECRET) because signing needs it in clear; deleting an endpoint discards it and keeps
 * the row (deleted_at) so its delivery log survives.
 */
@ObjectType('WebhookEndpoint', { simpleResolvers: true })
@Entity({ tableName: 'webhook_endpoint' })
@Index({ properties: ['organizationId', 'status'] })
export class WebhookEndpoint extends TenantEntity<'status' | 'lastTriggeredAt' | 'failureCount' | 'deletedAt'> {
  @Field()
  @Property({ length: 100 })
  name!: string;

  @Field({ description: 'HTTPS URL the events are POSTed to.' })
  @Property({ length: 2048 })
  url!: string;

  /** The secret, encrypted (iv.tag.ciphertext, base64url); null once deleted. */
  @Property({ type: 'text', nullable: true, hidden: true })
  secretCiphertext!: string | null;

  @Field({ description: 'Comma-separated event names.' })
  // Text: every event named fits whatever the domains add (the request's schema bounds what is sent).
  @Property({ type: 'text' })
  events!: string;

  @Field(() => Int, { description: '1 delivers, 0 paused.' })
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lastTriggeredAt: Date | null = null;

  @Field(() => Int, { description: 'Failed attempts since the last 2xx.' })
  @Property({ type: 'integer' })
  failureCount: number = 0;

  @Property({ type: 'datetime', nullable: true, hidden: true })
  deletedAt: Date | null = null;
}

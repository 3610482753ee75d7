import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/** Delivery states: pending (waiting for its next attempt), sending, sent, dead. */
export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event on its way to one endpoint, with the record of its attempts. */
@ObjectType('WebhookDelivery', { simpleResolvers: true })
@Entity({ tableName: 'webhook_delivery' })
@Index({ properties: ['organizationId', 'webhookId', 'createdAt'] })
@Index({ properties: ['organizationId', 'status', 'createdAt'] })
export class WebhookDelivery extends TenantEntity<
  'attempts' | 'nextAttemptAt' | 'lastAttemptAt' | 'sentAt' | 'responseStatus' | 'responseBody' | 'durationMs' | 'lastError' | 'leaseUntil'
> {
  @Field(() => Int)
  @ManyToOne(() => WebhookEndpoint, { mapToPk: true, fieldName: 'webhook_id' })
  webhookId!: number;

  @Field({ description: 'evt_ and hex; the same for every attempt and redelivery of the event.' })
  @Property({ length: 40 })
  eventId!: string;

  @Field()
  @Property({ length: 40 })
  eventType!: string;

  /**
   * The envelope's `data`, as the event happened: every attempt and redelivery sends the same.
   * Column type json (not jsonb) keeps the fields in the documented order.
   */
  @Property({ type: 'json', columnType: 'json', hidden: true })
  eventData!: object;

  /** When the event happened: the envelope's `timestamp`. */
  @Property({ type: 'datetime' })
  eventAt!: Date;

  @Field(() => String, { description: 'pending, sending, sent or dead' })
  @Property({ length: 10 })
  status!: DeliveryStatus;

  @Field(() => Int)
  @Property({ type: 'integer' })
  attempts: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  maxAttempts!: number;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  nextAttemptAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lastAttemptAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  responseStatus: number | null = null;

  @Field(() => String, { nullable: true, description: 'The first 4 KB of the last response body.' })
  @Property({ type: 'text', nullable: true })
  responseBody: string | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  durationMs: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  /** While `sending`: until when the attempt belongs to the worker that started it. */
  @Property({ type: 'datetime', nullable: true, hidden: true })
  leaseUntil: Date | null = null;
}

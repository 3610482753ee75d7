import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/**
 * One message of a user's inbox (Frappe's Notification Log): what happened (type, title, body),
 * the record it links to (entity type + id) and when the user read it. Written by `notify` in the
 * transaction of the event; its push goes later, by a send_push job.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'notification' })
// The inbox: one user's rows, latest first.
@Index({ properties: ['organizationId', 'user', 'createdAt'] })
// The unread count and read-all touch only unread rows.
@Index({ name: 'notification_unread_index', expression: 'create index "notification_unread_index" on "notification" ("organization_id", "user_id") where "read_at" is null' })
export class Notification extends TenantEntity<'entityType' | 'entityId' | 'readAt' | 'pushedAt'> {
  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @Field({ description: 'order_status, payment_recorded, scheme_started, grievance_updated, approval_requested, approval_decided, system' })
  @Property({ length: 40 })
  type!: string;

  @Field()
  @Property({ length: 200 })
  title!: string;

  @Field()
  @Property({ length: 2000 })
  body!: string;

  @Field(() => String, { nullable: true, description: 'The kind of record it links to (order, payment, approval, …)' })
  @Property({ length: 40, nullable: true })
  entityType: string | null = null;

  @Field(() => Int, { nullable: true, description: 'The id of the record it links to' })
  @Property({ type: 'integer', nullable: true })
  entityId: number | null = null;

  @Field(() => Date, { nullable: true, description: 'When the user read it; null while unread' })
  @Property({ type: 'datetime', nullable: true })
  readAt: Date | null = null;

  /** When its push job finished (sent to every live token, or none to send to). */
  @Property({ type: 'datetime', nullable: true })
  pushedAt: Date | null = null;
}

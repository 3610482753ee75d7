import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { User } from '../users/user.entity';
import { Order, OrderStatus } from './order.entity';

/** One move of an order's status: from, to, when, and by which user or API key. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'order_status_history' })
@Index({ properties: ['organizationId', 'order', 'changedAt'] })
export class OrderStatusHistory extends TenantEntity<'fromStatus' | 'changedBy' | 'changedByApiKeyId' | 'changedAt' | 'cancellation'> {
  @ManyToOne(() => Order, { fieldName: 'order_id', deleteRule: 'cascade' })
  order!: Order;

  @Field(() => OrderStatus, { nullable: true, description: 'Null for the creation of the order.' })
  @Property({ type: 'smallint', nullable: true })
  fromStatus: OrderStatus | null = null;

  @Field(() => OrderStatus)
  @Property({ type: 'smallint' })
  toStatus!: OrderStatus;

  // A cancel is a history entry of its own: the status stays (from = to) and this marks it.
  @Field({ description: 'True for the cancellation of the order (its status does not change).' })
  @Property({ type: 'boolean', default: false })
  cancellation: boolean = false;

  @Field()
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  changedAt: Date = new Date();

  @ManyToOne(() => User, { nullable: true, fieldName: 'changed_by_user_id' })
  changedBy: User | null = null;

  @Field(() => Int, { nullable: true })
  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'changed_by_api_key_id' })
  changedByApiKeyId: number | null = null;
}

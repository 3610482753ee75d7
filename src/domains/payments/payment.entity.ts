import { DecimalType, Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { Order } from '../orders/order.entity';
import { User } from '../users/user.entity';

/** Money collected against an order (a collection); an order may be paid in several parts. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'payment' })
@Index({ properties: ['organizationId', 'order'] })
@Index({ properties: ['organizationId', 'paidAt'] })
export class Payment extends TenantEntity<'reference' | 'recordedBy' | 'recordedByApiKeyId'> {
  @ManyToOne(() => Order, { fieldName: 'order_id', deleteRule: 'cascade' })
  order!: Order;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  amount!: number;

  @Field({ description: 'cash, credit, upi, card, bank_transfer or cheque' })
  @Property({ length: 30 })
  modeOfPayment!: string;

  @Field({ description: 'When the money was received.' })
  @Property({ type: 'datetime' })
  paidAt!: Date;

  @Field(() => String, { nullable: true, description: 'Receipt, UTR or cheque number.' })
  @Property({ type: 'string', length: 100, nullable: true })
  reference: string | null = null;

  @ManyToOne(() => User, { nullable: true, fieldName: 'recorded_by_user_id' })
  recordedBy: User | null = null;

  @Field(() => Int, { nullable: true })
  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'recorded_by_api_key_id' })
  recordedByApiKeyId: number | null = null;
}

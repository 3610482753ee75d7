import { Check, DecimalType, Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { Order } from '../orders/order.entity';
import { User } from '../users/user.entity';

/**
 * Money collected from a customer: against an order (a collection; an order may be paid in several
 * parts), or on account (no order), then allocated oldest-first over the customer's open delivered
 * orders (payment_allocation, Migration20261127160000). customer_id is always set (an order
 * payment's is its order's customer: a trigger fills and checks it). A void
 * is a payment of its own: the negated amount, naming the payment it voids (once), so every sum
 * over payments nets it out and nothing is updated (Migration20261127101000).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'payment' })
@Check({ name: 'payment_void_mirrors', expression: '(voids_payment_id is null and amount > 0) or (voids_payment_id is not null and amount < 0)' })
@Index({ name: 'payment_voided_once', expression: 'create unique index "payment_voided_once" on "payment" ("organization_id", "voids_payment_id") where "voids_payment_id" is not null' })
@Index({ properties: ['organizationId', 'order'] })
@Index({ properties: ['organizationId', 'customerId'] })
@Index({ properties: ['organizationId', 'paidAt'] })
export class Payment extends TenantEntity<'order' | 'reference' | 'recordedBy' | 'recordedByApiKeyId' | 'voidsPaymentId' | 'voidReason'> {
  /** null: an on-account payment (allocated over the customer's orders). */
  @ManyToOne(() => Order, { fieldName: 'order_id', deleteRule: 'cascade', nullable: true })
  order: Order | null = null;

  @Field(() => Int, { description: 'The customer who paid (an order payment: its order’s customer).' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'customer_id' })
  customerId!: number;

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

  @Field(() => Int, { nullable: true, description: 'On a void: the payment it voids (its amount is the negated amount of that one).' })
  @ManyToOne(() => Payment, { mapToPk: true, nullable: true, fieldName: 'voids_payment_id' })
  voidsPaymentId: number | null = null;

  @Field(() => String, { nullable: true, description: 'On a void: why.' })
  @Property({ type: 'string', length: 500, nullable: true })
  voidReason: string | null = null;
}

import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ProductionUnit } from '../masters/production-unit.entity';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { User } from '../users/user.entity';

/** order_status codes; an order moves one step at a time, 1 → 2 → 3 → 4. */
export enum OrderStatus {
  INITIATED = 1,
  FORWARDED = 2,
  APPROVED = 3,
  DELIVERED = 4,
}
registerEnumType(OrderStatus, { name: 'OrderStatus' });

/** Every order status code, in flow order: 1, 2, 3, 4. */
export const ORDER_STATUSES = Object.values(OrderStatus).filter((v): v is OrderStatus => typeof v === 'number');

/** A customer's order. Town and route are copied from the customer when the order is placed. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'sales_order' })
@Unique({ properties: ['organizationId', 'orderCode'] })
// The list's order, holding what a search checks (Migration20261126110000).
@Index({
  name: 'sales_order_newest_first_index',
  expression: 'create index "sales_order_newest_first_index" on "sales_order" ("organization_id", "created_at", "id", lower("order_code")) include ("customer_id", "order_code")',
})
@Index({
  name: 'sales_order_order_code_trigram_index',
  expression: 'create index "sales_order_order_code_trigram_index" on "sales_order" using gin ("organization_id", lower("order_code") gin_trgm_ops)',
})
@Index({ properties: ['organizationId', 'status', 'createdAt'] })
@Index({ properties: ['organizationId', 'orderDate'] })
@Index({ properties: ['organizationId', 'customer', 'createdAt'] })
export class Order extends TenantEntity<'status' | 'town' | 'route' | 'productionUnit' | 'deliveryDate' | 'modeOfPayment' | 'createdBy' | 'cancelledAt' | 'cancelReason' | 'cancelledBy' | 'cancelledByApiKeyId'> {
  @Field()
  @Property({ length: 32 })
  orderCode!: string;

  @Field(() => OrderStatus)
  @Property({ type: 'smallint' })
  status: OrderStatus = OrderStatus.INITIATED;

  @Field({ description: 'YYYY-MM-DD' })
  @Property({ type: 'date' })
  orderDate!: string;

  @ManyToOne(() => User, { fieldName: 'customer_id' })
  customer!: User;

  @ManyToOne(() => Town, { nullable: true, fieldName: 'town_id' })
  town: Town | null = null;

  @ManyToOne(() => Route, { nullable: true, fieldName: 'route_id' })
  route: Route | null = null;

  @ManyToOne(() => ProductionUnit, { nullable: true, fieldName: 'production_unit_id' })
  productionUnit: ProductionUnit | null = null;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  totalAmount!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  itemsCount!: number;

  @Field(() => String, { nullable: true, description: 'Requested delivery date, YYYY-MM-DD.' })
  @Property({ type: 'date', nullable: true })
  deliveryDate: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 30, nullable: true })
  modeOfPayment: string | null = null;

  /** Keyed hash of the delivery OTP; the plain OTP is returned once, on creation. */
  @Property({ length: 64, hidden: true })
  deliveryOtpHash!: string;

  @ManyToOne(() => User, { nullable: true, fieldName: 'created_by_user_id' })
  createdBy: User | null = null;

  // A cancel keeps order_status (where the order stood) and records when, why and by whom (Migration20261126130000).
  @Field(() => Date, { nullable: true, description: 'When the order was cancelled; null while it is not.' })
  @Property({ type: 'datetime', nullable: true })
  cancelledAt: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  cancelReason: string | null = null;

  @ManyToOne(() => User, { nullable: true, fieldName: 'cancelled_by_user_id' })
  cancelledBy: User | null = null;

  @Field(() => Int, { nullable: true, description: 'The API key that cancelled the order, when one did.' })
  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'cancelled_by_api_key_id' })
  cancelledByApiKeyId: number | null = null;
}

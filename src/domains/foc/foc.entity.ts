import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { Approval } from '../approvals/approval.entity';
import { Order } from '../orders/order.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { User } from '../users/user.entity';

/** reason codes of a FOC request. */
export enum FocReason {
  SAMPLE = 1,
  REPLACEMENT = 2,
  PROMOTION = 3,
  OTHER = 4,
}
registerEnumType(FocReason, { name: 'FocReason', description: '1 sample, 2 replacement, 3 promotion, 4 other' });
export const FOC_REASONS = Object.values(FocReason).filter((v): v is FocReason => typeof v === 'number');
export const FOC_REASON_LABELS: Record<FocReason, string> = {
  [FocReason.SAMPLE]: 'sample',
  [FocReason.REPLACEMENT]: 'replacement',
  [FocReason.PROMOTION]: 'promotion',
  [FocReason.OTHER]: 'other',
};

/** status of a FOC request: submitted → approved | rejected; approved → fulfilled; submitted | approved → cancelled. */
export enum FocStatus {
  SUBMITTED = 1,
  APPROVED = 2,
  REJECTED = 3,
  FULFILLED = 4,
  CANCELLED = 5,
}
registerEnumType(FocStatus, { name: 'FocStatus', description: '1 submitted, 2 approved, 3 rejected, 4 fulfilled, 5 cancelled' });
export const FOC_STATUSES = Object.values(FocStatus).filter((v): v is FocStatus => typeof v === 'number');
export const FOC_STATUS_LABELS: Record<FocStatus, string> = {
  [FocStatus.SUBMITTED]: 'submitted',
  [FocStatus.APPROVED]: 'approved',
  [FocStatus.REJECTED]: 'rejected',
  [FocStatus.FULFILLED]: 'fulfilled',
  [FocStatus.CANCELLED]: 'cancelled',
};

/** Goods given free of cost to a customer, valued at cost, approved through the generic approvals. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'foc_request' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({ properties: ['organizationId', 'customer'] })
@Unique({ properties: ['organizationId', 'fulfilledOrder'] })
export class FocRequest extends TenantEntity<'status' | 'requestedBy' | 'approval' | 'fulfilledOrder' | 'fulfilledAt' | 'cancelledAt' | 'remarks'> {
  @ManyToOne(() => User, { fieldName: 'customer_id' })
  customer!: User;

  @ManyToOne(() => User, { nullable: true, fieldName: 'requested_by_user_id' })
  requestedBy: User | null = null;

  @Field(() => FocReason)
  @Property({ type: 'smallint' })
  reason!: FocReason;

  @Field()
  @Property({ length: 500 })
  remarks: string = '';

  @Field(() => Float, { description: 'Sum of the lines: quantity × unit cost.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  totalCost!: number;

  @Field(() => FocStatus)
  @Property({ type: 'smallint' })
  status: FocStatus = FocStatus.SUBMITTED;

  @ManyToOne(() => Approval, { nullable: true, fieldName: 'approval_id' })
  approval: Approval | null = null;

  @ManyToOne(() => Order, { nullable: true, fieldName: 'fulfilled_order_id' })
  fulfilledOrder: Order | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  fulfilledAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancelledAt: Date | null = null;
}

/** A line of a FOC request. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'foc_request_line' })
@Index({ properties: ['organizationId', 'request'] })
export class FocRequestLine extends TenantEntity {
  @ManyToOne(() => FocRequest, { fieldName: 'foc_request_id', deleteRule: 'cascade' })
  request!: FocRequest;

  @ManyToOne(() => ProductVariant, { fieldName: 'product_variant_id' })
  variant!: ProductVariant;

  @Field(() => Int)
  @Property({ type: 'integer' })
  quantity!: number;

  @Field(() => Float, { description: "Cost of one unit (default: the variant's selling price)." })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  unitCost!: number;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  amount!: number;
}

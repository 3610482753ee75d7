import { Check, DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { TenantEntity } from '../../db/tenant.entity';
import { Order } from '../orders/order.entity';
import { Payment } from './payment.entity';

/**
 * A share of an on-account payment settled against one delivered order (append-only,
 * Migration20261127160000). An order's paid amount is its direct payments plus its allocations.
 * A void of the payment adds the negated rows (`reverses_id` naming each), attached to the void,
 * so the orders owe again and nothing is updated or deleted. Allocations post nothing to the
 * ledger: the payment's credit already did (they are a settlement, not money).
 */
@Entity({ tableName: 'payment_allocation' })
@Index({ properties: ['organizationId', 'payment'] })
@Index({ properties: ['organizationId', 'order'] })
@Unique({ properties: ['organizationId', 'reverses'] })
@Check({ name: 'payment_allocation_reversal_mirrors', expression: '(reverses_id is null and amount > 0) or (reverses_id is not null and amount < 0)' })
export class PaymentAllocation extends TenantEntity<'reverses'> {
  @ManyToOne(() => Payment, { mapToPk: true, fieldName: 'payment_id', deleteRule: 'cascade' })
  payment!: number;

  @ManyToOne(() => Order, { mapToPk: true, fieldName: 'order_id', deleteRule: 'cascade' })
  order!: number;

  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  amount!: number;

  @ManyToOne(() => PaymentAllocation, { mapToPk: true, nullable: true, fieldName: 'reverses_id' })
  reverses: number | null = null;
}

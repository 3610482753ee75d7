import { DecimalType, Entity, Property, Unique } from '@mikro-orm/core';
import { TenantEntity } from '../../db/tenant.entity';

/**
 * The orders of one local day (order_date) and status of a workspace, summed: what the dashboard's
 * order counts, today's revenue, the pending amount and the collections are read from, instead of
 * every order and payment. Kept by triggers in the transaction that writes the orders and their
 * payments (see Migration20261126100000); `npm run cli -- stats:rebuild` rebuilds a workspace's rows.
 */
@Entity({ tableName: 'order_day_rollup' })
@Unique({ properties: ['organizationId', 'day', 'status'] })
export class OrderDayRollup extends TenantEntity {
  @Property({ type: 'date' })
  day!: string;

  @Property({ type: 'smallint' })
  status!: number;

  @Property({ type: 'integer' })
  orders!: number;

  @Property({ type: new DecimalType('string'), columnType: 'numeric(20,2)' })
  totalAmount!: string;

  /** The payments of these orders. */
  @Property({ type: new DecimalType('string'), columnType: 'numeric(20,2)' })
  paidAmount!: string;

  /** Each order's total less its payments, never below 0, summed. */
  @Property({ type: new DecimalType('string'), columnType: 'numeric(20,2)' })
  outstandingAmount!: string;
}

import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { TenantEntity } from '../../db/tenant.entity';
import { ProductVariant } from '../products/product-variant.entity';

/**
 * The order lines of one variant on one local day (their order's order_date) of a workspace,
 * whatever the order's status: what the monthly sales are read from. By variant, not by product or
 * class: the sales are reported by the variant's current unit_quantity, product and class, joined
 * when they are read. Kept by triggers with the lines (see Migration20261126100000).
 */
@Entity({ tableName: 'line_day_rollup' })
@Unique({ properties: ['organizationId', 'day', 'variant'] })
export class LineDayRollup extends TenantEntity {
  @Property({ type: 'date' })
  day!: string;

  @ManyToOne(() => ProductVariant, { mapToPk: true, fieldName: 'product_variant_id', deleteRule: 'cascade' })
  variant!: number;

  /** How many lines (a row whose lines are 0 counts as no sales). */
  @Property({ type: 'integer' })
  lines!: number;

  /** Their quantities, in the variant's own units. */
  @Property({ type: 'bigint' })
  quantity!: bigint;
}

import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ProductClass } from '../masters/product-class.entity';
import { User } from '../users/user.entity';

/** period_type codes: a target covers one calendar month or one calendar quarter. */
export enum SalesPeriodType {
  MONTH = 1,
  QUARTER = 2,
}
registerEnumType(SalesPeriodType, { name: 'SalesPeriodType', description: 'The length of a sales target’s period.' });

/** Every period type code: 1 month, 2 quarter. */
export const SALES_PERIOD_TYPES = [SalesPeriodType.MONTH, SalesPeriodType.QUARTER] as const;

/**
 * An employee's sales target for one month or quarter, for every product (no class) or one
 * product class. One target per employee, period and class (the unique index treats "every
 * product" as one class).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'sales_target' })
@Unique({
  name: 'sales_target_user_period_class_unique',
  expression:
    'create unique index "sales_target_user_period_class_unique" on "sales_target" ("organization_id", "user_id", "period_type", "period_start", coalesce("product_class_id", 0))',
})
@Index({ properties: ['organizationId', 'periodStart'] })
export class SalesTarget extends TenantEntity<'productClass' | 'targetAmount' | 'targetQuantity' | 'targetProductiveCalls' | 'targetOutlets'> {
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @Field(() => SalesPeriodType)
  @Property({ type: 'smallint' })
  periodType!: SalesPeriodType;

  @Field({ description: 'First day of the month or quarter, YYYY-MM-DD.' })
  @Property({ type: 'date' })
  periodStart!: string;

  @Field({ description: 'Last day of the month or quarter, YYYY-MM-DD (derived from the start).' })
  @Property({ type: 'date' })
  periodEnd!: string;

  /** Null: the target counts every product. */
  @ManyToOne(() => ProductClass, { nullable: true, fieldName: 'product_class_id' })
  productClass: ProductClass | null = null;

  @Field(() => Float, { nullable: true })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)', nullable: true })
  targetAmount: number | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  targetQuantity: number | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  targetProductiveCalls: number | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  targetOutlets: number | null = null;
}

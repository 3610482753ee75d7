import { DecimalType, Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Scheme } from '../schemes/scheme.entity';
import { Order } from './order.entity';

/** One line of an order, priced at the variant's selling price when the order was placed. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'order_item' })
// An order's lines, holding what the sales report sums (Migration20261127060000).
@Index({
  name: 'order_item_order_lines_index',
  expression: 'create index "order_item_order_lines_index" on "order_item" ("organization_id", "order_id") include ("product_variant_id", "quantity", "amount")',
})
@Index({ properties: ['organizationId', 'variant'] })
export class OrderItem extends TenantEntity<'discountAmount' | 'schemeId'> {
  @ManyToOne(() => Order, { fieldName: 'order_id', deleteRule: 'cascade' })
  order!: Order;

  @ManyToOne(() => ProductVariant, { fieldName: 'product_variant_id' })
  variant!: ProductVariant;

  @Field(() => Int)
  @Property({ type: 'integer' })
  quantity!: number;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  unitPrice!: number;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  amount!: number;

  @Field(() => Float, { description: 'What schemes took off this line; amount = quantity × unitPrice − discountAmount.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)', default: 0 })
  discountAmount: number = 0;

  @Field(() => Int, { nullable: true, description: 'On a free line (unitPrice 0): the scheme that gave it.' })
  @ManyToOne(() => Scheme, { mapToPk: true, nullable: true, fieldName: 'scheme_id' })
  schemeId: number | null = null;
}

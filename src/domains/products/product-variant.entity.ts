import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../db/active-status';
import { Product } from './product.entity';

/** A sellable variant (size/pack) of a product, with its prices. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'product_variant' })
@Unique({ properties: ['organizationId', 'itemSkuCode'] })
@Index({ properties: ['organizationId', 'product'] })
export class ProductVariant extends TenantEntity<'variantSize' | 'variantQuantity' | 'containerQuantity' | 'unitQuantity' | 'status'> {
  @ManyToOne(() => Product, { fieldName: 'product_id' })
  product!: Product;

  @Field()
  @Property({ length: 200 })
  variantName!: string;

  @Field({ description: 'Stock-keeping unit code, unique in the workspace.' })
  @Property({ length: 64 })
  itemSkuCode!: string;

  @Field(() => Float, { description: 'Maximum retail price.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  mrp!: number;

  @Field(() => Float, { description: 'Selling price; order lines are priced at it.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  sp!: number;

  @Field()
  @Property({ length: 50 })
  variantSize: string = '';

  @Field(() => Int)
  @Property({ type: 'integer' })
  variantQuantity: number = 1;

  @Field(() => Int)
  @Property({ type: 'integer' })
  containerQuantity: number = 1;

  @Field(() => Float, {
    description: "How much of its product class's unit one piece holds (e.g. 0.5 for a 500 ml pack in a litre class); > 0, at most 3 decimals.",
  })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,3)', default: 1 })
  unitQuantity: number = 1;

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;
}

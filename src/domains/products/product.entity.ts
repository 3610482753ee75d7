import { Collection, Entity, Index, ManyToOne, OneToMany, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../db/active-status';
import { ProductClass } from '../masters/product-class.entity';
import type { ProductVariant } from './product-variant.entity';

/** A catalogue product; what is sold is one of its variants. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'product' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({ properties: ['organizationId', 'status'] })
@Index({ properties: ['organizationId', 'productClass'] })
export class Product extends TenantEntity<'hsn' | 'colorCode' | 'description' | 'image' | 'status' | 'variants'> {
  @Field()
  @Property({ length: 200 })
  name!: string;

  @ManyToOne(() => ProductClass, { fieldName: 'product_class_id' })
  productClass!: ProductClass;

  @Field({ description: 'Tax classification (HSN) code.' })
  @Property({ length: 8 })
  hsn: string = '';

  @Field({ description: 'Hex colour, #RRGGBB.' })
  @Property({ length: 7 })
  colorCode: string = '#000000';

  @Field()
  @Property({ type: 'text' })
  description: string = '';

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 2048, nullable: true })
  image: string | null = null;

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;

  /** Oldest first, however they are loaded (lists, one product, GraphQL's loader). */
  // By name: the variant imports this entity, and a circle of imports would follow a thunk here.
  @OneToMany<ProductVariant, Product>('ProductVariant', (v) => v.product, { orderBy: { id: 'asc' } })
  variants = new Collection<ProductVariant>(this);
}

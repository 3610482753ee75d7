import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { NamedRecord } from './named-record.entity';

/** A product category (e.g. Milk, Curd); also the grouping of monthly sales. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'product_class' })
@Unique({ properties: ['organizationId', 'name'] })
export class ProductClass extends NamedRecord<'unit'> {
  @Field({ description: 'Unit its quantities are counted in, e.g. litre, kg, piece.' })
  @Property({ length: 20 })
  unit: string = 'piece';
}

import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../shared/active-status';

/** A product category (e.g. Milk, Curd); also the grouping of monthly sales. */
@ObjectType()
@Entity({ tableName: 'product_class' })
@Unique({ properties: ['organizationId', 'name'] })
export class ProductClass extends TenantEntity<'unit' | 'status'> {
  @Field({ description: 'Name of the class (product_class in REST).' })
  @Property({ length: 120 })
  name!: string;

  @Field({ description: 'Unit its quantities are counted in, e.g. litre, kg, piece.' })
  @Property({ length: 20 })
  unit: string = 'piece';

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;
}

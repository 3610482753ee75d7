import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../shared/active-status';

/** A plant or depot that fulfils orders. */
@ObjectType()
@Entity({ tableName: 'production_unit' })
@Unique({ properties: ['organizationId', 'name'] })
export class ProductionUnit extends TenantEntity<'status'> {
  @Field()
  @Property({ length: 120 })
  name!: string;

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;
}

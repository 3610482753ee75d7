import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../shared/active-status';
import { Town } from './town.entity';

/** A delivery route inside a town. */
@ObjectType()
@Entity({ tableName: 'route' })
@Unique({ properties: ['organizationId', 'town', 'name'] })
export class Route extends TenantEntity<'status'> {
  @Field()
  @Property({ length: 120 })
  name!: string;

  @ManyToOne(() => Town, { fieldName: 'town_id' })
  town!: Town;

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;
}

import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../shared/active-status';

/** A town of the workspace's distribution area. */
@ObjectType()
@Entity({ tableName: 'town' })
@Unique({ properties: ['organizationId', 'name'] })
export class Town extends TenantEntity<'status'> {
  @Field()
  @Property({ length: 120 })
  name!: string;

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;
}

import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../shared/active-status';

/** Names of the roles every workspace starts with. */
export const DEFAULT_ROLE_NAMES = ['Admin', 'Employee', 'Distributor', 'Retailer'] as const;

/** A named role of one workspace; users refer to it by role_id. */
@ObjectType()
@Entity({ tableName: 'role' })
@Unique({ properties: ['organizationId', 'name'] })
export class Role extends TenantEntity<'description' | 'status'> {
  @Field()
  @Property({ length: 100 })
  name!: string;

  @Field()
  @Property({ length: 500 })
  description: string = '';

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;
}

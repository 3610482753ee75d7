import { Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../db/active-status';

/** Base of the master records: a name unique in its scope and an active/inactive status. */
@ObjectType('NamedRecord', { simpleResolvers: true })
export abstract class NamedRecord<Optional = never> extends TenantEntity<'status' | Optional> {
  @Field()
  @Property({ length: 120 })
  name!: string;

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;
}

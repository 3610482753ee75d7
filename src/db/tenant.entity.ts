import { Filter, ManyToOne } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Organization } from '../domains/workspace/organization.entity';
import { BaseEntity } from './base.entity';
import { TENANT_FILTER, tenantCondition } from './tenant-filter';

/** Base of every tenant-owned entity: an organization column and the default tenant filter. */
@ObjectType('TenantEntity', { simpleResolvers: true })
@Filter({ name: TENANT_FILTER, cond: tenantCondition, default: true })
export abstract class TenantEntity<Optional = never> extends BaseEntity<Optional> {
  @Field(() => Int)
  @ManyToOne(() => Organization, { mapToPk: true, fieldName: 'organization_id', deleteRule: 'cascade' })
  organizationId!: number;
}

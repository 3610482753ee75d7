import { Filter, ManyToOne, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Organization } from '../domains/workspace/organization.entity';
import { BaseEntity } from './base.entity';
import { TENANT_FILTER, tenantCondition } from './tenant-filter';

/**
 * Base of every tenant-owned entity: an organization column and the default tenant filter.
 * `unique (organization_id, id)` is what the composite foreign keys between tenant-owned tables
 * reference (see tenant-schema.ts).
 */
@ObjectType('TenantEntity', { simpleResolvers: true })
@Unique({ properties: ['organizationId', 'id'] })
@Filter({ name: TENANT_FILTER, cond: tenantCondition, default: true })
export abstract class TenantEntity<Optional = never> extends BaseEntity<Optional> {
  @Field(() => Int)
  @ManyToOne(() => Organization, { mapToPk: true, fieldName: 'organization_id', deleteRule: 'cascade' })
  organizationId!: number;
}

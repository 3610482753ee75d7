import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { NamedRecord } from '../masters/named-record.entity';

/** Names of the roles every workspace starts with. */
export const DEFAULT_ROLE_NAMES = ['Admin', 'Employee', 'Distributor', 'Retailer'] as const;

/** A named role of one workspace; users refer to it by role_id. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'role' })
@Unique({ properties: ['organizationId', 'name'] })
export class Role extends NamedRecord<'description'> {
  @Field()
  @Property({ length: 500 })
  description: string = '';
}

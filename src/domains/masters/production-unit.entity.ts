import { Entity, Unique } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { NamedRecord } from './named-record.entity';

/** A plant or depot that fulfils orders. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'production_unit' })
@Unique({ properties: ['organizationId', 'name'] })
export class ProductionUnit extends NamedRecord {}

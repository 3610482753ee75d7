import { Entity, Unique } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { NamedRecord } from './named-record.entity';

/** A town of the workspace's distribution area. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'town' })
@Unique({ properties: ['organizationId', 'name'] })
export class Town extends NamedRecord {}

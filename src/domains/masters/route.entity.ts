import { Entity, ManyToOne, Unique } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { NamedRecord } from './named-record.entity';
import { Town } from './town.entity';

/** A delivery route inside a town. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'route' })
@Unique({ properties: ['organizationId', 'town', 'name'] })
export class Route extends NamedRecord {
  @ManyToOne(() => Town, { fieldName: 'town_id' })
  town!: Town;
}

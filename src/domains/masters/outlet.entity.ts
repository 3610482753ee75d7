import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { NamedRecord } from './named-record.entity';
import { Route } from './route.entity';
import { Town } from './town.entity';

/**
 * A retail outlet on a route. Field staff "tag" it on a visit: its location and the moment of
 * tagging are recorded (the dashboard counts tagged outlets).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'outlet' })
@Unique({ properties: ['organizationId', 'route', 'name'] })
@Index({ properties: ['organizationId', 'taggedAt'] })
export class Outlet extends NamedRecord<'latitude' | 'longitude' | 'taggedAt'> {
  @ManyToOne(() => Town, { fieldName: 'town_id' })
  town!: Town;

  @ManyToOne(() => Route, { fieldName: 'route_id' })
  route!: Route;

  @Field()
  @Property({ length: 20 })
  phone!: string;

  @Field(() => Float, { nullable: true })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(9,6)', nullable: true })
  latitude: number | null = null;

  @Field(() => Float, { nullable: true })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(9,6)', nullable: true })
  longitude: number | null = null;

  @Field(() => Date, { nullable: true, description: 'When the outlet was last tagged; null while untagged.' })
  @Property({ type: 'datetime', nullable: true })
  taggedAt: Date | null = null;
}

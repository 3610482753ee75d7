import { DecimalType, Entity, Property, Unique } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { NamedRecord } from './named-record.entity';

/**
 * A kind of returnable container (a milk crate, a bottle) customers hold between deliveries, and
 * what one is worth: the deposit value a damaged or lost one is charged at. Its movements and
 * balances are the crates domain's (src/domains/crates/).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'crate_type' })
@Unique({ properties: ['organizationId', 'name'] })
export class CrateType extends NamedRecord<'depositValue'> {
  @Field(() => Float, { description: 'What one crate of this type is worth (a damaged or lost one is charged at it).' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  depositValue: number = 0;
}

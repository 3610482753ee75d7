import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/** One user's working day: checked in once, checked out at most once. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'attendance' })
@Unique({ properties: ['organizationId', 'user', 'day'] })
@Index({ properties: ['organizationId', 'day'] })
export class Attendance extends TenantEntity<'checkOutAt' | 'latitude' | 'longitude'> {
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @Field({ description: 'The local day (workspace time zone), YYYY-MM-DD.' })
  @Property({ type: 'date' })
  day!: string;

  @Field()
  @Property({ type: 'datetime' })
  checkInAt!: Date;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  checkOutAt: Date | null = null;

  @Field(() => Float, { nullable: true, description: 'Where the check-in was made, if the device sent it.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(9,6)', nullable: true })
  latitude: number | null = null;

  @Field(() => Float, { nullable: true })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(9,6)', nullable: true })
  longitude: number | null = null;
}

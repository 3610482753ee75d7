import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { NoSaleReason } from '../masters/no-sale-reason.entity';
import { Outlet } from '../masters/outlet.entity';
import { Order } from '../orders/order.entity';
import { User } from '../users/user.entity';

/**
 * status codes of a visit. PLANNED is never stored: it is what a beat-plan day shows for an
 * outlet not yet visited. A visit is created at check-in (IN_PROGRESS), then checked out
 * (COMPLETED) or abandoned (ABANDONED).
 */
export enum VisitStatus {
  PLANNED = 1,
  IN_PROGRESS = 2,
  COMPLETED = 3,
  ABANDONED = 4,
}
registerEnumType(VisitStatus, { name: 'VisitStatus', description: '1 planned (beat-plan days only, never stored), 2 in progress, 3 completed, 4 abandoned' });

export const VISIT_STATUS_LABELS: Record<VisitStatus, string> = {
  [VisitStatus.PLANNED]: 'planned',
  [VisitStatus.IN_PROGRESS]: 'in progress',
  [VisitStatus.COMPLETED]: 'completed',
  [VisitStatus.ABANDONED]: 'abandoned',
};

/** outcome codes, set at check-out. */
export enum VisitOutcome {
  ORDER = 1,
  NO_SALE = 2,
  COLLECTION_ONLY = 3,
  PHONE_CALL = 4,
}
registerEnumType(VisitOutcome, { name: 'VisitOutcome', description: '1 order (orderId), 2 no sale (noSaleReasonId), 3 collection only, 4 phone call' });

/** Every outcome code: 1, 2, 3, 4. */
export const VISIT_OUTCOMES = Object.values(VisitOutcome).filter((v): v is VisitOutcome => typeof v === 'number');
export const VISIT_STATUSES = Object.values(VisitStatus).filter((v): v is VisitStatus => typeof v === 'number');

/**
 * One call of a staff member on an outlet: checked in (created), then checked out with an
 * outcome, or abandoned. `clientRef` (the device's UUID) makes a re-sent check-in idempotent; the
 * partial unique index visit_one_open_per_user keeps one visit in progress per user.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'visit' })
@Unique({ properties: ['organizationId', 'clientRef'] })
@Unique({ properties: ['organizationId', 'order'] })
@Index({ properties: ['organizationId', 'visitDate'] })
@Index({ properties: ['organizationId', 'user', 'visitDate'] })
@Index({
  name: 'visit_one_open_per_user',
  expression: 'create unique index "visit_one_open_per_user" on "visit" ("organization_id", "user_id") where "status" = 2',
})
export class Visit extends TenantEntity<
  | 'status'
  | 'checkInAccuracyM'
  | 'checkInIsMock'
  | 'checkOutAt'
  | 'checkOutDeviceTime'
  | 'checkOutLatitude'
  | 'checkOutLongitude'
  | 'checkOutAccuracyM'
  | 'checkOutIsMock'
  | 'distanceFromOutletM'
  | 'dwellSeconds'
  | 'geoVerified'
  | 'radiusM'
  | 'minDwellMinutes'
  | 'outcome'
  | 'order'
  | 'noSaleReason'
  | 'remarks'
> {
  @Field({ description: 'The device’s UUID of the visit: a re-sent check-in with it answers this visit.' })
  @Property({ type: 'uuid' })
  clientRef!: string;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => Outlet, { fieldName: 'outlet_id' })
  outlet!: Outlet;

  @Field(() => VisitStatus)
  @Property({ type: 'smallint' })
  status: VisitStatus = VisitStatus.IN_PROGRESS;

  @Field({ description: 'The workspace’s local day of the check-in, YYYY-MM-DD.' })
  @Property({ type: 'date' })
  visitDate!: string;

  @Field({ description: 'When the server received the check-in.' })
  @Property({ type: 'datetime' })
  checkInAt!: Date;

  @Field({ description: 'The device’s time of the check-in.' })
  @Property({ type: 'datetime' })
  checkInDeviceTime!: Date;

  @Field(() => Float)
  @Property({ type: 'double' })
  checkInLatitude!: number;

  @Field(() => Float)
  @Property({ type: 'double' })
  checkInLongitude!: number;

  @Field(() => Float, { nullable: true, description: 'Metres.' })
  @Property({ type: 'float', nullable: true })
  checkInAccuracyM: number | null = null;

  @Field(() => Boolean, { nullable: true, description: 'The device reported a mock location at check-in.' })
  @Property({ type: 'boolean', nullable: true })
  checkInIsMock: boolean | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  checkOutAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  checkOutDeviceTime: Date | null = null;

  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  checkOutLatitude: number | null = null;

  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  checkOutLongitude: number | null = null;

  @Field(() => Float, { nullable: true })
  @Property({ type: 'float', nullable: true })
  checkOutAccuracyM: number | null = null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true })
  checkOutIsMock: boolean | null = null;

  @Field(() => Float, { nullable: true, description: 'Haversine metres from the check-in point to the outlet’s tagged location; null when the outlet was untagged.' })
  @Property({ type: 'float', nullable: true })
  distanceFromOutletM: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Check-out minus check-in device time, seconds.' })
  @Property({ type: 'integer', nullable: true })
  dwellSeconds: number | null = null;

  @Field(() => Boolean, { nullable: true, description: 'Decided at check-out: within radiusM of the tagged outlet and at least minDwellMinutes; false when untagged; null until checked out.' })
  @Property({ type: 'boolean', nullable: true })
  geoVerified: boolean | null = null;

  @Field(() => Int, { nullable: true, description: 'The workspace radius geoVerified was decided with, metres.' })
  @Property({ type: 'integer', nullable: true })
  radiusM: number | null = null;

  @Field(() => Int, { nullable: true, description: 'The workspace minimum dwell geoVerified was decided with, minutes.' })
  @Property({ type: 'integer', nullable: true })
  minDwellMinutes: number | null = null;

  @Field(() => VisitOutcome, { nullable: true })
  @Property({ type: 'smallint', nullable: true })
  outcome: VisitOutcome | null = null;

  @ManyToOne(() => Order, { fieldName: 'order_id', nullable: true })
  order: Order | null = null;

  @ManyToOne(() => NoSaleReason, { fieldName: 'no_sale_reason_id', nullable: true })
  noSaleReason: NoSaleReason | null = null;

  @Field(() => String, { nullable: true })
  @Property({ length: 500, nullable: true })
  remarks: string | null = null;
}

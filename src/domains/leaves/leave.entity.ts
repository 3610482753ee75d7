import { DecimalType, Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/** leave_type codes. */
export enum LeaveType {
  CASUAL = 1,
  SICK = 2,
  EARNED = 3,
  UNPAID = 4,
}
registerEnumType(LeaveType, { name: 'LeaveType', description: '1 casual, 2 sick, 3 earned, 4 unpaid' });

/** Every leave type code: 1, 2, 3, 4. */
export const LEAVE_TYPES = Object.values(LeaveType).filter((v): v is LeaveType => typeof v === 'number');

/** status codes of a leave: open → approved | rejected | cancelled; approved → cancelled. */
export enum LeaveStatus {
  OPEN = 1,
  APPROVED = 2,
  REJECTED = 3,
  CANCELLED = 4,
}
registerEnumType(LeaveStatus, { name: 'LeaveStatus', description: '1 open, 2 approved, 3 rejected, 4 cancelled' });

/** Every leave status code: 1, 2, 3, 4. */
export const LEAVE_STATUSES = Object.values(LeaveStatus).filter((v): v is LeaveStatus => typeof v === 'number');

/** Labels of the status codes, as messages and descriptions name them. */
export const LEAVE_STATUS_LABELS: Record<LeaveStatus, string> = {
  [LeaveStatus.OPEN]: 'open',
  [LeaveStatus.APPROVED]: 'approved',
  [LeaveStatus.REJECTED]: 'rejected',
  [LeaveStatus.CANCELLED]: 'cancelled',
};

/** Labels of the leave types. */
export const LEAVE_TYPE_LABELS: Record<LeaveType, string> = {
  [LeaveType.CASUAL]: 'casual',
  [LeaveType.SICK]: 'sick',
  [LeaveType.EARNED]: 'earned',
  [LeaveType.UNPAID]: 'unpaid',
};

/** A staff member's leave over local days (the workspace's time zone), from_date to to_date inclusive. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'leave_application' })
// The overlap check of one user's leaves, and the user filter of the list.
@Index({ properties: ['organizationId', 'user', 'fromDate'] })
// The list's default order and the approved-days read over every user.
@Index({ properties: ['organizationId', 'fromDate'] })
export class Leave extends TenantEntity<'status' | 'halfDay' | 'decidedBy' | 'decidedAt' | 'decisionNote' | 'cancelledAt'> {
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @Field(() => LeaveType)
  @Property({ type: 'smallint' })
  leaveType!: LeaveType;

  @Field({ description: 'First day of the leave, YYYY-MM-DD (workspace local day).' })
  @Property({ type: 'date' })
  fromDate!: string;

  @Field({ description: 'Last day of the leave, inclusive, YYYY-MM-DD.' })
  @Property({ type: 'date' })
  toDate!: string;

  @Field({ description: 'Half a day (only for a one-day leave).' })
  @Property({ type: 'boolean' })
  halfDay: boolean = false;

  @Field(() => Float, { description: 'Calendar days from fromDate to toDate inclusive (weekends and holidays count); 0.5 for a half day.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(4,1)' })
  days!: number;

  @Field()
  @Property({ length: 500 })
  reason!: string;

  @Field(() => LeaveStatus)
  @Property({ type: 'smallint' })
  status: LeaveStatus = LeaveStatus.OPEN;

  @ManyToOne(() => User, { nullable: true, fieldName: 'decided_by_user_id' })
  decidedBy: User | null = null;

  @Field(() => Date, { nullable: true, description: 'When it was approved or rejected.' })
  @Property({ type: 'datetime', nullable: true })
  decidedAt: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  decisionNote: string | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancelledAt: Date | null = null;
}

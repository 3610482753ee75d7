import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { LeaveStatus, LeaveType } from './leave.entity';
import { LEAVE_SORT } from './leave.service';

@ArgsType()
export class LeaveListArgs extends SortedPageArgs(LEAVE_SORT) {
  @Field(() => Int, { nullable: true, description: "Only this user's leaves (employees see only their own anyway)" })
  userId?: number | null;

  @Field(() => LeaveStatus, { nullable: true })
  status?: LeaveStatus | null;

  @Field(() => LeaveType, { nullable: true })
  leaveType?: LeaveType | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: leaves with a day on or after it' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: leaves with a day on or before it' })
  dateTo?: string | null;
}

@InputType({ description: 'A leave application. Days are calendar days from fromDate to toDate inclusive (at most 60), or 0.5 for a half day.' })
export class ApplyLeaveInput {
  @Field(() => Int, { nullable: true, description: "Whose leave: an employee's own (the default); admins and API keys may name any active employee or admin (keys must)" })
  userId?: number | null;

  @Field(() => LeaveType)
  leaveType!: LeaveType;

  @Field({ description: 'YYYY-MM-DD, the workspace’s local day; within 365 days of today' })
  fromDate!: string;

  @Field({ description: 'YYYY-MM-DD, inclusive, not before fromDate' })
  toDate!: string;

  @Field(() => Boolean, { nullable: true, description: 'Half a day; only when fromDate = toDate (default false)' })
  halfDay?: boolean | null;

  @Field({ description: 'Required, at most 500 characters' })
  reason!: string;
}

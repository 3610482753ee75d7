import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { SortedPageArgs } from '../../graphql/sort.types';
import { SalesPeriodType, SalesTarget } from './sales-target.entity';
import { SALES_TARGET_SORT } from './sales-target.service';

@ArgsType()
export class SalesTargetListArgs extends SortedPageArgs(SALES_TARGET_SORT) {
  @Field(() => Int, { nullable: true, description: 'One employee’s targets (admins; employees always see their own)' })
  userId?: number | null;

  @Field(() => SalesPeriodType, { nullable: true })
  periodType?: SalesPeriodType | null;

  @Field(() => String, { nullable: true, description: 'One period: a month YYYY-MM or a quarter YYYY-Qn' })
  period?: string | null;

  @Field(() => Int, { nullable: true })
  productClassId?: number | null;
}

@InputType({ description: 'A new sales target (admins): at least one of targetAmount and targetQuantity.' })
export class CreateSalesTargetInput {
  @Field(() => Int, { description: 'An active employee of the workspace' })
  userId!: number;

  @Field(() => SalesPeriodType)
  periodType!: SalesPeriodType;

  @Field({ description: 'First day of the month or quarter, YYYY-MM-DD' })
  periodStart!: string;

  @Field(() => Int, { nullable: true, description: 'Null: every product' })
  productClassId?: number | null;

  @Field(() => Float, { nullable: true })
  targetAmount?: number | null;

  @Field(() => Int, { nullable: true })
  targetQuantity?: number | null;

  @Field(() => Int, { nullable: true })
  targetProductiveCalls?: number | null;

  @Field(() => Int, { nullable: true })
  targetOutlets?: number | null;
}

@InputType({ description: 'A change to a sales target (admins): omitted fields stay, null clears a figure or the class.' })
export class UpdateSalesTargetInput {
  @Field(() => Int, { nullable: true })
  userId?: number;

  @Field(() => SalesPeriodType, { nullable: true })
  periodType?: SalesPeriodType;

  @Field({ nullable: true })
  periodStart?: string;

  @Field(() => Int, { nullable: true })
  productClassId?: number | null;

  @Field(() => Float, { nullable: true })
  targetAmount?: number | null;

  @Field(() => Int, { nullable: true })
  targetQuantity?: number | null;

  @Field(() => Int, { nullable: true })
  targetProductiveCalls?: number | null;

  @Field(() => Int, { nullable: true })
  targetOutlets?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'One measure (amount, quantity, productive calls or outlets) of a target against what was achieved.' })
export class SalesMeasureAchievement {
  @Field(() => Float, { nullable: true })
  target!: number | null;

  @Field(() => Float)
  achieved!: number;

  @Field(() => Float, { nullable: true, description: 'achieved / target × 100; null when the target is absent or 0' })
  achievementPct!: number | null;

  @Field(() => Float, { nullable: true, description: 'target × working days elapsed / working days in the period, both net of leave' })
  expectedToDate!: number | null;

  @Field(() => Float, { nullable: true, description: '(target − achieved, at least 0) / remaining working days net of leave; null when none remain' })
  runRateNeeded!: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'One target of the period and its achievement.' })
export class SalesTargetAchievement {
  @Field(() => SalesTarget)
  target!: Row<SalesTarget>;

  @Field(() => Int, { description: 'Working days (Monday to Saturday) in the period' })
  workingDays!: number;

  @Field(() => Int, { description: 'Working days of the period before today' })
  workingDaysElapsed!: number;

  @Field(() => Int, { description: 'Working days of the period from today on' })
  workingDaysRemaining!: number;

  @Field(() => Float, { description: 'Working days of the period on approved leave (half days 0.5)' })
  leaveDays!: number;

  @Field(() => SalesMeasureAchievement)
  amount!: SalesMeasureAchievement;

  @Field(() => SalesMeasureAchievement)
  quantity!: SalesMeasureAchievement;

  @Field(() => SalesMeasureAchievement, { description: 'Completed visits that ended with an order, against targetProductiveCalls' })
  productiveCalls!: SalesMeasureAchievement;

  @Field(() => SalesMeasureAchievement, { description: 'Distinct outlets of completed visits, against targetOutlets' })
  outlets!: SalesMeasureAchievement;
}

@ObjectType({ simpleResolvers: true, description: 'Targets of one month or quarter against achievement, as of a local day.' })
export class SalesAchievement {
  @Field({ description: '2026-11 or 2026-Q4' })
  period!: string;

  @Field(() => SalesPeriodType)
  periodType!: SalesPeriodType;

  @Field()
  periodStart!: string;

  @Field()
  periodEnd!: string;

  @Field({ description: 'Today in the workspace’s time zone: what “elapsed” is counted to' })
  asOf!: string;

  @Field(() => [SalesTargetAchievement])
  targets!: SalesTargetAchievement[];
}

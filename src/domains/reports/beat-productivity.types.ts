import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';

/** The query of a beat-productivity report, as sent (see the README's Reports notes). */
export interface BeatProductivityQuery {
  date?: string | null;
  userId?: number | null;
}

@InputType({ description: 'A beat-productivity report’s day and employee (both optional).' })
export class BeatProductivityInput implements BeatProductivityQuery {
  @Field(() => String, { nullable: true, description: 'The day, YYYY-MM-DD (default: today, the workspace’s local day).' })
  date?: string | null;

  @Field(() => Int, { nullable: true, description: 'One employee (employees: only themselves).' })
  userId?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'One component of a day’s score.' })
export class ScoreComponent {
  @Field({ description: 'coverage, strike_rate, geo_verification, lines_per_call or time_in_field.' }) name!: string;
  @Field(() => Float, { description: 'The measured figure: a percentage, lines per call, or minutes.' }) value!: number;
  @Field(() => Float, { description: 'The figure that earns the full weight.' }) target!: number;
  @Field(() => Int, { description: 'The most points the component gives.' }) weight!: number;
  @Field(() => Float, { description: 'weight × min(value ÷ target, 1), to 2 decimals.' }) points!: number;
}

@ObjectType({ simpleResolvers: true, description: 'How often one no-sale reason was given that day.' })
export class NoSaleReasonCount {
  @Field(() => Int, { nullable: true, description: 'null: checked out as no sale without a reason.' }) id!: number | null;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => Int) count!: number;
}

@ObjectType({ simpleResolvers: true, description: 'One employee’s beat productivity on one day.' })
export class BeatProductivityRow {
  @Field() date!: string;
  @Field(() => Int) userId!: number;
  @Field() userName!: string;
  @Field(() => Int, { nullable: true, description: 'null: no beat plan that day.' }) beatPlanId!: number | null;
  @Field(() => Int, { nullable: true }) routeId!: number | null;
  @Field(() => String, { nullable: true }) routeName!: string | null;
  @Field(() => Int, { description: 'Outlets on the day’s plan.' }) plannedCalls!: number;
  @Field(() => Int, { description: 'Completed visits (phone calls included).' }) totalCalls!: number;
  @Field(() => Int, { description: 'Completed visits with an order not cancelled.' }) productiveCalls!: number;
  @Field(() => Int, { description: 'Completed visits geo-verified.' }) geoVerifiedCalls!: number;
  @Field(() => Int, { description: 'Completed visits with outcome phone call.' }) phoneCalls!: number;
  @Field(() => Float, { description: 'Planned outlets with a geo-verified completed visit ÷ planned, % (no plan: geo-verified ÷ total calls).' }) callRate!: number;
  @Field(() => Float, { description: 'Productive calls ÷ planned, % (no plan: ÷ total calls).' }) strikeRate!: number;
  @Field(() => Float, { description: 'Distinct variants per productive call’s order, averaged.' }) linesPerCall!: number;
  @Field(() => Float, { description: 'Sum of the productive calls’ orders’ totals.' }) orderValue!: number;
  @Field(() => Date, { nullable: true }) firstCheckIn!: Date | null;
  @Field(() => Date, { nullable: true }) lastCheckOut!: Date | null;
  @Field(() => Int, { nullable: true, description: 'lastCheckOut − firstCheckIn; null without both.' }) timeInFieldMinutes!: number | null;
  @Field(() => [NoSaleReasonCount]) noSaleReasons!: NoSaleReasonCount[];
  @Field(() => Float, { description: 'Approved leave that day: 0, 0.5 (half day: the time-in-field target halves) or 1 (not scored).' }) onLeave!: number;
  @Field(() => Float, { nullable: true, description: '0–100, the sum of the components’ points to 1 decimal; null on a full day of leave.' }) score!: number | null;
  @Field(() => [ScoreComponent]) components!: ScoreComponent[];
  @Field(() => [String], { description: 'A sentence for each component under half its weight.' }) reasons!: string[];
}

@ObjectType({ simpleResolvers: true, description: 'The beat-productivity rows of one day.' })
export class BeatProductivityReport {
  @Field() date!: string;
  @Field(() => Int, { nullable: true }) userId!: number | null;
  @Field(() => [BeatProductivityRow], { description: 'By employee name, then id.' }) rows!: BeatProductivityRow[];
}

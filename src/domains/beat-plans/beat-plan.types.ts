import { Field, Int, ObjectType } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { BeatFrequency } from './beat-plan.entity';
import type { BeatPlanTemplateRead } from './beat-plan-read';
import type { BeatPlanDayView } from './beat-plan.service';

@ObjectType('BeatPlanTemplateOutlet', { simpleResolvers: true, description: 'An outlet of a template, in visiting order.' })
export class BeatPlanTemplateOutletType {
  @Field(() => Int) outletId!: number;
  @Field() outletName!: string;
  @Field(() => Int) sequence!: number;
}

@ObjectType('BeatPlanTemplate', { simpleResolvers: true, description: 'An employee × route × weekday template that generates day plans.' })
export class BeatPlanTemplateType {
  @Field(() => Int) id!: number;
  @Field(() => Int) userId!: number;
  @Field() userName!: string;
  @Field(() => Int) routeId!: number;
  @Field() routeName!: string;
  @Field(() => Int, { description: 'ISO weekday: 1 Monday … 7 Sunday.' }) weekday!: number;
  @Field(() => BeatFrequency) frequency!: BeatFrequency;
  @Field({ description: 'YYYY-MM-DD' }) effectiveFrom!: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD; null: open-ended' }) effectiveTo!: string | null;
  @Field(() => ActiveStatus) status!: ActiveStatus;
  @Field({ description: 'Local day of the last change; started days up to it keep their frozen plan.' }) revisedOn!: string;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  @Field(() => [BeatPlanTemplateOutletType]) outlets!: BeatPlanTemplateOutletType[];
}

@ObjectType('BeatPlanDayOutlet', { simpleResolvers: true, description: 'A planned outlet of a day and what that day’s visits did there.' })
export class BeatPlanDayOutletType extends BeatPlanTemplateOutletType {
  @Field({ description: 'A completed visit exists.' }) visited!: boolean;
  @Field({ description: 'A completed visit ended with an order.' }) productive!: boolean;
  @Field(() => Int, { nullable: true }) visitId!: number | null;
}

@ObjectType('BeatPlanDay', { simpleResolvers: true, description: 'One employee’s plan of one local day.' })
export class BeatPlanDayType {
  @Field({ description: 'YYYY-MM-DD, the workspace’s local day' }) date!: string;
  @Field(() => Int) userId!: number;
  @Field() userName!: string;
  @Field(() => Int) beatPlanId!: number;
  @Field(() => Int) routeId!: number;
  @Field() routeName!: string;
  @Field({ description: 'true: a started day’s frozen snapshot; false: a future day computed from the current template.' }) frozen!: boolean;
  @Field(() => [BeatPlanDayOutletType]) outlets!: BeatPlanDayOutletType[];
}

export function templateOf({ plan, userName, routeName, outlets }: BeatPlanTemplateRead): BeatPlanTemplateType {
  return {
    id: plan.id,
    userId: plan.user,
    userName,
    routeId: plan.route,
    routeName,
    weekday: plan.weekday,
    frequency: plan.frequency,
    effectiveFrom: plan.effectiveFrom,
    effectiveTo: plan.effectiveTo,
    status: plan.status,
    revisedOn: plan.revisedOn,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
    outlets,
  };
}

export function dayOf(view: BeatPlanDayView): BeatPlanDayType {
  return view;
}

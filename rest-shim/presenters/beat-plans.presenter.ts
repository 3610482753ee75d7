import { Type } from '@sinclair/typebox';
import type { BeatPlanTemplateRead } from '../../src/domains/beat-plans/beat-plan-read';
import type { BeatPlanDayView } from '../../src/domains/beat-plans/beat-plan.service';
import { DateString, Nullable, Timestamp } from '../schemas';

const TemplateOutletBody = Type.Object({ outlet_id: Type.Integer(), outlet_name: Type.String(), sequence: Type.Integer() });

/** A beat plan template with its outlets in visiting order. */
export const BeatPlanTemplateBody = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_name: Type.String(),
  route_id: Type.Integer(),
  route_name: Type.String(),
  weekday: Type.Integer({ description: 'ISO weekday: 1 Monday … 7 Sunday' }),
  frequency: Type.Integer({ description: '1 weekly, 2 fortnightly, 4 monthly' }),
  effective_from: DateString,
  effective_to: Nullable(DateString),
  status: Type.Integer({ description: '1 active, 0 inactive' }),
  revised_on: DateString,
  created_at: Timestamp,
  updated_at: Timestamp,
  outlets: Type.Array(TemplateOutletBody),
});

/** One employee's day plan with, per outlet, what that day's visits did. */
export const BeatPlanDayBody = Type.Object({
  date: DateString,
  user_id: Type.Integer(),
  user_name: Type.String(),
  beat_plan_id: Type.Integer(),
  route_id: Type.Integer(),
  route_name: Type.String(),
  frozen: Type.Boolean({ description: 'true: the started day’s frozen snapshot; false: a future day from the current template' }),
  outlets: Type.Array(
    Type.Object({
      outlet_id: Type.Integer(),
      outlet_name: Type.String(),
      sequence: Type.Integer(),
      visited: Type.Boolean(),
      productive: Type.Boolean(),
      visit_id: Nullable(Type.Integer()),
    }),
  ),
});

export function presentBeatPlanTemplate({ plan: p, userName, routeName, outlets }: BeatPlanTemplateRead) {
  return {
    id: p.id,
    user_id: p.user,
    user_name: userName,
    route_id: p.route,
    route_name: routeName,
    weekday: p.weekday,
    frequency: p.frequency,
    effective_from: p.effectiveFrom,
    effective_to: p.effectiveTo,
    status: p.status,
    revised_on: p.revisedOn,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    outlets: outlets.map((o) => ({ outlet_id: o.outletId, outlet_name: o.outletName, sequence: o.sequence })),
  };
}

export function presentBeatPlanDay(d: BeatPlanDayView) {
  return {
    date: d.date,
    user_id: d.userId,
    user_name: d.userName,
    beat_plan_id: d.beatPlanId,
    route_id: d.routeId,
    route_name: d.routeName,
    frozen: d.frozen,
    outlets: d.outlets.map((o) => ({
      outlet_id: o.outletId,
      outlet_name: o.outletName,
      sequence: o.sequence,
      visited: o.visited,
      productive: o.productive,
      visit_id: o.visitId,
    })),
  };
}

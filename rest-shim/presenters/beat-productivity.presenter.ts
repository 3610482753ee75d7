import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../schemas';
import type { BeatProductivityReport, BeatProductivityRow } from '../../src/domains/reports/beat-productivity.types';

const Row = Type.Object({
  date: Type.String(),
  user_id: Type.Integer(),
  user_name: Type.String(),
  beat_plan_id: Nullable(Type.Integer({ description: 'null: no beat plan that day' })),
  route_id: Nullable(Type.Integer()),
  route_name: Nullable(Type.String()),
  planned_calls: Type.Integer({ description: 'Outlets on the day’s plan' }),
  total_calls: Type.Integer({ description: 'Completed visits (phone calls included)' }),
  productive_calls: Type.Integer({ description: 'Completed visits with an order not cancelled' }),
  geo_verified_calls: Type.Integer({ description: 'Completed visits geo-verified' }),
  phone_calls: Type.Integer({ description: 'Completed visits with outcome 4 (phone call)' }),
  call_rate: Type.Number({ description: 'Planned outlets with a geo-verified completed visit ÷ planned, % (no plan: geo-verified ÷ total calls)' }),
  strike_rate: Type.Number({ description: 'Productive calls ÷ planned, % (no plan: ÷ total calls)' }),
  lines_per_call: Type.Number({ description: 'Distinct variants per productive call’s order, averaged' }),
  order_value: Type.Number({ description: 'Sum of the productive calls’ orders’ totals' }),
  first_check_in: Nullable(Timestamp),
  last_check_out: Nullable(Timestamp),
  time_in_field_minutes: Nullable(Type.Integer({ description: 'last_check_out − first_check_in, whole minutes' })),
  no_sale_reasons: Type.Array(Type.Object({ id: Nullable(Type.Integer()), name: Nullable(Type.String()), count: Type.Integer() })),
  on_leave: Type.Number({ description: 'Approved leave that day: 0, 0.5 (the time-in-field target halves) or 1 (not scored)' }),
  score: Nullable(Type.Number({ description: '0–100, the components’ points summed, 1 decimal; null on a full day of leave' })),
  components: Type.Array(
    Type.Object({
      name: Type.String({ description: 'coverage, strike_rate, geo_verification, lines_per_call, time_in_field' }),
      value: Type.Number(),
      target: Type.Number(),
      weight: Type.Integer(),
      points: Type.Number(),
    }),
  ),
  reasons: Type.Array(Type.String(), { description: 'A sentence for each component under half its weight' }),
});

export const BeatProductivityBody = Type.Object({ date: Type.String(), user_id: Nullable(Type.Integer()), rows: Type.Array(Row) });

function presentRow(r: BeatProductivityRow) {
  return {
    date: r.date,
    user_id: r.userId,
    user_name: r.userName,
    beat_plan_id: r.beatPlanId,
    route_id: r.routeId,
    route_name: r.routeName,
    planned_calls: r.plannedCalls,
    total_calls: r.totalCalls,
    productive_calls: r.productiveCalls,
    geo_verified_calls: r.geoVerifiedCalls,
    phone_calls: r.phoneCalls,
    call_rate: r.callRate,
    strike_rate: r.strikeRate,
    lines_per_call: r.linesPerCall,
    order_value: r.orderValue,
    first_check_in: r.firstCheckIn,
    last_check_out: r.lastCheckOut,
    time_in_field_minutes: r.timeInFieldMinutes,
    no_sale_reasons: r.noSaleReasons,
    on_leave: r.onLeave,
    score: r.score,
    components: r.components,
    reasons: r.reasons,
  };
}

/** A beat-productivity report in the REST interface's snake_case. */
export function presentBeatProductivity(report: BeatProductivityReport) {
  return { date: report.date, user_id: report.userId, rows: report.rows.map(presentRow) };
}

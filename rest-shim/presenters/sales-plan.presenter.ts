import { Type } from '@sinclair/typebox';
import type { SalesAchievementRead, MeasureAchievement, TargetAchievement } from '../../src/domains/sales-plan/sales-achievement';
import { SALES_PERIOD_TYPES } from '../../src/domains/sales-plan/sales-target.entity';
import type { SalesTargetRead } from '../../src/domains/sales-plan/sales-target-read';
import { DateString, Nullable, Timestamp } from '../schemas';

/** period_type codes over REST. */
export const PeriodTypeCode = Type.Integer({ enum: [...SALES_PERIOD_TYPES], description: '1 month, 2 quarter' });

/** A sales target with its employee's and product class's names. */
export const SalesTargetBody = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_name: Type.String(),
  period_type: PeriodTypeCode,
  period_start: DateString,
  period_end: DateString,
  product_class_id: Nullable(Type.Integer({ description: 'null: every product' })),
  product_class_name: Nullable(Type.String()),
  target_amount: Nullable(Type.Number()),
  target_quantity: Nullable(Type.Integer()),
  target_productive_calls: Nullable(Type.Integer()),
  target_outlets: Nullable(Type.Integer()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export function presentSalesTarget({ target: t, user, productClass }: SalesTargetRead) {
  return {
    id: t.id,
    user_id: user.id,
    user_name: `${user.firstName} ${user.lastName}`,
    period_type: t.periodType,
    period_start: t.periodStart,
    period_end: t.periodEnd,
    product_class_id: productClass?.id ?? null,
    product_class_name: productClass?.name ?? null,
    target_amount: t.targetAmount,
    target_quantity: t.targetQuantity,
    target_productive_calls: t.targetProductiveCalls,
    target_outlets: t.targetOutlets,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

const MeasureBody = Type.Object({
  target: Nullable(Type.Number()),
  achieved: Type.Number(),
  achievement_pct: Nullable(Type.Number({ description: 'achieved / target × 100; null when the target is absent or 0' })),
  expected_to_date: Nullable(Type.Number({ description: 'target × working days elapsed / working days in the period, both net of leave' })),
  run_rate_needed: Nullable(Type.Number({ description: '(target − achieved, at least 0) per remaining working day net of leave; null when none remain' })),
});

const TargetAchievementBody = Type.Object({
  target: SalesTargetBody,
  working_days: Type.Integer({ description: 'Working days (Monday to Saturday) in the period' }),
  working_days_elapsed: Type.Integer({ description: 'Working days of the period before today' }),
  working_days_remaining: Type.Integer({ description: 'Working days of the period from today on' }),
  leave_days: Type.Number({ description: 'Working days on approved leave (half days 0.5)' }),
  amount: MeasureBody,
  quantity: MeasureBody,
  productive_calls: MeasureBody,
  outlets: MeasureBody,
});

/** A period's targets against achievement. */
export const SalesAchievementBody = Type.Object({
  period: Type.String({ description: '2026-11 or 2026-Q4' }),
  period_type: PeriodTypeCode,
  period_start: DateString,
  period_end: DateString,
  as_of: Type.String({ format: 'date', description: 'Today in the workspace’s time zone' }),
  targets: Type.Array(TargetAchievementBody),
});

function presentMeasure(m: MeasureAchievement) {
  return { target: m.target, achieved: m.achieved, achievement_pct: m.achievementPct, expected_to_date: m.expectedToDate, run_rate_needed: m.runRateNeeded };
}

function presentTargetAchievement(t: TargetAchievement) {
  return {
    target: presentSalesTarget(t.read),
    working_days: t.days.total,
    working_days_elapsed: t.days.elapsed,
    working_days_remaining: t.days.remaining,
    leave_days: t.days.leave,
    amount: presentMeasure(t.amount),
    quantity: presentMeasure(t.quantity),
    productive_calls: presentMeasure(t.productiveCalls),
    outlets: presentMeasure(t.outlets),
  };
}

export function presentSalesAchievement(a: SalesAchievementRead) {
  return {
    period: a.period.name,
    period_type: a.period.type,
    period_start: a.period.start,
    period_end: a.period.end,
    as_of: a.asOf,
    targets: a.targets.map(presentTargetAchievement),
  };
}

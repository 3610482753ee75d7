import type { RequestContext } from '../../context/request-context';
import { findRows } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ForbiddenError } from '../../errors/app-error';
import { requireStaff } from '../auth/permissions';
import { workspaceToday } from '../workspace/local-day';
import { approvedLeaveDays } from '../leaves/leave-days';
import { visitFacts, type VisitFact } from '../visits/visit-facts';
import { VisitOutcome, VisitStatus } from '../visits/visit.entity';
import { achievementPct, expectedToDate, runRateNeeded, workingDays, type WorkingDays } from './pro-rating';
import { monthOf, parsePeriod, periodName, type SalesPeriod } from './sales-period';
import { SalesTarget } from './sales-target.entity';
import { readSalesTargets, type SalesTargetRead } from './sales-target-read';
import { ownUserId } from './own-targets';

export interface AchievementRequest {
  /** `2026-11` or `2026-Q4`; the current month (workspace's local days) when absent. */
  period?: string | null;
  /** Admins and keys: one employee; absent, every employee with a target in the period. */
  userId?: number | null;
}

/** One measure (amount or quantity) of a target against what was achieved. */
export interface MeasureAchievement {
  target: number | null;
  achieved: number;
  achievementPct: number | null;
  expectedToDate: number | null;
  runRateNeeded: number | null;
}

/** One target's achievement. */
export interface TargetAchievement {
  read: SalesTargetRead;
  days: WorkingDays;
  amount: MeasureAchievement;
  quantity: MeasureAchievement;
  /** Completed visits of the employee in the period that ended with an order (whatever the class). */
  productiveCalls: MeasureAchievement;
  /** Distinct outlets the employee completed a visit at in the period (whatever the class). */
  outlets: MeasureAchievement;
}

/** The achievement of a period's targets, as of a local day. */
export interface SalesAchievementRead {
  period: SalesPeriod & { name: string };
  asOf: string;
  targets: TargetAchievement[];
}

/**
 * Targets of one month or quarter against the orders their employees booked in it, pro-rated over
 * the working days net of approved leave (pro-rating.ts). The period names targets of exactly
 * that period type: `2026-Q4` answers quarterly targets, `2026-11` monthly ones.
 */
export async function salesAchievement(ctx: RequestContext, request: AchievementRequest): Promise<SalesAchievementRead> {
  requireStaff(ctx);
  const own = ownUserId(ctx);
  if (own !== null && request.userId != null && request.userId !== own) throw new ForbiddenError('Employees see only their own achievement');
  const userId = own ?? request.userId ?? null;
  const organizationId = ctx.organizationId;
  const asOf = await workspaceToday(ctx.em, organizationId);
  const period = request.period == null ? monthOf(asOf) : parsePeriod('period', request.period);

  const rows = await findRows(
    ctx.em,
    SalesTarget,
    { periodType: period.type, periodStart: period.start, ...(userId !== null ? { user: userId } : {}) },
    { orderBy: [{ user: 'asc' }, { id: 'asc' }] },
  );
  const users = [...new Set(rows.map((r) => r.user))];
  const [reads, achieved, leave, visits] = await Promise.all([
    readSalesTargets(ctx.em, rows),
    achievedOf(ctx, period, userId),
    approvedLeaveDays(ctx.em, organizationId, users, period.start, period.end),
    users.length === 0 ? [] : visitFacts(ctx.em, organizationId, users, period.start, period.end),
  ]);
  const calls = callsByUser(visits);
  const targets = reads.map((read): TargetAchievement => {
    const days = workingDays(period.start, period.end, asOf, leave.get(read.user.id));
    const done = achieved.get(read.target.id) ?? { amount: 0, quantity: 0 };
    return {
      read,
      days,
      amount: measure(read.target.targetAmount, done.amount, days),
      quantity: measure(read.target.targetQuantity, done.quantity, days),
      productiveCalls: measure(read.target.targetProductiveCalls, calls.get(read.user.id)?.productive ?? 0, days),
      outlets: measure(read.target.targetOutlets, calls.get(read.user.id)?.outlets.size ?? 0, days),
    };
  });
  return { period: { ...period, name: periodName(period) }, asOf, targets };
}

/** Per employee: completed visits that ended with an order, and the distinct outlets of completed visits. */
function callsByUser(visits: readonly VisitFact[]): Map<number, { productive: number; outlets: Set<number> }> {
  const byUser = new Map<number, { productive: number; outlets: Set<number> }>();
  for (const v of visits) {
    if (v.status !== VisitStatus.COMPLETED) continue;
    const calls = byUser.get(v.userId) ?? { productive: 0, outlets: new Set<number>() };
    if (v.outcome === VisitOutcome.ORDER) calls.productive += 1;
    calls.outlets.add(v.outletId);
    byUser.set(v.userId, calls);
  }
  return byUser;
}

function measure(target: number | null, achieved: number, days: WorkingDays): MeasureAchievement {
  return {
    target,
    achieved,
    achievementPct: achievementPct(target, achieved),
    expectedToDate: expectedToDate(target, days),
    runRateNeeded: runRateNeeded(target, achieved, days),
  };
}

/**
 * Per target of the period: the amount and quantity of the order lines its employee booked
 * (sales_order.created_by_user_id) with an order_date in the period, cancelled orders left out,
 * only lines of the target's product class when it names one. One statement.
 */
async function achievedOf(ctx: RequestContext, period: SalesPeriod, userId: number | null): Promise<Map<number, { amount: number; quantity: number }>> {
  const t = tenantSql(ctx.organizationId, 'st');
  const o = t.rooted('o');
  const rows = await executeSql<{ target_id: number; amount: string; quantity: string }>(
    ctx.em,
    sql`select st.id as target_id, a.amount, a.quantity
        from sales_target st
        cross join lateral (
          select coalesce(sum(oi.amount), 0)::text as amount, coalesce(sum(oi.quantity), 0)::text as quantity
          from sales_order o
          ${o.join('order_item', 'oi', 'oi.order_id = o.id')}
          ${o.join('product_variant', 'pv', 'pv.id = oi.product_variant_id')}
          ${o.join('product', 'p', 'p.id = pv.product_id')}
          where o.organization_id = st.organization_id
            and o.created_by_user_id = st.user_id
            and o.order_date between st.period_start and st.period_end
            and o.cancelled_at is null
            and (st.product_class_id is null or p.product_class_id = st.product_class_id)
        ) a
        where ${t.owns()} and st.period_type = ${period.type} and st.period_start = ${period.start}
          ${userId !== null ? sql`and st.user_id = ${userId}` : sql``}`,
  );
  return new Map(rows.map((r) => [Number(r.target_id), { amount: Number(r.amount), quantity: Number(r.quantity) }]));
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { calendarDate } from '../../validation/rules';
import { dayPlans, type DayPlan } from '../beat-plans/beat-plan-days';
import { approvedLeaveDays } from '../leaves/leave-days';
import { UserType } from '../users/user.entity';
import { VisitOutcome, VisitStatus } from '../visits/visit.entity';
import { visitFacts, type VisitFact } from '../visits/visit-facts';
import { workspaceToday } from '../workspace/local-day';
import { reportedEmployee } from './report-access';
import { scoreDay } from './beat-productivity.score';
import type { BeatProductivityQuery, BeatProductivityReport, BeatProductivityRow, NoSaleReasonCount } from './beat-productivity.types';

interface OrderFigures {
  total: number;
  cancelled: boolean;
  variants: number;
}

const intArray = (ids: Iterable<number>) => `{${[...ids].map((id) => Math.trunc(id)).join(',')}}`;
function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/**
 * GET /reports/beat-productivity and GraphQL beatProductivity: per active employee with a beat plan
 * or a visit on the day, how the beat was executed, scored with its breakdown (beat-productivity.score.ts).
 */
export class BeatProductivityService {
  async report(ctx: RequestContext, query: BeatProductivityQuery): Promise<BeatProductivityReport> {
    const userId = reportedEmployee(ctx, query.userId);
    if (userId !== null) await checkReportedEmployee(ctx.em, ctx.organizationId, 'userId', userId);
    const date = query.date == null ? await workspaceToday(ctx.em, ctx.organizationId) : calendarDate('date', query.date);
    return beatProductivityOfDay(ctx.em, ctx.organizationId, date, userId);
  }
}

/** The report of one checked day and employee (null: every one), whoever asks: the export's rows too. */
export async function beatProductivityOfDay(em: EntityManager, organizationId: number, date: string, userId: number | null): Promise<BeatProductivityReport> {
  const only = userId === null ? null : [userId];
  const plans = await dayPlans(em, organizationId, date, only);
  const visits = await visitFacts(em, organizationId, only, date, date);
  const candidates = new Set<number>([...plans.map((p) => p.userId), ...visits.map((v) => v.userId)]);
  if (candidates.size === 0) return { date, userId, rows: [] };
  const employees = await activeEmployees(em, organizationId, candidates);
  const leave = await approvedLeaveDays(em, organizationId, [...employees.keys()], date, date);
  const completed = visits.filter((v) => v.status === VisitStatus.COMPLETED);
  const orders = await ordersOf(em, organizationId, completed.flatMap((v) => (v.outcome === VisitOutcome.ORDER && v.orderId !== null ? [v.orderId] : [])));
  const reasonNames = await reasonNamesOf(em, organizationId, completed.flatMap((v) => (v.noSaleReasonId === null ? [] : [v.noSaleReasonId])));
  const plansOf = groupBy(plans, (p) => p.userId);
  const visitsOf = groupBy(visits, (v) => v.userId);
  const rows = [...employees].map(([id, name]) =>
    rowOf(date, id, name, plansOf.get(id) ?? [], visitsOf.get(id) ?? [], leave.get(id)?.get(date) ?? 0, orders, reasonNames),
  );
  rows.sort((a, b) => a.userName.localeCompare(b.userName) || a.userId - b.userId);
  return { date, userId, rows };
}

/** Refuses (400 naming `field`) an id that is not of an employee of the workspace; returns the employee's name. */
export async function checkReportedEmployee(em: EntityManager, organizationId: number, field: string, userId: number): Promise<string> {
  if (!Number.isSafeInteger(userId) || userId < 1) throw new ValidationError(field, 'must be a positive integer');
  const t = tenantSql(organizationId, 'u');
  const [found] = await executeSql<{ name: string }>(
    em,
    sql`select trim(u.first_name || ' ' || u.last_name) as name from app_user u where ${t.owns()} and u.id = ${userId} and u.user_type = ${UserType.EMPLOYEE}`,
  );
  if (!found) throw new ValidationError(field, 'does not name an employee of this workspace');
  return found.name;
}

/** The active employees among `ids`: id → name. */
async function activeEmployees(em: EntityManager, organizationId: number, ids: Set<number>): Promise<Map<number, string>> {
  const t = tenantSql(organizationId, 'u');
  const rows = await executeSql<{ id: number; name: string }>(
    em,
    sql`select u.id, trim(u.first_name || ' ' || u.last_name) as name from app_user u
         where ${t.owns()} and u.id = any(${intArray(ids)}::int[]) and u.user_type = ${UserType.EMPLOYEE} and u.status = ${ActiveStatus.ACTIVE}`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** Each order's total, whether it was cancelled, and its distinct variants. */
async function ordersOf(em: EntityManager, organizationId: number, ids: number[]): Promise<Map<number, OrderFigures>> {
  if (ids.length === 0) return new Map();
  const t = tenantSql(organizationId, 'o');
  const rows = await executeSql<{ id: number; total: string; cancelled: boolean; variants: number }>(
    em,
    sql`select o.id, o.total_amount::text as total, o.cancelled_at is not null as cancelled,
               (select count(distinct i.product_variant_id)::int from order_item i where ${t.owns('i')} and i.order_id = o.id) as variants
          from sales_order o where ${t.owns()} and o.id = any(${intArray(ids)}::int[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), { total: Number(r.total), cancelled: r.cancelled, variants: Number(r.variants) }]));
}

async function reasonNamesOf(em: EntityManager, organizationId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const t = tenantSql(organizationId, 'r');
  const rows = await executeSql<{ id: number; name: string }>(em, sql`select r.id, r.name from no_sale_reason r where ${t.owns()} and r.id = any(${intArray(ids)}::int[])`);
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** One employee's row: the figures, then the score (none on a full day of leave). */
function rowOf(
  date: string,
  userId: number,
  userName: string,
  plans: DayPlan[],
  visits: VisitFact[],
  leaveFraction: number,
  orders: Map<number, OrderFigures>,
  reasonNames: Map<number, string>,
): BeatProductivityRow {
  const planned = new Set(plans.flatMap((p) => p.outlets.map((o) => o.outletId)));
  const completed = visits.filter((v) => v.status === VisitStatus.COMPLETED);
  const productive = completed.filter((v) => v.outcome === VisitOutcome.ORDER && v.orderId !== null && orders.get(v.orderId)?.cancelled === false);
  const productiveOrders = productive.map((v) => orders.get(v.orderId!)!);
  const geoVerified = completed.filter((v) => v.geoVerified === true);
  const phoneCalls = completed.filter((v) => v.outcome === VisitOutcome.PHONE_CALL).length;
  const inPerson = completed.length - phoneCalls;
  const hasPlan = planned.size > 0;
  // Without a plan, the calls made stand in for the calls due.
  const due = hasPlan ? planned.size : completed.length;
  const visitedPlanned = new Set(completed.filter((v) => planned.has(v.outletId)).map((v) => v.outletId));
  const verifiedPlanned = new Set(geoVerified.filter((v) => planned.has(v.outletId)).map((v) => v.outletId));
  const callRate = hasPlan ? pct(verifiedPlanned.size, planned.size) : pct(geoVerified.length, completed.length);
  const strikeRate = pct(productive.length, due);
  const lines = productiveOrders.reduce((sum, o) => sum + o.variants, 0);
  const linesPerCall = productive.length === 0 ? 0 : Math.round((lines / productive.length) * 100) / 100;
  const orderValue = Math.round(productiveOrders.reduce((sum, o) => sum + o.total, 0) * 100) / 100;
  const firstCheckIn = visits.length === 0 ? null : new Date(Math.min(...visits.map((v) => v.checkInAt.getTime())));
  const outs = visits.flatMap((v) => (v.checkOutAt === null ? [] : [v.checkOutAt.getTime()]));
  const lastCheckOut = outs.length === 0 ? null : new Date(Math.max(...outs));
  const timeInFieldMinutes = firstCheckIn && lastCheckOut ? Math.max(0, Math.floor((lastCheckOut.getTime() - firstCheckIn.getTime()) / 60_000)) : null;
  const plan = plans[0];
  const head = {
    date,
    userId,
    userName,
    beatPlanId: plan?.beatPlanId ?? null,
    routeId: plan?.routeId ?? null,
    routeName: plan?.routeName ?? null,
    plannedCalls: planned.size,
    totalCalls: completed.length,
    productiveCalls: productive.length,
    geoVerifiedCalls: geoVerified.length,
    phoneCalls,
    callRate,
    strikeRate,
    linesPerCall,
    orderValue,
    firstCheckIn,
    lastCheckOut,
    timeInFieldMinutes,
    noSaleReasons: noSaleReasonsOf(completed, reasonNames),
    onLeave: leaveFraction,
  };
  if (leaveFraction >= 1) return { ...head, score: null, components: [], reasons: ['On approved leave all day: not scored.'] };
  const scored = scoreDay({
    coveragePct: hasPlan ? pct(visitedPlanned.size, planned.size) : pct(inPerson, completed.length),
    strikeRatePct: strikeRate,
    geoVerifiedPct: pct(geoVerified.filter((v) => v.outcome !== VisitOutcome.PHONE_CALL).length, inPerson),
    linesPerCall,
    timeInFieldMinutes: timeInFieldMinutes ?? 0,
    leaveFraction,
  });
  return { ...head, ...scored };
}

function noSaleReasonsOf(completed: VisitFact[], names: Map<number, string>): NoSaleReasonCount[] {
  const counts = new Map<number | null, number>();
  for (const v of completed) if (v.outcome === VisitOutcome.NO_SALE) counts.set(v.noSaleReasonId, (counts.get(v.noSaleReasonId) ?? 0) + 1);
  return [...counts]
    .map(([id, count]) => ({ id, name: id === null ? null : (names.get(id) ?? null), count }))
    .sort((a, b) => b.count - a.count || (a.id ?? 0) - (b.id ?? 0));
}

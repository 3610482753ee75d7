import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { calendarDate } from '../../validation/rules';
import { dayPlans, type DayPlan } from '../beat-plans/beat-plan-days';
import { approvedLeaveDays } from '../leaves/leave-days';
import { UserType } from '../users/user.entity';
import { workspaceToday } from '../workspace/local-day';
import { reportedEmployee } from './report-access';
import { scoreDay } from './beat-productivity.score';
import type { BeatProductivityQuery, BeatProductivityReport, BeatProductivityRow } from './beat-productivity.types';
import { dayVisitTotals, NO_VISITS, type DayVisitTotals } from './beat-productivity.visits';

const intArray = (ids: Iterable<number>) => `{${[...ids].map((id) => Math.trunc(id)).join(',')}}`;
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
  const visits = await dayVisitTotals(em, organizationId, only, date);
  const candidates = new Set<number>([...plans.map((p) => p.userId), ...visits.keys()]);
  if (candidates.size === 0) return { date, userId, rows: [] };
  const employees = await activeEmployees(em, organizationId, candidates);
  const leave = await approvedLeaveDays(em, organizationId, [...employees.keys()], date, date);
  const plansOf = new Map<number, DayPlan[]>();
  for (const plan of plans) plansOf.set(plan.userId, [...(plansOf.get(plan.userId) ?? []), plan]);
  const rows = [...employees].map(([id, name]) => rowOf(date, id, name, plansOf.get(id) ?? [], visits.get(id) ?? NO_VISITS, leave.get(id)?.get(date) ?? 0));
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

/** One employee's row: the figures, then the score (none on a full day of leave). */
function rowOf(date: string, userId: number, userName: string, plans: DayPlan[], visits: DayVisitTotals, leaveFraction: number): BeatProductivityRow {
  const planned = new Set(plans.flatMap((p) => p.outlets.map((o) => o.outletId)));
  const inPerson = visits.completed - visits.phoneCalls;
  const hasPlan = planned.size > 0;
  // Without a plan, the calls made stand in for the calls due.
  const due = hasPlan ? planned.size : visits.completed;
  const visitedPlanned = visits.visitedOutlets.filter((id) => planned.has(id)).length;
  const verifiedPlanned = visits.verifiedOutlets.filter((id) => planned.has(id)).length;
  const callRate = hasPlan ? pct(verifiedPlanned, planned.size) : pct(visits.geoVerified, visits.completed);
  const strikeRate = pct(visits.productive, due);
  const linesPerCall = visits.productive === 0 ? 0 : Math.round((visits.lines / visits.productive) * 100) / 100;
  const { firstCheckIn, lastCheckOut } = visits;
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
    totalCalls: visits.completed,
    productiveCalls: visits.productive,
    geoVerifiedCalls: visits.geoVerified,
    phoneCalls: visits.phoneCalls,
    callRate,
    strikeRate,
    linesPerCall,
    orderValue: visits.orderValue,
    firstCheckIn,
    lastCheckOut,
    timeInFieldMinutes,
    noSaleReasons: visits.noSaleReasons,
    onLeave: leaveFraction,
  };
  if (leaveFraction >= 1) return { ...head, score: null, components: [], reasons: ['On approved leave all day: not scored.'] };
  const scored = scoreDay({
    coveragePct: hasPlan ? pct(visitedPlanned, planned.size) : pct(inPerson, visits.completed),
    strikeRatePct: strikeRate,
    geoVerifiedPct: pct(visits.geoVerifiedInPerson, inPerson),
    linesPerCall,
    timeInFieldMinutes: timeInFieldMinutes ?? 0,
    leaveFraction,
  });
  return { ...head, ...scored };
}

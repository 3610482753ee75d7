import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, raw, sql, tenantSql } from '../../db/tenant-sql';
import { workspaceToday } from '../workspace/local-day';
import type { PlannedOutlet } from './day-view';
import { datesBetween, fallsOn, isoWeekday, type PlanDates } from './plan-dates';

/**
 * Day instances. A started day (date ≤ the workspace's today) is answered from its frozen
 * snapshot (beat_plan_day + beat_plan_day_outlet), written the first time it is needed: by a read,
 * by the hourly cron task, or before a template edit. A future day is computed from the current
 * templates and is not stored. A template version generates only days after its `revised_on`
 * (the local day it was last written), so an edit never reaches a day that had started.
 */

/** One employee's plan of one day. */
export interface DayPlan {
  date: string;
  userId: number;
  userName: string;
  beatPlanId: number;
  routeId: number;
  routeName: string;
  frozen: boolean;
  outlets: PlannedOutlet[];
}

interface TemplateRow extends PlanDates {
  id: number;
  userId: number;
  routeId: number;
  revisedOn: string;
}

/** Active templates on `date`'s weekday, of `userIds` (all when null), in id order. */
async function templatesOn(em: EntityManager, organizationId: number, date: string, userIds: readonly number[] | null): Promise<TemplateRow[]> {
  const t = tenantSql(organizationId, 'p');
  const users = userIds === null ? sql`true` : sql`p.user_id = any(${intArray(userIds)}::int[])`;
  return executeSql<TemplateRow>(
    em,
    sql`select p.id, p.user_id as "userId", p.route_id as "routeId", p.weekday, p.frequency,
          to_char(p.effective_from, 'YYYY-MM-DD') as "effectiveFrom", to_char(p.effective_to, 'YYYY-MM-DD') as "effectiveTo",
          to_char(p.revised_on, 'YYYY-MM-DD') as "revisedOn"
        from beat_plan p
        where ${t.owns()} and p.status = ${ActiveStatus.ACTIVE} and p.weekday = ${isoWeekday(date)} and ${users}
          and p.effective_from <= ${date}::date and (p.effective_to is null or p.effective_to >= ${date}::date)
        order by p.id`,
  );
}

/** Per employee, the template that generates `date` (the first by id; overlaps are refused when written). */
function generating(templates: readonly TemplateRow[], date: string, frozen: boolean): Map<number, TemplateRow> {
  const chosen = new Map<number, TemplateRow>();
  for (const p of templates) {
    if (chosen.has(p.userId) || !fallsOn(p, date)) continue;
    // A started day comes only from the version that was current when it started.
    if (frozen && p.revisedOn >= date) continue;
    chosen.set(p.userId, p);
  }
  return chosen;
}

/**
 * Writes the snapshots of `templates` on one started date, for the employees whose day is not
 * stored yet: one statement whatever their number (a day of 100 employees had taken 100 round
 * trips, most of the beat-productivity report's time; BENCHMARKS.md).
 */
async function freezeDays(em: EntityManager, organizationId: number, templates: ReadonlyArray<Pick<TemplateRow, 'id' | 'userId' | 'routeId'>>, date: string): Promise<void> {
  if (templates.length === 0) return;
  const t = tenantSql(organizationId, 'p');
  // The day rows (skipped for a stored day, and on a race) and their outlets, each template's active ones in order.
  await executeSql(
    em,
    sql`with chosen as (
          select c.plan_id, c.user_id, c.route_id
            from unnest(${intArray(templates.map((p) => p.id))}::int[], ${intArray(templates.map((p) => p.userId))}::int[], ${intArray(templates.map((p) => p.routeId))}::int[])
                 as c(plan_id, user_id, route_id)
           where not exists (select 1 from beat_plan_day d where d.organization_id = ${organizationId} and d.user_id = c.user_id and d.date = ${date}::date)),
        day as (
          insert into beat_plan_day (organization_id, user_id, date, beat_plan_id, route_id, frozen_at)
          select ${organizationId}, c.user_id, ${date}::date, c.plan_id, c.route_id, now() from chosen c order by c.user_id
          on conflict (organization_id, user_id, date) do nothing
          returning id, beat_plan_id
        )
        insert into beat_plan_day_outlet (organization_id, day_id, outlet_id, sequence)
        select ${organizationId}, day.id, po.outlet_id, row_number() over (partition by day.id order by po.sequence)
        from day join beat_plan p on p.organization_id = ${organizationId} and p.id = day.beat_plan_id
        ${t.join('beat_plan_outlet', 'po', 'po.beat_plan_id = p.id')}
        ${t.join('outlet', 'o', sql`o.id = po.outlet_id and o.status = ${ActiveStatus.ACTIVE}`)}`,
  );
}

/** Freezes `date` (a started day) for the employees (all when null) whose templates fall on it. */
export async function materialiseDay(em: EntityManager, organizationId: number, date: string, userIds: readonly number[] | null): Promise<number> {
  const chosen = [...generating(await templatesOn(em, organizationId, date, userIds), date, true).values()];
  await freezeDays(em, organizationId, chosen, date);
  return chosen.length;
}

/**
 * Before a template is changed: freezes every started day its current version generates and that
 * is not stored yet (normally only today; more when no read or cron run reached them).
 */
export async function freezeStartedDaysOf(em: EntityManager, organizationId: number, template: TemplateRow, today: string): Promise<void> {
  const from = template.revisedOn >= template.effectiveFrom ? nextDay(template.revisedOn) : template.effectiveFrom;
  const to = template.effectiveTo !== null && template.effectiveTo < today ? template.effectiveTo : today;
  if (from > to) return;
  for (const date of datesBetween(template, from, to)) await freezeDays(em, organizationId, [template], date);
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The template row freezeStartedDaysOf needs, by id (null when absent). */
export async function templateRowOf(em: EntityManager, organizationId: number, id: number): Promise<TemplateRow | null> {
  const t = tenantSql(organizationId, 'p');
  const [row] = await executeSql<TemplateRow>(
    em,
    sql`select p.id, p.user_id as "userId", p.route_id as "routeId", p.weekday, p.frequency,
          to_char(p.effective_from, 'YYYY-MM-DD') as "effectiveFrom", to_char(p.effective_to, 'YYYY-MM-DD') as "effectiveTo",
          to_char(p.revised_on, 'YYYY-MM-DD') as "revisedOn"
        from beat_plan p where ${t.owns()} and p.id = ${id} and p.status = ${ActiveStatus.ACTIVE}`,
  );
  return row ?? null;
}

interface DayHeadRow {
  dayId: number | null;
  userId: number;
  userName: string;
  beatPlanId: number;
  routeId: number;
  routeName: string;
}

/**
 * The plans of `date` for the employees (all when null), by employee id. Started days are frozen
 * first, then read from their snapshot; future days are computed from the templates.
 */
export async function dayPlans(em: EntityManager, organizationId: number, date: string, userIds: readonly number[] | null, today?: string): Promise<DayPlan[]> {
  const localToday = today ?? (await workspaceToday(em, organizationId));
  const t = tenantSql(organizationId, 'x');
  const users = (alias: string) => (userIds === null ? sql`true` : sql`${raw(alias)}.user_id = any(${intArray(userIds)}::int[])`);
  if (date <= localToday) {
    await materialiseDay(em, organizationId, date, userIds);
    const heads = await executeSql<DayHeadRow>(
      em,
      sql`select x.id as "dayId", x.user_id as "userId", u.first_name || ' ' || u.last_name as "userName",
            x.beat_plan_id as "beatPlanId", x.route_id as "routeId", r.name as "routeName"
          from beat_plan_day x ${t.join('app_user', 'u', 'u.id = x.user_id')} ${t.join('route', 'r', 'r.id = x.route_id')}
          where ${t.owns()} and x.date = ${date}::date and ${users('x')} order by x.user_id`,
    );
    const outlets = await executeSql<{ dayId: number } & PlannedOutlet>(
      em,
      sql`select x.day_id as "dayId", x.outlet_id as "outletId", o.name as "outletName", x.sequence
          from beat_plan_day_outlet x ${t.join('outlet', 'o', 'o.id = x.outlet_id')}
          where ${t.owns()} and x.day_id = any(${intArray(heads.map((h) => h.dayId!))}::int[]) order by x.sequence`,
    );
    return heads.map((h) => ({ ...headOf(h, date, true), outlets: outlets.filter((o) => o.dayId === h.dayId).map(plannedOf) }));
  }
  const chosen = [...generating(await templatesOn(em, organizationId, date, userIds), date, false).values()];
  if (chosen.length === 0) return [];
  const heads = await executeSql<DayHeadRow>(
    em,
    sql`select null as "dayId", x.user_id as "userId", u.first_name || ' ' || u.last_name as "userName",
          x.id as "beatPlanId", x.route_id as "routeId", r.name as "routeName"
        from beat_plan x ${t.join('app_user', 'u', 'u.id = x.user_id')} ${t.join('route', 'r', 'r.id = x.route_id')}
        where ${t.owns()} and x.id = any(${intArray(chosen.map((p) => p.id))}::int[]) order by x.user_id`,
  );
  const outlets = await executeSql<{ beatPlanId: number } & PlannedOutlet>(
    em,
    sql`select x.beat_plan_id as "beatPlanId", x.outlet_id as "outletId", o.name as "outletName",
          row_number() over (partition by x.beat_plan_id order by x.sequence)::int as sequence
        from beat_plan_outlet x ${t.join('outlet', 'o', sql`o.id = x.outlet_id and o.status = ${ActiveStatus.ACTIVE}`)}
        where ${t.owns()} and x.beat_plan_id = any(${intArray(chosen.map((p) => p.id))}::int[]) order by x.sequence`,
  );
  return heads.map((h) => ({ ...headOf(h, date, false), outlets: outlets.filter((o) => o.beatPlanId === h.beatPlanId).map(plannedOf) }));
}

/** A PostgreSQL int[] literal (bound as one value). */
function intArray(ids: readonly number[]): string {
  return `{${ids.map((id) => Math.trunc(id)).join(',')}}`;
}

function headOf(h: DayHeadRow, date: string, frozen: boolean): Omit<DayPlan, 'outlets'> {
  return { date, userId: h.userId, userName: h.userName, beatPlanId: h.beatPlanId, routeId: h.routeId, routeName: h.routeName, frozen };
}

function plannedOf(o: PlannedOutlet): PlannedOutlet {
  return { outletId: o.outletId, outletName: o.outletName, sequence: Number(o.sequence) };
}

/**
 * For the beat-productivity report: per employee (all when null), the outlet ids planned on `date`
 * in visiting order — the frozen snapshot for a started day (frozen now if it was not yet), the
 * current templates' plan for a future one.
 */
export async function plannedCallsOfDay(em: EntityManager, organizationId: number, userIds: readonly number[] | null, date: string): Promise<Map<number, number[]>> {
  const plans = await dayPlans(em, organizationId, date, userIds);
  return new Map(plans.map((p) => [p.userId, p.outlets.map((o) => o.outletId)]));
}

/** Hourly: freezes today's day instances of every workspace (each in its own time zone). */
export async function materialiseTodayEverywhere(em: EntityManager): Promise<number> {
  const workspaces = await em.execute<Array<{ organizationId: number; today: string }>>(
    `select c.organization_id as "organizationId", to_char((now() at time zone c.time_zone)::date, 'YYYY-MM-DD') as today
     from workspace_config c where exists (select 1 from beat_plan p where p.organization_id = c.organization_id and p.status = 1)`,
  );
  let frozen = 0;
  for (const w of workspaces) frozen += await materialiseDay(em, w.organizationId, w.today, null);
  return frozen;
}

import type { Pool, PoolClient } from 'pg';
import { ActiveStatus } from '../../src/db/active-status';
import { BeatFrequency } from '../../src/domains/beat-plans/beat-plan.entity';
import { fallsOn, isoWeekday } from '../../src/domains/beat-plans/plan-dates';
import { UserType } from '../../src/domains/users/user.entity';
import { VisitOutcome, VisitStatus } from '../../src/domains/visits/visit.entity';
import { KeyedRandom, md5Hex } from '../../src/seed/random';
import { addDays, localInstant } from '../../src/seed/workspace-plan';

/** Visits each active employee makes on the busy day (100 employees: 3,000 visits). */
export const VISITS_PER_EMPLOYEE = 30;

/** What the busy day holds, for the figure and the log. */
export interface BusyDay {
  date: string;
  /** Active employees with a visit or a plan that day (the report's rows). */
  employees: number;
  /** Employees whose beat plan generates the day. */
  planned: number;
  visits: number;
  /** Visits whose outcome is an order. */
  orderVisits: number;
}

/**
 * A bench-only dataset step on a seeded workspace (the seed keeps a realistic 1–3 beat days a week
 * per employee, i.e. about a third of them in the field on a given day, 4–12 outlets each): turns
 * one past day of its visit window into a day on which every active employee works a beat and
 * makes VISITS_PER_EMPLOYEE visits. The day is the as-of day's weekday a week before (the Saturday
 * before it when that is a Sunday, which no plan covers). Each employee without a plan that day gets
 * a weekly template of up to VISITS_PER_EMPLOYEE outlets of a route (effective four weeks before
 * the day, written before it, as the seed writes its plans); the seeded visits of the day stay and
 * are topped up: the planned outlets not yet visited first, then other outlets, from 07:00 local,
 * 8–14 minutes at each and 3–8 minutes between. An outcome is an order of the visitor's own that
 * day while one is left, else no sale / collection / phone call; 2% abandoned. Values come from
 * KeyedRandom, so the day is the same every time. Done once: a day already holding the visits is
 * left as it is.
 */
export async function ensureBusyDay(pool: Pool, organizationId: number, asOf: string, log: (line: string) => void): Promise<BusyDay> {
  const weekBack = addDays(asOf, -7);
  const date = isoWeekday(weekBack) === 7 ? addDays(weekBack, -1) : weekBack;
  const client = await pool.connect();
  try {
    const employees = (
      await client.query<{ id: number; route_id: number | null }>(
        'select id, route_id from app_user where organization_id = $1 and user_type = $2 and status = $3 order by id',
        [organizationId, UserType.EMPLOYEE, ActiveStatus.ACTIVE],
      )
    ).rows.map((e, no) => ({ ...e, no }));
    const target = employees.length * VISITS_PER_EMPLOYEE;
    const [{ n: already }] = (await client.query<{ n: number }>('select count(*)::int as n from visit where organization_id = $1 and visit_date = $2', [organizationId, date])).rows;
    if (already < target) {
      await client.query('begin');
      try {
        await fillDay(client, organizationId, date, employees);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
      log(`  busy day ${date}: visits topped up from ${already} to ${target}`);
    }
    return await describe(client, organizationId, date, employees.map((e) => e.id));
  } finally {
    client.release();
  }
}

interface Employee {
  id: number;
  no: number;
  route_id: number | null;
}

async function fillDay(client: PoolClient, org: number, date: string, employees: Employee[]): Promise<void> {
  const r = new KeyedRandom(`bench-busy-day:${org}:${date}`);
  const rows = async <T>(text: string, values: unknown[]) => (await client.query(text, values)).rows as T[];
  const outlets = await rows<{ id: number; route_id: number; lat: number; lng: number }>(
    `select id, route_id, latitude::float8 as lat, longitude::float8 as lng from outlet
      where organization_id = $1 and status = $2 and latitude is not null order by id`,
    [org, ActiveStatus.ACTIVE],
  );
  const outletById = new Map(outlets.map((o) => [o.id, o]));
  const routes = [...new Set(outlets.map((o) => o.route_id))].sort((a, b) => a - b);

  // The templates generating the day (the first by id per employee, as the service picks).
  const templates = await rows<{ id: number; user_id: number; weekday: number; frequency: BeatFrequency; effective_from: string; effective_to: string | null }>(
    `select id, user_id, weekday, frequency, to_char(effective_from, 'YYYY-MM-DD') as effective_from, to_char(effective_to, 'YYYY-MM-DD') as effective_to
       from beat_plan where organization_id = $1 and status = $2 and weekday = $3 order by id`,
    [org, ActiveStatus.ACTIVE, isoWeekday(date)],
  );
  const planOf = new Map<number, number>();
  for (const p of templates) {
    const dates = { weekday: p.weekday, frequency: p.frequency, effectiveFrom: p.effective_from, effectiveTo: p.effective_to };
    if (!planOf.has(p.user_id) && fallsOn(dates, date)) planOf.set(p.user_id, p.id);
  }
  // A weekly template for each employee without one that day.
  const effectiveFrom = addDays(date, -28);
  const written = localInstant(addDays(effectiveFrom, -3), 11 * 3600);
  for (const e of employees.filter((x) => !planOf.has(x.id))) {
    const routeId = e.route_id !== null && routes.includes(e.route_id) ? e.route_id : routes[r.below(`route:${e.no}`, routes.length)];
    const [plan] = await rows<{ id: number }>(
      `insert into beat_plan (organization_id, user_id, route_id, weekday, frequency, effective_from, status, revised_on, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) returning id`,
      [org, e.id, routeId, isoWeekday(date), BeatFrequency.WEEKLY, effectiveFrom, ActiveStatus.ACTIVE, addDays(effectiveFrom, -3), written],
    );
    const stops = outlets.filter((o) => o.route_id === routeId).slice(0, VISITS_PER_EMPLOYEE);
    await client.query(
      `insert into beat_plan_outlet (organization_id, beat_plan_id, outlet_id, sequence, created_at, updated_at)
       select $1, $2, o, s, $4, $4 from unnest($3::int[]) with ordinality as x(o, s)`,
      [org, plan.id, stops.map((o) => o.id), written],
    );
    planOf.set(e.id, plan.id);
  }
  const planned = await rows<{ beat_plan_id: number; outlet_id: number }>(
    'select beat_plan_id, outlet_id from beat_plan_outlet where organization_id = $1 and beat_plan_id = any($2::int[]) order by beat_plan_id, sequence',
    [org, [...planOf.values()]],
  );
  const visited = await rows<{ user_id: number; outlet_id: number }>('select user_id, outlet_id from visit where organization_id = $1 and visit_date = $2', [org, date]);
  const orders = await rows<{ id: number; created_by_user_id: number }>(
    `select o.id, o.created_by_user_id from sales_order o
      where o.organization_id = $1 and o.order_date = $2 and o.cancelled_at is null
        and not exists (select 1 from visit v where v.organization_id = o.organization_id and v.order_id = o.id)
      order by o.id`,
    [org, date],
  );
  const reasons = (await rows<{ id: number }>('select id from no_sale_reason where organization_id = $1 and status = $2 order by id', [org, ActiveStatus.ACTIVE])).map((x) => x.id);
  const [config] = await rows<{ visit_radius_m: number; visit_min_dwell_minutes: number }>('select visit_radius_m, visit_min_dwell_minutes from workspace_config where organization_id = $1', [org]);

  const columns: Record<string, unknown[]> = {
    ref: [], user: [], outlet: [], status: [], inAt: [], lat: [], lng: [], outAt: [], distance: [], dwell: [], verified: [], outcome: [], order: [], reason: [],
  };
  for (const e of employees) {
    const seen = new Set(visited.filter((v) => v.user_id === e.id).map((v) => v.outlet_id));
    const own = planned.filter((p) => p.beat_plan_id === planOf.get(e.id)).map((p) => p.outlet_id);
    const start = (e.no * 37) % outlets.length;
    const others = [...outlets.slice(start), ...outlets.slice(0, start)].map((o) => o.id);
    const todo = [...new Set([...own, ...others])].filter((id) => !seen.has(id)).slice(0, VISITS_PER_EMPLOYEE - Math.min(seen.size, VISITS_PER_EMPLOYEE));
    const ownOrders = orders.filter((o) => o.created_by_user_id === e.id).map((o) => o.id);
    let clock = 7 * 3600;
    todo.forEach((outletId, i) => {
      const k = `${e.no}:${i}`;
      const o = outletById.get(outletId)!;
      const dwell = (8 + r.below(`${k}:dwell`, 7)) * 60;
      const near = r.chance(`${k}:near`, 0.85);
      const distance = near ? 3 + r.below(`${k}:m`, 95) : 150 + r.below(`${k}:m`, 1350);
      const abandoned = r.chance(`${k}:abandon`, 0.02);
      const draw = r.unit(`${k}:outcome`);
      const outcome = abandoned
        ? null
        : ownOrders.length > 0 && draw < 0.7
          ? VisitOutcome.ORDER
          : draw < 0.75
            ? VisitOutcome.NO_SALE
            : draw < 0.93
              ? VisitOutcome.COLLECTION_ONLY
              : VisitOutcome.PHONE_CALL;
      const inAt = localInstant(date, clock);
      columns.ref.push(uuidOf(`bench-busy-day:${org}:${date}:${k}`));
      columns.user.push(e.id);
      columns.outlet.push(outletId);
      columns.status.push(abandoned ? VisitStatus.ABANDONED : VisitStatus.COMPLETED);
      columns.inAt.push(inAt);
      columns.lat.push(o.lat + distance / 111_320);
      columns.lng.push(o.lng);
      columns.outAt.push(abandoned ? null : new Date(inAt.getTime() + dwell * 1000));
      columns.distance.push(distance);
      columns.dwell.push(abandoned ? null : dwell);
      columns.verified.push(abandoned ? null : distance <= config.visit_radius_m && dwell >= config.visit_min_dwell_minutes * 60);
      columns.outcome.push(outcome);
      columns.order.push(outcome === VisitOutcome.ORDER ? ownOrders.shift()! : null);
      columns.reason.push(outcome === VisitOutcome.NO_SALE ? reasons[r.below(`${k}:reason`, reasons.length)] : null);
      clock += dwell + (3 + r.below(`${k}:travel`, 6)) * 60;
    });
  }
  await client.query(
    `insert into visit (organization_id, client_ref, user_id, outlet_id, status, visit_date, check_in_at, check_in_device_time, check_in_latitude, check_in_longitude,
                        check_in_accuracy_m, check_in_is_mock, check_out_at, check_out_device_time, check_out_latitude, check_out_longitude, check_out_accuracy_m,
                        check_out_is_mock, distance_from_outlet_m, dwell_seconds, geo_verified, radius_m, min_dwell_minutes, outcome, order_id, no_sale_reason_id,
                        created_at, updated_at)
     select $1, c, u, o, s, $2::date, ia, ia, la, ln, 8, false, oa, oa, case when oa is null then null else la end, case when oa is null then null else ln end,
            case when oa is null then null else 8 end, case when oa is null then null else false end, d, dw, gv,
            case when oa is null then null else $3::int end, case when oa is null then null else $4::int end, oc, ord, rs, ia, coalesce(oa, ia)
       from unnest($5::uuid[], $6::int[], $7::int[], $8::smallint[], $9::timestamptz[], $10::float8[], $11::float8[], $12::timestamptz[], $13::real[],
                   $14::int[], $15::boolean[], $16::smallint[], $17::int[], $18::int[]) as x(c, u, o, s, ia, la, ln, oa, d, dw, gv, oc, ord, rs)`,
    [org, date, config.visit_radius_m, config.visit_min_dwell_minutes, ...Object.values(columns)],
  );
}

async function describe(client: PoolClient, org: number, date: string, employeeIds: number[]): Promise<BusyDay> {
  const [v] = (
    await client.query<{ visits: number; employees: number; orders: number }>(
      `select count(*)::int as visits, count(distinct user_id)::int as employees, count(order_id)::int as orders
         from visit where organization_id = $1 and visit_date = $2 and user_id = any($3::int[])`,
      [org, date, employeeIds],
    )
  ).rows;
  const templates = (
    await client.query<{ user_id: number; weekday: number; frequency: BeatFrequency; effective_from: string; effective_to: string | null }>(
      `select user_id, weekday, frequency, to_char(effective_from, 'YYYY-MM-DD') as effective_from, to_char(effective_to, 'YYYY-MM-DD') as effective_to
         from beat_plan where organization_id = $1 and status = $2 and weekday = $3 and user_id = any($4::int[])`,
      [org, ActiveStatus.ACTIVE, isoWeekday(date), employeeIds],
    )
  ).rows;
  const planned = new Set(
    templates.filter((p) => fallsOn({ weekday: p.weekday, frequency: p.frequency, effectiveFrom: p.effective_from, effectiveTo: p.effective_to }, date)).map((p) => p.user_id),
  );
  return { date, employees: v.employees, planned: planned.size, visits: v.visits, orderVisits: v.orders };
}

function uuidOf(text: string): string {
  const h = md5Hex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

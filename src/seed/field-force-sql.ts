import type { ClientBase } from 'pg';
import type { RowCounts } from './masters-sql';
import { KeyedRandom, md5Hex } from './random';
import { addDays, localInstant } from './workspace-plan';
import { fallsOn } from '../domains/beat-plans/plan-dates';
import { BeatFrequency } from '../domains/beat-plans/beat-plan.entity';
import { VisitOutcome, VisitStatus } from '../domains/visits/visit.entity';
import { LeaveStatus, LeaveType } from '../domains/leaves/leave.entity';
import { SalesPeriodType } from '../domains/sales-plan/sales-target.entity';
import { haversineMetres } from '../domains/tracking/distance';
import { ActiveStatus } from '../db/active-status';
import { UserType } from '../domains/users/user.entity';

/**
 * The field force of one seeded workspace, after its masters and orders: no-sale reasons, outlets'
 * coordinates (the untagged ones get tagged), beat plan templates, visits over the last VISIT_DAYS
 * days on the planned outlets, positions along the visits of the last POSITION_DAYS days, leaves and
 * monthly sales targets. Values come from KeyedRandom (every value a function of its key), rows are
 * read back ordered by id (the insertion order of the plan), and each table is one multi-row
 * INSERT … SELECT FROM unnest, organization_id on every row.
 *
 * The rules the service applies are kept: one visit in progress per user at most, unique client_ref,
 * geo_verified = distance ≤ radius and dwell ≥ the minimum (the workspace's settings, stored on the
 * visit), an order outcome names an order the visitor created that day, a no-sale names a reason;
 * a user's leaves never overlap and no visits fall on an approved leave day.
 */

/** Days of visits before the as-of day. */
export const VISIT_DAYS = 28;
/** Days (the last ones) whose visits also get a position trail. */
export const POSITION_DAYS = 3;
/** Minutes between two positions of a trail. */
const POSITION_EVERY_MIN = 5;

const NO_SALE_REASONS: ReadonlyArray<[string, ActiveStatus]> = [
  ['Shop closed', ActiveStatus.ACTIVE],
  ['Owner not available', ActiveStatus.ACTIVE],
  ['Enough stock', ActiveStatus.ACTIVE],
  ['Payment pending', ActiveStatus.ACTIVE],
  ['Credit limit reached', ActiveStatus.ACTIVE],
  ['Price too high', ActiveStatus.ACTIVE],
  ['Prefers a competitor brand', ActiveStatus.ACTIVE],
  ['Asked to come later', ActiveStatus.ACTIVE],
  ['Festival holiday', ActiveStatus.INACTIVE],
];

const LEAVE_REASONS = ['Family function', 'Fever', 'Personal work', 'Travel to native place', 'Medical appointment', 'Child unwell'];

interface Outlet {
  id: number;
  /** Its place in the workspace's outlets (by id, i.e. insertion order): the random keys use it, never the serial id. */
  no: number;
  townId: number;
  routeId: number;
  lat: number | null;
  lng: number | null;
}
interface Point {
  lat: number;
  lng: number;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const round1 = (x: number) => Math.round(x * 10) / 10;
const uuidOf = (text: string) => {
  const h = md5Hex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const secondsLater = (t: Date, s: number) => new Date(t.getTime() + s * 1000);

/** The point `metres` away from p at `bearing` radians (flat-earth step, fine at these distances). */
function offset(p: Point, metres: number, bearing: number): Point {
  const dLat = (metres * Math.cos(bearing)) / 111_320;
  const dLng = (metres * Math.sin(bearing)) / (111_320 * Math.cos((p.lat * Math.PI) / 180));
  return { lat: round6(p.lat + dLat), lng: round6(p.lng + dLng) };
}

/** One multi-row statement: $1 is the organization, then one array per column (nothing run for no rows), then `extra` scalars. */
async function insertRows(client: ClientBase, sql: string, org: number, columns: unknown[][], extra: unknown[] = []): Promise<number> {
  if (columns[0].length === 0) return 0;
  return (await client.query(sql, [org, ...columns, ...extra])).rowCount ?? 0;
}

export async function insertFieldForce(client: ClientBase, options: { key: string; organizationId: number; asOf: string }, counts: RowCounts): Promise<void> {
  const { organizationId: org, asOf } = options;
  const r = new KeyedRandom(`${options.key}:ff`);
  const bump = (table: string, n: number) => (counts[table] = (counts[table] ?? 0) + n);
  const q = async <T>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as T[];
  const lastDay = addDays(asOf, -1);
  const firstVisitDay = addDays(asOf, -VISIT_DAYS);
  const createdAt = localInstant(addDays(firstVisitDay, -60), 10 * 3600);

  // No-sale reasons.
  const reasons = await q<{ id: number; status: number }>(
    `insert into no_sale_reason (organization_id, name, status, created_at, updated_at)
     select $1, name, status, $4, $4 from unnest($2::text[], $3::smallint[]) with ordinality as x(name, status, n) order by n returning id, status`,
    [org, NO_SALE_REASONS.map((x) => x[0]), NO_SALE_REASONS.map((x) => x[1]), createdAt],
  );
  bump('no_sale_reason', reasons.length);
  const activeReasons = reasons.filter((x) => x.status === ActiveStatus.ACTIVE).map((x) => x.id).sort((a, b) => a - b);

  const [config] = await q<{ visit_radius_m: number; visit_min_dwell_minutes: number }>(
    'select visit_radius_m, visit_min_dwell_minutes from workspace_config where organization_id = $1',
    [org],
  );
  const radiusM = config.visit_radius_m;
  const minDwellS = config.visit_min_dwell_minutes * 60;

  // Outlets: the untagged ones are tagged near the tagged outlets of their route (else town, else workspace).
  const outlets = (
    await q<{ id: number; town_id: number; route_id: number; latitude: string | null; longitude: string | null }>(
      'select id, town_id, route_id, latitude, longitude from outlet where organization_id = $1 and status = $2 order by id',
      [org, ActiveStatus.ACTIVE],
    )
  ).map((o, no): Outlet => ({ id: o.id, no, townId: o.town_id, routeId: o.route_id, lat: o.latitude == null ? null : Number(o.latitude), lng: o.longitude == null ? null : Number(o.longitude) }));
  const centre = (list: Outlet[]): Point | null => {
    const tagged = list.filter((o) => o.lat != null);
    if (tagged.length === 0) return null;
    return { lat: tagged.reduce((a, o) => a + o.lat!, 0) / tagged.length, lng: tagged.reduce((a, o) => a + o.lng!, 0) / tagged.length };
  };
  const untagged = outlets.filter((o) => o.lat == null);
  const tagAt: Date[] = [];
  for (const o of untagged) {
    const around = centre(outlets.filter((x) => x.routeId === o.routeId)) ?? centre(outlets.filter((x) => x.townId === o.townId)) ?? centre(outlets) ?? { lat: 19.076, lng: 72.8777 };
    const p = offset(around, 200 + r.below(`tag:${o.no}:m`, 2500), r.unit(`tag:${o.no}:b`) * 2 * Math.PI);
    o.lat = p.lat;
    o.lng = p.lng;
    tagAt.push(localInstant(addDays(firstVisitDay, -1 - r.below(`tag:${o.no}:day`, 30)), 9 * 3600 + r.below(`tag:${o.no}:s`, 9 * 3600)));
  }
  await insertRows(
    client,
    `update outlet o set latitude = x.lat, longitude = x.lng, tagged_at = x.at, updated_at = greatest(o.updated_at, x.at)
       from unnest($2::int[], $3::numeric[], $4::numeric[], $5::timestamptz[]) as x(id, lat, lng, at)
      where o.organization_id = $1 and o.id = x.id`,
    org, [untagged.map((o) => o.id), untagged.map((o) => o.lat), untagged.map((o) => o.lng), tagAt],
  );
  const byRoute = new Map<number, Outlet[]>();
  for (const o of outlets) byRoute.set(o.routeId, [...(byRoute.get(o.routeId) ?? []), o]);
  const routes = [...byRoute.keys()].sort((a, b) => a - b);

  const users = await q<{ id: number; user_type: number; route_id: number | null }>(
    'select id, user_type, route_id from app_user where organization_id = $1 and status = $2 and user_type in ($3, $4) order by id',
    [org, ActiveStatus.ACTIVE, UserType.ADMIN, UserType.EMPLOYEE],
  );
  const admins = users.filter((u) => u.user_type === UserType.ADMIN).map((u) => u.id);
  // Numbered in insertion order: the random keys use the number, never the serial id.
  const employees = users.filter((u) => u.user_type === UserType.EMPLOYEE).map((u, no) => ({ ...u, no }));
  if (routes.length === 0 || employees.length === 0) return;

  // Leaves: 0-3 per employee, in separate 30-day slots (never overlapping), from 120 days back to 30 ahead.
  const leaves: Array<{
    userId: number; type: LeaveType; from: string; to: string; half: boolean; days: number; reason: string;
    status: LeaveStatus; decidedBy: number | null; decidedAt: Date | null; note: string | null; createdAt: Date;
  }> = [];
  for (const e of employees) {
    // The first employee has one leave of each kind (rejected, approved, and one open ahead), so every workspace shows all three.
    const slots = e.no === 0 ? [1, 3, 5] : r.sample(`leave:${e.no}:slots`, [0, 1, 2, 3, 4], r.below(`leave:${e.no}:n`, 4));
    const forced: Record<number, LeaveStatus> = e.no === 0 ? { 1: LeaveStatus.REJECTED, 3: LeaveStatus.APPROVED, 5: LeaveStatus.OPEN } : {};
    for (const slot of slots) {
      const k = `leave:${e.no}:${slot}`;
      const from = addDays(asOf, -120 + slot * 30 + r.below(`${k}:start`, 25));
      const half = r.chance(`${k}:half`, 0.15);
      const span = half ? 1 : r.between(`${k}:span`, 1, 4);
      const to = addDays(from, span - 1);
      const future = from >= asOf;
      const draw = r.unit(`${k}:status`);
      const status = forced[slot] ?? future ? (draw < 0.6 ? LeaveStatus.OPEN : LeaveStatus.APPROVED) : draw < 0.75 ? LeaveStatus.APPROVED : draw < 0.9 ? LeaveStatus.REJECTED : LeaveStatus.OPEN;
      // Applied 2-10 days ahead, but never after the as-of day has begun (a leave further ahead was applied in the last days).
      const appliedDay = future ? addDays(asOf, -1 - r.below(`${k}:ahead`, 5)) : addDays(from, -r.between(`${k}:ahead`, 2, 10));
      const applied = localInstant(appliedDay, 9 * 3600 + r.below(`${k}:s`, 10 * 3600));
      const decided = status === LeaveStatus.APPROVED || status === LeaveStatus.REJECTED;
      leaves.push({
        userId: e.id,
        type: r.pick(`${k}:type`, [LeaveType.CASUAL, LeaveType.CASUAL, LeaveType.SICK, LeaveType.EARNED, LeaveType.UNPAID]),
        from,
        to,
        half,
        days: half ? 0.5 : span,
        reason: r.pick(`${k}:reason`, LEAVE_REASONS),
        status,
        decidedBy: decided && admins.length > 0 ? r.pick(`${k}:admin`, admins) : null,
        decidedAt: decided && admins.length > 0 ? secondsLater(applied, future ? 600 + r.below(`${k}:decide`, 3600) : 3600 + r.below(`${k}:decide`, 86_400)) : null,
        note: status === LeaveStatus.REJECTED ? 'Route cannot be left uncovered that week' : null,
        createdAt: applied,
      });
    }
  }
  bump(
    'leave_application',
    await insertRows(
      client,
      `insert into leave_application (organization_id, user_id, leave_type, from_date, to_date, half_day, days, reason, status, decided_by_user_id, decided_at, decision_note, created_at, updated_at)
       select $1, u, t, f, tt, h, d, re, s, db, da, nt, c, coalesce(da, c)
         from unnest($2::int[], $3::smallint[], $4::date[], $5::date[], $6::boolean[], $7::numeric[], $8::text[], $9::smallint[], $10::int[], $11::timestamptz[], $12::text[], $13::timestamptz[])
              with ordinality as x(u, t, f, tt, h, d, re, s, db, da, nt, c, n) order by n`,
      org, [...(['userId', 'type', 'from', 'to', 'half', 'days', 'reason', 'status', 'decidedBy', 'decidedAt', 'note', 'createdAt'] as const).map((f) => leaves.map((l) => l[f]))],
    ),
  );
  const onLeave = (userId: number, day: string) => leaves.some((l) => l.userId === userId && l.status === LeaveStatus.APPROVED && l.from <= day && day <= l.to);

  // Beat plans: each employee × 1-3 weekdays, the first on their own route, mostly weekly. Written
  // (created_at, revised_on) three days before they take effect, so every visit day is generated from them.
  const effectiveFrom = addDays(firstVisitDay, -7 * r.between('plan:weeks', 2, 8));
  const plans: Array<{ userId: number; routeId: number; weekday: number; frequency: BeatFrequency; outlets: Outlet[] }> = [];
  for (const e of employees) {
    const weekdays = r.sample(`plan:${e.no}:days`, [1, 2, 3, 4, 5, 6], r.between(`plan:${e.no}:n`, 1, 3)).sort((a, b) => a - b);
    weekdays.forEach((weekday, i) => {
      const k = `plan:${e.no}:${weekday}`;
      const routeId = i === 0 && e.route_id != null && byRoute.has(e.route_id) ? e.route_id : r.pick(`${k}:route`, routes);
      const f = r.unit(`${k}:freq`);
      const frequency = f < 0.85 ? BeatFrequency.WEEKLY : f < 0.95 ? BeatFrequency.FORTNIGHTLY : BeatFrequency.MONTHLY;
      const pool = byRoute.get(routeId)!;
      plans.push({ userId: e.id, routeId, weekday, frequency, outlets: r.sample(`${k}:outlets`, pool, r.between(`${k}:count`, 4, 12)) });
    });
  }
  // A monthly plan must not start on a fifth weekday of its month (the service refuses those): move its start a week on.
  const planFrom = plans.map((p) => {
    let from = effectiveFrom;
    if (p.frequency === BeatFrequency.MONTHLY) {
      while (Number(firstOn(from, p.weekday).slice(8, 10)) > 28) from = addDays(from, 7);
    }
    return from;
  });
  const planRows = await q<{ id: number }>(
    `insert into beat_plan (organization_id, user_id, route_id, weekday, frequency, effective_from, status, revised_on, created_at, updated_at)
     select $1, u, rt, w, f, ef, ${ActiveStatus.ACTIVE}, $8::date, $7, $7
       from unnest($2::int[], $3::int[], $4::smallint[], $5::smallint[], $6::date[]) with ordinality as x(u, rt, w, f, ef, n) order by n
     returning id`,
    [
      org,
      plans.map((p) => p.userId),
      plans.map((p) => p.routeId),
      plans.map((p) => p.weekday),
      plans.map((p) => p.frequency),
      planFrom,
      localInstant(addDays(effectiveFrom, -3), 11 * 3600),
      addDays(effectiveFrom, -3),
    ],
  );
  const planIds = planRows.map((x) => x.id).sort((a, b) => a - b);
  bump('beat_plan', planIds.length);
  const stops = plans.flatMap((p, i) => p.outlets.map((o, s) => ({ planId: planIds[i], outletId: o.id, sequence: s + 1 })));
  bump(
    'beat_plan_outlet',
    await insertRows(
      client,
      `insert into beat_plan_outlet (organization_id, beat_plan_id, outlet_id, sequence, created_at, updated_at)
       select $1, p, o, s, $5, $5 from unnest($2::int[], $3::int[], $4::int[]) with ordinality as x(p, o, s, n) order by n`,
      org, [stops.map((s) => s.planId), stops.map((s) => s.outletId), stops.map((s) => s.sequence)], [localInstant(addDays(effectiveFrom, -3), 11 * 3600)],
    ),
  );

  // The employees' own orders of the visit days, to link as outcomes (each at most once).
  const orders = await q<{ id: number; created_by_user_id: number; order_date: string }>(
    `select id, created_by_user_id, to_char(order_date, 'YYYY-MM-DD') as order_date from sales_order
      where organization_id = $1 and order_date between $2 and $3 and created_by_user_id = any($4::int[]) and cancelled_at is null order by id`,
    [org, firstVisitDay, lastDay, employees.map((e) => e.id)],
  );
  const ordersOf = new Map<string, number[]>();
  for (const o of orders) ordersOf.set(`${o.created_by_user_id}:${o.order_date}`, [...(ordersOf.get(`${o.created_by_user_id}:${o.order_date}`) ?? []), o.id]);

  // Visits, day by day, in each plan's outlet order.
  interface VisitRow {
    clientRef: string; userId: number; outletId: number; status: VisitStatus; day: string;
    inAt: Date; inDevice: Date; inLat: number; inLng: number; inAcc: number; inMock: boolean;
    outAt: Date | null; outDevice: Date | null; outLat: number | null; outLng: number | null; outAcc: number | null; outMock: boolean | null;
    distance: number; dwell: number | null; verified: boolean | null; radius: number | null; minDwell: number | null;
    outcome: VisitOutcome | null; orderId: number | null; reasonId: number | null; remarks: string | null;
  }
  const visits: VisitRow[] = [];
  for (let d = 0; d < VISIT_DAYS; d++) {
    const day = addDays(firstVisitDay, d);
    for (const e of employees) {
      if (onLeave(e.id, day)) continue;
      const todays = plans
        .map((p, i) => ({ p, i }))
        .filter(({ p, i }) => p.userId === e.id && fallsOn({ weekday: p.weekday, frequency: p.frequency, effectiveFrom: planFrom[i], effectiveTo: null }, day));
      let clock = 9 * 3600 + 1800 + r.below(`visit:${e.no}:${day}:start`, 3600);
      const dayOrders = [...(ordersOf.get(`${e.id}:${day}`) ?? [])];
      for (const { p } of todays) {
        for (const o of p.outlets) {
          const k = `visit:${e.no}:${day}:${o.no}`;
          // The working day ends at 19:00: outlets left by then wait for another day.
          if (clock > 19 * 3600) break;
          if (r.chance(`${k}:skip`, 0.15)) continue;
          const g = r.unit(`${k}:geo`);
          const metres = g < 0.82 ? 3 + r.below(`${k}:m`, 95) : g < 0.9 ? 100 + r.below(`${k}:m`, 200) : 300 + r.below(`${k}:m`, 1700);
          const at = offset({ lat: o.lat!, lng: o.lng! }, metres, r.unit(`${k}:bearing`) * 2 * Math.PI);
          const distance = round1(haversineMetres({ latitude: at.lat, longitude: at.lng }, { latitude: o.lat!, longitude: o.lng! }));
          const inDevice = localInstant(day, clock);
          const dwell = r.chance(`${k}:short`, 0.1) ? 20 + r.below(`${k}:dwell`, minDwellS - 20) : minDwellS + r.below(`${k}:dwell`, 20 * 60);
          clock += dwell + 600 + r.below(`${k}:travel`, 1800);
          const abandoned = r.chance(`${k}:abandon`, 0.02);
          let outcome: VisitOutcome | null = null;
          let orderId: number | null = null;
          let reasonId: number | null = null;
          if (!abandoned) {
            const o2 = r.unit(`${k}:outcome`);
            if (dayOrders.length > 0 && o2 < 0.7) {
              outcome = VisitOutcome.ORDER;
              orderId = dayOrders.shift()!;
            } else {
              const o3 = r.unit(`${k}:other`);
              if (o3 < 0.6) {
                outcome = VisitOutcome.NO_SALE;
                reasonId = r.pick(`${k}:reason`, activeReasons);
              } else outcome = o3 < 0.92 ? VisitOutcome.COLLECTION_ONLY : VisitOutcome.PHONE_CALL;
            }
          }
          const out = offset(at, r.below(`${k}:drift`, 25), r.unit(`${k}:drift:b`) * 2 * Math.PI);
          const outDevice = secondsLater(inDevice, dwell);
          visits.push({
            clientRef: uuidOf(`${options.key}:${k}`),
            userId: e.id,
            outletId: o.id,
            status: abandoned ? VisitStatus.ABANDONED : VisitStatus.COMPLETED,
            day,
            inAt: secondsLater(inDevice, 1 + r.below(`${k}:lag`, 20)),
            inDevice,
            inLat: at.lat,
            inLng: at.lng,
            inAcc: 4 + r.below(`${k}:acc`, 30),
            inMock: false,
            outAt: abandoned ? null : secondsLater(outDevice, 1 + r.below(`${k}:lag2`, 20)),
            outDevice: abandoned ? null : outDevice,
            outLat: abandoned ? null : out.lat,
            outLng: abandoned ? null : out.lng,
            outAcc: abandoned ? null : 4 + r.below(`${k}:acc2`, 30),
            outMock: abandoned ? null : false,
            distance,
            dwell: abandoned ? null : dwell,
            verified: abandoned ? null : distance <= radiusM && dwell >= minDwellS,
            radius: abandoned ? null : radiusM,
            minDwell: abandoned ? null : minDwellS / 60,
            outcome,
            orderId,
            reasonId,
            remarks: outcome === VisitOutcome.NO_SALE && r.chance(`${k}:remark`, 0.3) ? 'Visit again next week' : null,
          });
        }
      }
    }
  }
  // A few employees are still in the last outlet of the last day (their last visit, in progress).
  for (const e of employees) {
    const last = visits.findLast((v) => v.userId === e.id);
    if (!last || last.day !== lastDay || !r.chance(`open:${e.no}`, 0.3)) continue;
    Object.assign(last, {
      status: VisitStatus.IN_PROGRESS, outAt: null, outDevice: null, outLat: null, outLng: null, outAcc: null, outMock: null,
      dwell: null, verified: null, radius: null, minDwell: null, outcome: null, orderId: null, reasonId: null, remarks: null,
    });
  }
  const visitFields = [
    'clientRef', 'userId', 'outletId', 'status', 'day', 'inAt', 'inDevice', 'inLat', 'inLng', 'inAcc', 'inMock', 'outAt', 'outDevice',
    'outLat', 'outLng', 'outAcc', 'outMock', 'distance', 'dwell', 'verified', 'radius', 'minDwell', 'outcome', 'orderId', 'reasonId', 'remarks',
  ] as const;
  bump(
    'visit',
    await insertRows(
      client,
      `insert into visit (organization_id, client_ref, user_id, outlet_id, status, visit_date, check_in_at, check_in_device_time, check_in_latitude, check_in_longitude,
                          check_in_accuracy_m, check_in_is_mock, check_out_at, check_out_device_time, check_out_latitude, check_out_longitude, check_out_accuracy_m,
                          check_out_is_mock, distance_from_outlet_m, dwell_seconds, geo_verified, radius_m, min_dwell_minutes, outcome, order_id, no_sale_reason_id, remarks,
                          created_at, updated_at)
       select $1, c, u, o, s, d, ia, idv, ila, iln, iac, imk, oa, odv, ola, oln, oac, omk, dist, dw, gv, rad, md, oc, ord, rs, rm, ia, coalesce(oa, ia)
         from unnest($2::uuid[], $3::int[], $4::int[], $5::smallint[], $6::date[], $7::timestamptz[], $8::timestamptz[], $9::float8[], $10::float8[], $11::real[],
                     $12::boolean[], $13::timestamptz[], $14::timestamptz[], $15::float8[], $16::float8[], $17::real[], $18::boolean[], $19::real[], $20::int[],
                     $21::boolean[], $22::int[], $23::int[], $24::smallint[], $25::int[], $26::int[], $27::text[])
              with ordinality as x(c, u, o, s, d, ia, idv, ila, iln, iac, imk, oa, odv, ola, oln, oac, omk, dist, dw, gv, rad, md, oc, ord, rs, rm, n)
        order by n`,
      org, [...visitFields.map((f) => visits.map((v) => v[f]))],
    ),
  );

  // Positions along the visits of the last days: every few minutes from half an hour before the
  // first check-in to the last check-out (or now-ish for a visit in progress), at the outlet during a
  // visit and on the straight line between two visits.
  const positions: Array<{ userId: number; at: Date; lat: number; lng: number; acc: number; speed: number; heading: number | null; battery: number }> = [];
  const trailFrom = addDays(asOf, -POSITION_DAYS);
  for (const e of employees) {
    for (let d = 0; d < POSITION_DAYS; d++) {
      const day = addDays(trailFrom, d);
      const stops = visits.filter((v) => v.userId === e.id && v.day === day);
      if (stops.length === 0) continue;
      const legs = stops.map((v) => ({ from: v.inDevice.getTime(), to: (v.outDevice ?? secondsLater(v.inDevice, 15 * 60)).getTime(), at: { lat: v.inLat, lng: v.inLng } }));
      const start = legs[0].from - 30 * 60_000;
      const end = legs[legs.length - 1].to;
      const home = offset(legs[0].at, 2000 + r.below(`pos:${e.no}:home`, 3000), r.unit(`pos:${e.no}:home:b`) * 2 * Math.PI);
      const step = POSITION_EVERY_MIN * 60_000;
      for (let t = start, i = 0; t <= end; t += step, i++) {
        const k = `pos:${e.no}:${day}:${i}`;
        const next = legs.findIndex((l) => l.to >= t);
        const leg = legs[next];
        let p: Point;
        let speed = 0;
        let heading: number | null = null;
        if (t >= leg.from) p = offset(leg.at, r.below(`${k}:j`, 12), r.unit(`${k}:jb`) * 2 * Math.PI);
        else {
          const prev = next === 0 ? { to: start, at: home } : legs[next - 1];
          const f = (t - prev.to) / (leg.from - prev.to);
          p = { lat: round6(prev.at.lat + (leg.at.lat - prev.at.lat) * f), lng: round6(prev.at.lng + (leg.at.lng - prev.at.lng) * f) };
          const metres = haversineMetres({ latitude: prev.at.lat, longitude: prev.at.lng }, { latitude: leg.at.lat, longitude: leg.at.lng });
          speed = Math.round((metres / ((leg.from - prev.to) / 1000)) * 10) / 10;
          heading = Math.round(((Math.atan2(leg.at.lng - prev.at.lng, leg.at.lat - prev.at.lat) * 180) / Math.PI + 360) % 360);
        }
        positions.push({ userId: e.id, at: new Date(t), lat: p.lat, lng: p.lng, acc: 4 + r.below(`${k}:acc`, 25), speed, heading, battery: Math.max(5, 98 - Math.floor((t - start) / 600_000)) });
      }
    }
  }
  bump(
    'user_position',
    await insertRows(
      client,
      `insert into user_position (organization_id, user_id, recorded_at, received_at, latitude, longitude, accuracy_m, speed_mps, heading, battery_pct, is_charging, is_mock, created_at, updated_at)
       select $1, u, t, t + interval '4 seconds', la, ln, ac, sp, hd, bt, false, false, t + interval '4 seconds', t + interval '4 seconds'
         from unnest($2::int[], $3::timestamptz[], $4::float8[], $5::float8[], $6::real[], $7::real[], $8::real[], $9::smallint[]) with ordinality as x(u, t, la, ln, ac, sp, hd, bt, n)
        order by n`,
      org, [...(['userId', 'at', 'lat', 'lng', 'acc', 'speed', 'heading', 'battery'] as const).map((f) => positions.map((p) => p[f]))],
    ),
  );

  // Monthly sales targets per employee: the two months before the as-of day's month, that month and the next.
  const monthStart = `${asOf.slice(0, 7)}-01`;
  const targets: Array<{ userId: number; start: string; end: string; amount: number; calls: number; outletsN: number }> = [];
  for (const e of employees) {
    for (let m = -2; m <= 1; m++) {
      const start = shiftMonth(monthStart, m);
      const end = addDays(shiftMonth(monthStart, m + 1), -1);
      const k = `target:${e.no}:${start}`;
      targets.push({ userId: e.id, start, end, amount: 50_000 * r.between(`${k}:amount`, 4, 40), calls: 10 * r.between(`${k}:calls`, 6, 20), outletsN: 5 * r.between(`${k}:outlets`, 8, 24) });
    }
  }
  bump(
    'sales_target',
    await insertRows(
      client,
      `insert into sales_target (organization_id, user_id, period_type, period_start, period_end, target_amount, target_productive_calls, target_outlets, created_at, updated_at)
       select $1, u, ${SalesPeriodType.MONTH}, ps, pe, am, pc, ot, $8, $8
         from unnest($2::int[], $3::date[], $4::date[], $5::numeric[], $6::int[], $7::int[]) with ordinality as x(u, ps, pe, am, pc, ot, n) order by n`,
      org, [...(['userId', 'start', 'end', 'amount', 'calls', 'outletsN'] as const).map((f) => targets.map((t) => t[f]))], [localInstant(shiftMonth(monthStart, -3), 11 * 3600)],
    ),
  );
}

function firstOn(day: string, weekday: number): string {
  const iso = ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
  return addDays(day, (weekday - iso + 7) % 7);
}

function shiftMonth(monthStart: string, months: number): string {
  const y = Number(monthStart.slice(0, 4));
  const m = Number(monthStart.slice(5, 7)) - 1 + months;
  const yy = y + Math.floor(m / 12);
  const mm = ((m % 12) + 12) % 12;
  return `${yy}-${String(mm + 1).padStart(2, '0')}-01`;
}

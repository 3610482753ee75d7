import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, joinSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import type { Paginated } from '../../lists/page-request';
import { sortable, type ResolvedSort } from '../../lists/sort';
import { pickedOrder } from '../../lists/sql-sort';
import { UserType } from '../users/user.entity';
import { VisitStatus } from '../visits/visit.entity';
import type { CheckedPosition } from './position-input';

/**
 * Stores positions of one user in one statement (jsonb_to_recordset: one bound parameter however
 * long the batch), tenant-scoped by the organization bound in it. A position the user already sent
 * for the same device time is skipped (a re-sent batch), so the answer is the device times stored.
 */
export async function insertPositions(em: EntityManager, organizationId: number, userId: number, positions: readonly CheckedPosition[]): Promise<Set<number>> {
  tenantSql(organizationId, 'p'); // checks the organization id
  const rows = positions.map((p) => ({
    recorded_at: p.recordedAt.toISOString(),
    latitude: p.latitude,
    longitude: p.longitude,
    accuracy_m: p.accuracyM,
    speed_mps: p.speedMps,
    heading: p.heading,
    battery_pct: p.batteryPct,
    is_charging: p.isCharging,
    is_mock: p.isMock,
  }));
  const stored = await executeSql<{ recorded_at: Date }>(
    em,
    sql`insert into user_position (organization_id, user_id, recorded_at, received_at, latitude, longitude, accuracy_m, speed_mps, heading, battery_pct, is_charging, is_mock)
      select ${organizationId}, ${userId}, v.recorded_at, now(), v.latitude, v.longitude, v.accuracy_m, v.speed_mps, v.heading, v.battery_pct, v.is_charging, v.is_mock
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(recorded_at timestamptz, latitude float8, longitude float8, accuracy_m real, speed_mps real, heading real, battery_pct smallint, is_charging boolean, is_mock boolean)
      on conflict (organization_id, user_id, recorded_at) do nothing
      returning recorded_at`,
  );
  return new Set(stored.map((r) => new Date(r.recorded_at).getTime()));
}

/** A user's latest position with its user and duty, as the live map shows it. */
export interface LivePosition {
  positionId: number;
  userId: number;
  userName: string;
  userType: UserType;
  latitude: number;
  longitude: number;
  accuracyM: number | null;
  speedMps: number | null;
  heading: number | null;
  batteryPct: number | null;
  isCharging: boolean | null;
  isMock: boolean | null;
  recordedAt: Date;
  receivedAt: Date;
  /** now − recorded_at, whole seconds, never below 0 (a device clock a little ahead). */
  stalenessSeconds: number;
  /** Checked in today (the workspace's local day) and not yet out. */
  onDuty: boolean;
  /** The user's visit in progress (at most one: visit_one_open_per_user), else null. */
  currentVisitId: number | null;
}

/** The live list's sortable fields (columns of the `live` CTE); the freshest position first by default. */
export const LIVE_SORT = sortable({
  name: 'LivePosition',
  fields: {
    recorded_at: 'live.recorded_at',
    battery_pct: 'live.battery_pct',
    user_name: 'live.user_name',
    user_id: 'live.user_id',
    id: 'live.position_id',
  },
  default: '-recorded_at',
});

/** Which users' latest positions a page reads. */
export interface LiveConditions {
  /** The workspace's local day: on duty means an open attendance of that day. */
  today: string;
  userId?: number;
  onDuty?: boolean;
}

/**
 * A page of the latest position of each staff user who has one, and how many there are.
 *
 * Why no "latest position" table: each user's newest row is one backward step of the unique
 * (organization_id, user_id, recorded_at) index, reached by a lateral join from the workspace's
 * staff, so the read costs one index probe per staff user whatever the history holds. Measured
 * (EXPLAIN ANALYZE, PostgreSQL 15, 200 staff among 1,200 users, 2,500 positions each: 500,000
 * rows): 1.1 ms, against 243 ms for DISTINCT ON (user_id) over the workspace's positions, which
 * sorts them all. A latest-position table would cost an upsert on every batch (and a row lock
 * contended by a user's concurrent batches) to save about a millisecond: not worth it. One raw statement: rooted at `u.organization_id` bound to the
 * organization, the positions, the attendance and the visit in progress matched on organization_id too.
 */
export async function findLivePage(
  em: EntityManager,
  organizationId: number,
  conditions: LiveConditions,
  page: { page: number; limit: number; offset: number; sort: ResolvedSort<string> },
): Promise<Paginated<LivePosition>> {
  const t = tenantSql(organizationId, 'u');
  const where: Sql[] = [t.owns(), sql`u.user_type in (${UserType.ADMIN}, ${UserType.EMPLOYEE})`];
  if (conditions.userId !== undefined) where.push(sql`u.id = ${conditions.userId}`);
  if (conditions.onDuty !== undefined) where.push(conditions.onDuty ? raw('a.id is not null') : raw('a.id is null'));
  const ordered = pickedOrder(page.sort);
  const [row] = await executeSql<{ count: number; rows: LiveJson[] | null }>(
    em,
    sql`with live as (
        select p.id as position_id, u.id as user_id, u.first_name || ' ' || u.last_name as user_name, u.user_type,
          p.latitude, p.longitude, p.accuracy_m, p.speed_mps, p.heading, p.battery_pct, p.is_charging, p.is_mock,
          p.recorded_at, p.received_at,
          greatest(0, floor(extract(epoch from now() - p.recorded_at)))::int as staleness_seconds,
          a.id is not null as on_duty,
          cv.id as current_visit_id
        from app_user u
        cross join lateral (
          select p.* from user_position p where p.organization_id = u.organization_id and p.user_id = u.id
          order by p.recorded_at desc limit 1
        ) p
        ${t.leftJoin('attendance', 'a', sql`a.user_id = u.id and a.day = ${conditions.today}::date and a.check_out_at is null`)}
        ${t.leftJoin('visit', 'cv', sql`cv.user_id = u.id and cv.status = ${VisitStatus.IN_PROGRESS}`)}
        where ${joinSql(where, ' and ')}
      )
      select (select count(*)::int from live) as count,
        (select json_agg(json_build_object(
            'positionId', x.position_id, 'userId', x.user_id, 'userName', x.user_name, 'userType', x.user_type,
            'latitude', x.latitude, 'longitude', x.longitude, 'accuracyM', x.accuracy_m, 'speedMps', x.speed_mps,
            'heading', x.heading, 'batteryPct', x.battery_pct, 'isCharging', x.is_charging, 'isMock', x.is_mock,
            'recordedAt', x.recorded_at, 'receivedAt', x.received_at, 'stalenessSeconds', x.staleness_seconds, 'onDuty', x.on_duty,
            'currentVisitId', x.current_visit_id
          ) order by x.n)
          from (select live.*, row_number() over (order by ${raw(ordered.orderBy)}) as n from live order by ${raw(ordered.orderBy)} limit ${page.limit} offset ${page.offset}) x
        ) as rows`,
  );
  const items = (row.rows ?? []).map((r) => ({ ...r, recordedAt: new Date(r.recordedAt), receivedAt: new Date(r.receivedAt) }));
  return { items, total: row.count, page: page.page, limit: page.limit };
}

type LiveJson = Omit<LivePosition, 'recordedAt' | 'receivedAt'> & { recordedAt: string; receivedAt: string };

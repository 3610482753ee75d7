import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { VisitOutcome, VisitStatus } from '../visits/visit.entity';
import type { NoSaleReasonCount } from './beat-productivity.types';

/** What one employee's visits of a day add up to, as the report scores them. */
export interface DayVisitTotals {
  /** Completed visits (calls made). */
  completed: number;
  /** Completed visits with an order of the workspace that is not cancelled. */
  productive: number;
  /** The productive visits' orders: their totals and distinct variants, summed visit by visit. */
  orderValue: number;
  lines: number;
  geoVerified: number;
  /** Geo-verified completed visits that were not phone calls. */
  geoVerifiedInPerson: number;
  phoneCalls: number;
  /** Distinct outlets of the completed visits, and of the geo-verified ones. */
  visitedOutlets: number[];
  verifiedOutlets: number[];
  /** Over every visit of the day, whatever its status. */
  firstCheckIn: Date | null;
  lastCheckOut: Date | null;
  /** Completed no-sale visits by reason, most first. */
  noSaleReasons: NoSaleReasonCount[];
}

interface TotalsRow {
  user_id: number;
  completed: number;
  productive: number;
  order_value: string;
  lines: number;
  geo_verified: number;
  geo_verified_in_person: number;
  phone_calls: number;
  visited_outlets: number[];
  verified_outlets: number[];
  first_check_in: Date | string | null;
  last_check_out: Date | string | null;
  no_sale_reasons: NoSaleReasonCount[];
}

const dateOf = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * The day's visits (the workspace's local day `date`) of the given employees (null: everyone's)
 * added up per employee in one statement rooted at the workspace, every join scoped to it: the
 * employees' totals cross, not their visits (a busy day is 3,000 visits for 100 rows).
 */
export async function dayVisitTotals(em: EntityManager, organizationId: number, userIds: readonly number[] | null, date: string): Promise<Map<number, DayVisitTotals>> {
  const t = tenantSql(organizationId, 'v');
  const users: Sql = userIds === null ? sql`true` : sql`v.user_id = any(${`{${userIds.map((id) => Math.trunc(id)).join(',')}}`}::int[])`;
  const completed = VisitStatus.COMPLETED;
  const rows = await executeSql<TotalsRow>(
    em,
    sql`with day as materialized (
          select v.user_id, v.outlet_id, v.status, v.outcome, v.geo_verified, v.check_in_at, v.check_out_at, v.no_sale_reason_id,
                 o.total_amount as order_total,
                 case when o.id is null then null else
                   (select count(distinct i.product_variant_id) from order_item i where ${t.owns('i')} and i.order_id = o.id) end as order_variants
            from visit v
            left join sales_order o on ${t.owns('o')} and o.id = v.order_id and o.cancelled_at is null
                                   and v.status = ${completed} and v.outcome = ${VisitOutcome.ORDER}
           where ${t.owns()} and v.visit_date = ${date}::date and ${users}),
        reasons as (
          select d.user_id, json_agg(json_build_object('id', d.no_sale_reason_id, 'name', r.name, 'count', d.n)
                                     order by d.n desc, coalesce(d.no_sale_reason_id, 0)) as list
            from (select day.user_id, day.no_sale_reason_id, count(*)::int as n from day
                   where day.status = ${completed} and day.outcome = ${VisitOutcome.NO_SALE} group by 1, 2) d
            left join no_sale_reason r on ${t.owns('r')} and r.id = d.no_sale_reason_id
           group by d.user_id)
      select day.user_id,
             (count(*) filter (where day.status = ${completed}))::int as completed,
             (count(day.order_total))::int as productive,
             coalesce(sum(day.order_total), 0)::text as order_value,
             coalesce(sum(day.order_variants), 0)::int as lines,
             (count(*) filter (where day.status = ${completed} and day.geo_verified))::int as geo_verified,
             (count(*) filter (where day.status = ${completed} and day.geo_verified and day.outcome is distinct from ${VisitOutcome.PHONE_CALL}))::int as geo_verified_in_person,
             (count(*) filter (where day.status = ${completed} and day.outcome = ${VisitOutcome.PHONE_CALL}))::int as phone_calls,
             coalesce(array_agg(distinct day.outlet_id) filter (where day.status = ${completed}), '{}') as visited_outlets,
             coalesce(array_agg(distinct day.outlet_id) filter (where day.status = ${completed} and day.geo_verified), '{}') as verified_outlets,
             min(day.check_in_at) as first_check_in,
             max(day.check_out_at) as last_check_out,
             coalesce((select reasons.list from reasons where reasons.user_id = day.user_id), '[]') as no_sale_reasons
        from day group by day.user_id`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.user_id),
      {
        completed: r.completed,
        productive: r.productive,
        orderValue: Number(r.order_value),
        lines: r.lines,
        geoVerified: r.geo_verified,
        geoVerifiedInPerson: r.geo_verified_in_person,
        phoneCalls: r.phone_calls,
        visitedOutlets: r.visited_outlets.map(Number),
        verifiedOutlets: r.verified_outlets.map(Number),
        firstCheckIn: dateOf(r.first_check_in),
        lastCheckOut: dateOf(r.last_check_out),
        noSaleReasons: r.no_sale_reasons,
      },
    ]),
  );
}

/** An employee with no visit that day. */
export const NO_VISITS: DayVisitTotals = {
  completed: 0,
  productive: 0,
  orderValue: 0,
  lines: 0,
  geoVerified: 0,
  geoVerifiedInPerson: 0,
  phoneCalls: 0,
  visitedOutlets: [],
  verifiedOutlets: [],
  firstCheckIn: null,
  lastCheckOut: null,
  noSaleReasons: [],
};

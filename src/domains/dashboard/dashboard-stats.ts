import type { EntityManager } from '@mikro-orm/postgresql';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { executeSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { ActiveStatus } from '../../db/active-status';
import { OrderStatus } from '../orders/order.entity';
import { UserType } from '../users/user.entity';

/** The twelve numbers of GET /dashboard/stats ("today" is the workspace's local day). */
@ObjectType({ simpleResolvers: true })
export class DashboardStats {
  @Field(() => Int) orderInitiatedCount!: number;
  @Field(() => Int) orderForwardedCount!: number;
  @Field(() => Int) orderApprovedCount!: number;
  @Field(() => Int) orderDeliveredCount!: number;
  @Field(() => Int, { description: 'Active employees.' }) totalEmployees!: number;
  @Field(() => Int, { description: 'Users checked in today.' }) todayAttendance!: number;
  @Field(() => Int, { description: 'Outlets that have been tagged.' }) totalTaggedOutlets!: number;
  @Field(() => Int, { description: 'Outlets tagged today.' }) todayTaggedOutlets!: number;
  @Field(() => Float, { description: 'Total of the orders dated today.' }) todayRevenue!: number;
  @Field(() => Float, { description: 'Delivered order value not yet collected.' }) pendingAmount!: number;
  @Field(() => Float, { description: 'All payments collected.' }) totalCollection!: number;
  @Field(() => Float, { description: 'Payments collected today.' }) todayCollection!: number;
}

type StatsRow = Record<
  | 'order_initiated_count'
  | 'order_forwarded_count'
  | 'order_approved_count'
  | 'order_delivered_count'
  | 'total_employees'
  | 'today_attendance'
  | 'total_tagged_outlets'
  | 'today_tagged_outlets'
  | 'today_revenue'
  | 'pending_amount'
  | 'total_collection'
  | 'today_collection',
  string | number
>;

/**
 * One statement over the caller's workspace. The order figures (counts by status, today's revenue,
 * the pending amount, all collections) are sums of order_day_rollup, a row per local day and status
 * kept with the orders and payments (Migration20261126100000): a few thousand rows for two years
 * instead of every order and payment (BENCHMARKS.md, "Figures behind the code").
 * The figures of an instant's local day (payments, outlets tagged) and the small tables are read
 * from their (organization_id, …) indexes. The local day runs from midnight to midnight in the workspace's
 * time zone, at `clock` (now()).
 */
export function statsStatement(organizationId: number, clock: Sql = raw('now()')): Sql {
  const t = tenantSql(organizationId, 'r');
  return sql`
  with zone as (select time_zone from workspace_config wc where ${t.owns('wc')}),
  day as (
    select (${clock} at time zone zone.time_zone)::date as today,
           ((${clock} at time zone zone.time_zone)::date::timestamp at time zone zone.time_zone) as starts,
           (((${clock} at time zone zone.time_zone)::date + 1)::timestamp at time zone zone.time_zone) as ends
      from zone),
  orders as (
    select coalesce(sum(r.orders) filter (where r.status = ${OrderStatus.INITIATED}), 0) as initiated,
           coalesce(sum(r.orders) filter (where r.status = ${OrderStatus.FORWARDED}), 0) as forwarded,
           coalesce(sum(r.orders) filter (where r.status = ${OrderStatus.APPROVED}), 0) as approved,
           coalesce(sum(r.orders) filter (where r.status = ${OrderStatus.DELIVERED}), 0) as delivered,
           coalesce(sum(r.total_amount) filter (where r.day = (select today from day)), 0) as today_revenue,
           coalesce(sum(r.outstanding_amount) filter (where r.status = ${OrderStatus.DELIVERED}), 0) as pending_amount,
           coalesce(sum(r.paid_amount), 0) as total_collection
      from order_day_rollup r
     where ${t.owns()})
  select
    orders.initiated as order_initiated_count,
    orders.forwarded as order_forwarded_count,
    orders.approved as order_approved_count,
    orders.delivered as order_delivered_count,
    (select count(*) from app_user u where ${t.owns('u')} and u.user_type = ${UserType.EMPLOYEE} and u.status = ${ActiveStatus.ACTIVE}) as total_employees,
    (select count(distinct a.user_id) from attendance a, day where ${t.owns('a')} and a.day = day.today) as today_attendance,
    (select count(*) from outlet ol where ${t.owns('ol')} and ol.tagged_at is not null) as total_tagged_outlets,
    (select count(*) from outlet ol, day where ${t.owns('ol')} and ol.tagged_at >= day.starts and ol.tagged_at < day.ends) as today_tagged_outlets,
    orders.today_revenue,
    orders.pending_amount,
    orders.total_collection,
    (select coalesce(sum(pm.amount), 0) from payment pm, day where ${t.owns('pm')} and pm.paid_at >= day.starts and pm.paid_at < day.ends) as today_collection
    from orders`;
}

/** The dashboard's numbers of a workspace, at `at` (default: now). */
export async function readStats(em: EntityManager, organizationId: number, at?: Date): Promise<DashboardStats> {
  const clock = at === undefined ? undefined : sql`${at.toISOString()}::timestamptz`;
  const [row] = await executeSql<StatsRow>(em, statsStatement(organizationId, clock));
  const n = (key: keyof StatsRow) => Number(row[key]);
  return {
    orderInitiatedCount: n('order_initiated_count'),
    orderForwardedCount: n('order_forwarded_count'),
    orderApprovedCount: n('order_approved_count'),
    orderDeliveredCount: n('order_delivered_count'),
    totalEmployees: n('total_employees'),
    todayAttendance: n('today_attendance'),
    totalTaggedOutlets: n('total_tagged_outlets'),
    todayTaggedOutlets: n('today_tagged_outlets'),
    todayRevenue: n('today_revenue'),
    pendingAmount: n('pending_amount'),
    totalCollection: n('total_collection'),
    todayCollection: n('today_collection'),
  };
}

import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { RequestContext } from '../../context/request-context';
import { executeSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { requireStaff } from '../auth/permissions';
import { workspaceToday } from '../workspace/local-day';
import { monthlySalesStatement, toMonthlySalesEntry, type MonthlySalesEntry, type MonthlySalesRow } from './monthly-sales';
import { salesPeriods } from './sales-periods';

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
 * One statement of SQL aggregates over the caller's workspace (nothing is loaded row by row).
 * The local day runs from midnight to midnight in the workspace's time zone. Each table is read
 * on its own, bound to the organization; the one join (orders and their payments) matches
 * organization_id too.
 */
function statsStatement(organizationId: number): Sql {
  const t = tenantSql(organizationId, 'o');
  return sql`
  with zone as (select time_zone from workspace_config wc where ${t.owns('wc')}),
  day as (
    select (now() at time zone zone.time_zone)::date as today,
           ((now() at time zone zone.time_zone)::date::timestamp at time zone zone.time_zone) as starts,
           (((now() at time zone zone.time_zone)::date + 1)::timestamp at time zone zone.time_zone) as ends
      from zone),
  orders as (select * from sales_order o where ${t.owns()}),
  paid as (select pm.organization_id, pm.order_id, sum(pm.amount) as amount from payment pm where ${t.owns('pm')} group by pm.organization_id, pm.order_id)
  select
    (select count(*) from orders where status = 1) as order_initiated_count,
    (select count(*) from orders where status = 2) as order_forwarded_count,
    (select count(*) from orders where status = 3) as order_approved_count,
    (select count(*) from orders where status = 4) as order_delivered_count,
    (select count(*) from app_user u where ${t.owns('u')} and u.user_type = 1 and u.status = 1) as total_employees,
    (select count(distinct a.user_id) from attendance a, day where ${t.owns('a')} and a.day = day.today) as today_attendance,
    (select count(*) from outlet ol where ${t.owns('ol')} and ol.tagged_at is not null) as total_tagged_outlets,
    (select count(*) from outlet ol, day where ${t.owns('ol')} and ol.tagged_at >= day.starts and ol.tagged_at < day.ends) as today_tagged_outlets,
    (select coalesce(sum(total_amount), 0) from orders, day where order_date = day.today) as today_revenue,
    (select coalesce(sum(greatest(o.total_amount - coalesce(p.amount, 0), 0)), 0)
       from orders o left join paid p on p.organization_id = o.organization_id and p.order_id = o.id where o.status = 4) as pending_amount,
    (select coalesce(sum(amount), 0) from paid) as total_collection,
    (select coalesce(sum(pm.amount), 0) from payment pm, day where ${t.owns('pm')} and pm.paid_at >= day.starts and pm.paid_at < day.ends) as today_collection`;
}

/** The dashboard's numbers for workspace staff (and API keys); customers get 403. */
export class DashboardService {
  async stats(ctx: RequestContext): Promise<DashboardStats> {
    requireStaff(ctx);
    const [row] = await executeSql<StatsRow>(ctx.em, statsStatement(ctx.organizationId));
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

  /**
   * Sales per product class in the class's unit, for every active class (and an inactive one with
   * sales in the periods counted), by class name. Two statements: the workspace's local day, then
   * the aggregates.
   */
  async monthlySales(ctx: RequestContext): Promise<MonthlySalesEntry[]> {
    requireStaff(ctx);
    const periods = salesPeriods(await workspaceToday(ctx.em, ctx.organizationId));
    const rows = await executeSql<MonthlySalesRow>(ctx.em, monthlySalesStatement(ctx.organizationId, periods));
    return rows.map((row) => toMonthlySalesEntry(row, periods));
  }
}

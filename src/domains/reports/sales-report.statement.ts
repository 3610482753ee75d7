import { joinSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { UserType } from '../users/user.entity';
import { SalesReportGroupBy, SalesReportPeriod, type SalesReportFilters } from './sales-report.types';

/** The most rows a grouped report answers; beyond, a 400 asks for a longer period or filters. */
export const MAX_REPORT_ROWS = 10_000;

/** Where a group's id comes from, what the lines need joined for it, and where its name is read. */
interface Grouping {
  id: string;
  needsProduct?: boolean;
  needsBooker?: boolean;
  /** The named table joined to the figures (alias g) and the name read from it. */
  names: { table: string; name: string };
}

const GROUPINGS: Record<SalesReportGroupBy, Grouping> = {
  [SalesReportGroupBy.CUSTOMER]: { id: 'o.customer_id', names: { table: 'app_user', name: "coalesce(nullif(g.store_name, ''), trim(g.first_name || ' ' || g.last_name))" } },
  [SalesReportGroupBy.PRODUCT]: { id: 'p.id', needsProduct: true, names: { table: 'product', name: 'g.name' } },
  [SalesReportGroupBy.PRODUCT_CLASS]: { id: 'p.product_class_id', needsProduct: true, names: { table: 'product_class', name: 'g.name' } },
  [SalesReportGroupBy.TOWN]: { id: 'o.town_id', names: { table: 'town', name: 'g.name' } },
  [SalesReportGroupBy.ROUTE]: { id: 'o.route_id', names: { table: 'route', name: 'g.name' } },
  // Orders booked by admins, customers or API keys group under null: "not booked by an employee".
  [SalesReportGroupBy.EMPLOYEE]: { id: `case when b.user_type = ${UserType.EMPLOYEE} then o.created_by_user_id end`, needsBooker: true, names: { table: 'app_user', name: "trim(g.first_name || ' ' || g.last_name)" } },
  [SalesReportGroupBy.PRODUCTION_UNIT]: { id: 'o.production_unit_id', names: { table: 'production_unit', name: 'g.name' } },
};

/** The first day of the period holding `day` (a date expression). */
function periodOf(period: SalesReportPeriod, day: Sql): Sql {
  if (period === SalesReportPeriod.DAY) return day;
  return sql`${raw(`date_trunc('${period}', `)}${day}::timestamp)::date`; // 'week' is ISO: Monday first
}

/** One row of the statement: the totals (is_total 1) or a period's (and group's) figures. */
export interface SalesReportSqlRow {
  is_total: number;
  period: string | null;
  group_id: number | null;
  group_name: string | null;
  value: string;
  quantity: string;
  orders: string;
  lines: string;
}

/**
 * The sales report as one statement: the lines of the workspace's orders dated in the range (the
 * (organization_id, order_date) index of sales_order, then each order's lines by the
 * (organization_id, order_id) index of order_item), cancelled orders left out, filtered; summed
 * per period and group and over everything (grouping sets, so distinct orders are counted right in
 * the totals too); names joined after the sums. Without a grouping, every period of the range is
 * listed, zeros included. Every table is matched on organization_id. The totals row comes first,
 * then the rows by period, value (largest first) and group id, at most MAX_REPORT_ROWS + 1 of them
 * (one more than answered, to tell that there are too many).
 */
export function salesReportStatement(organizationId: number, f: SalesReportFilters): Sql {
  const t = tenantSql(organizationId, 'o');
  const grouping = f.groupBy === null ? null : GROUPINGS[f.groupBy];
  const needsProduct = grouping?.needsProduct === true || f.productClassId !== null;
  const where: Sql[] = [t.owns(), sql`o.order_date >= ${f.dateFrom}::date`, sql`o.order_date <= ${f.dateTo}::date`, raw('o.cancelled_at is null')];
  if (f.userId !== null) where.push(sql`o.created_by_user_id = ${f.userId}`);
  if (f.customerId !== null) where.push(sql`o.customer_id = ${f.customerId}`);
  if (f.townId !== null) where.push(sql`o.town_id = ${f.townId}`);
  if (f.routeId !== null) where.push(sql`o.route_id = ${f.routeId}`);
  if (f.productionUnitId !== null) where.push(sql`o.production_unit_id = ${f.productionUnitId}`);
  if (f.productClassId !== null) where.push(sql`p.product_class_id = ${f.productClassId}`);

  const lines = sql`
    select ${periodOf(f.period, raw('o.order_date'))} as period, ${raw(grouping?.id ?? 'null::int')} as group_id, o.id as order_id, i.amount, i.quantity
      from sales_order o
      ${t.join('order_item', 'i', 'i.order_id = o.id')}
      ${needsProduct ? sql`${t.join('product_variant', 'v', 'v.id = i.product_variant_id')} ${t.join('product', 'p', 'p.id = v.product_id')}` : raw('')}
      ${grouping?.needsBooker ? t.leftJoin('app_user', 'b', 'b.id = o.created_by_user_id') : raw('')}
     where ${joinSql(where, ' and ')}`;
  const figures = raw(`
    select period, group_id, grouping(period) as is_total, sum(amount) as value, sum(quantity) as quantity,
           count(distinct order_id) as orders, count(*) as lines
      from lines group by grouping sets ((period, group_id), ())`);
  const sums = 'coalesce(f.value, 0)::text as value, coalesce(f.quantity, 0)::text as quantity, coalesce(f.orders, 0) as orders, coalesce(f.lines, 0) as lines';
  const totals = raw(`select 1 as is_total, null::text as period, null::int as group_id, null::text as group_name, ${sums} from figures f where f.is_total = 1`);
  const rows =
    grouping === null
      ? sql`select 0, to_char(s.period, 'YYYY-MM-DD'), null::int, null::text, ${raw(sums)}
              from (select generate_series(${periodOf(f.period, sql`${f.dateFrom}::date`)}::timestamp, ${f.dateTo}::date::timestamp, ${`1 ${f.period}`}::interval)::date as period) s
              left join figures f on f.period = s.period and f.is_total = 0`
      : sql`select 0, to_char(f.period, 'YYYY-MM-DD'), f.group_id, ${raw(grouping.names.name)}, ${raw(sums)}
              from figures f left join ${raw(grouping.names.table)} g on g.id = f.group_id and ${t.owns('g')}
             where f.is_total = 0`;
  return sql`
    with lines as (${lines}),
    figures as (${figures})
    select * from (${totals} union all ${rows}) r
     order by r.is_total desc, r.period, r.value::numeric desc, r.group_id nulls last
     limit ${MAX_REPORT_ROWS + 2}`;
}

import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import type { SalesPeriods } from './sales-periods';
import { ActiveStatus } from '../../db/active-status';

/** How a number compares with the one of the period before. */
export enum ChangeStatus {
  UP = 'up',
  DOWN = 'down',
  SAME = 'same',
}
registerEnumType(ChangeStatus, { name: 'ChangeStatus', description: 'Current compared with previous: up, down or same' });

/** One local day of the last seven. */
@ObjectType({ simpleResolvers: true })
export class MonthlySalesDay {
  @Field({ description: 'YYYY-MM-DD' }) date!: string;
  @Field(() => Int) year!: number;
  @Field(() => Int, { description: 'Zero-based: January is 0.' }) month!: number;
  @Field(() => Int) day!: number;
  @Field(() => Float, { description: "Quantity sold that day, in the class's unit." }) total!: number;
}

/** A product's sales this month. */
@ObjectType({ simpleResolvers: true })
export class MonthlySalesProduct {
  @Field() productName!: string;
  @Field(() => Float, { description: "Month to date, in the class's unit." }) quantity!: number;
}

/** Sales of one product class, in the class's unit ("today" is the workspace's local day). */
@ObjectType({ simpleResolvers: true })
export class MonthlySalesEntry {
  @Field(() => Int, { description: 'The product class id.' }) id!: number;
  @Field({ description: 'The product class name.' }) productClass!: string;
  @Field() unit!: string;
  @Field(() => Float) todayTotal!: number;
  @Field(() => Float) yesterdayTotal!: number;
  @Field(() => Float, { description: 'Today against yesterday, in percent (100 when yesterday is 0 and today is not).' })
  dailyChangePercent!: number;
  @Field(() => ChangeStatus) dailyChangeStatus!: ChangeStatus;
  @Field(() => Float, { description: 'Month to date (the 1st .. today).' }) monthData!: number;
  @Field(() => Float, { description: 'monthData per day elapsed this month, today included.' }) monthDataAvg!: number;
  @Field(() => Float, { description: 'Year to date (Jan 1 .. today).' }) currentYearData!: number;
  @Field(() => Float, { description: 'The same period one year earlier (Jan 1 .. the same day of last year).' }) prevYearData!: number;
  @Field(() => Float) yearlyChangePercent!: number;
  @Field(() => ChangeStatus) yearlyChangeStatus!: ChangeStatus;
  @Field(() => [MonthlySalesDay], { description: 'The seven local days ending today, oldest first.' }) sevenDayData!: MonthlySalesDay[];
  @Field(() => [MonthlySalesProduct], { description: 'Products sold this month, largest first, then by name.' })
  productBreakdown!: MonthlySalesProduct[];
}

/**
 * One statement of aggregates: the quantity of every order line (whatever its order's status)
 * dated by its order's order_date, times its variant's current unit_quantity, summed per product
 * class (the product's current one). Read from line_day_rollup, the lines of each local day and
 * variant kept with the lines (Migration20261126100000): at most one row per variant and day, so
 * the work does not grow with the orders (BENCHMARKS.md, "Figures behind the code"). A row
 * with no lines left (they were deleted) counts as no sales, as no lines did. Every table is confined to the workspace
 * explicitly (raw SQL bypasses the ORM's tenant filter): the rollup bound to the organization,
 * each table joined to it matched on organization_id. Rows are read only from the days some
 * period counts: the current window (the earlier of Jan 1 and the first of the last seven days,
 * up to today) and last year's Jan 1 .. the same day. Quantities are summed per variant first and
 * multiplied by its unit_quantity after (exact numeric arithmetic: the same sum). Percentages and
 * the average are rounded here, in exact numeric arithmetic.
 */
export function monthlySalesStatement(organizationId: number, p: SalesPeriods): Sql {
  const t = tenantSql(organizationId, 'r');
  const product = (s: string) =>
    sql`${t.rooted(s).join('product_variant', 'v', `v.id = ${s}.product_variant_id`)} ${t.rooted(s).join('product', 'p', 'p.id = v.product_id')}`;
  return sql`
  with period as (
    select ${p.today}::date as today, ${p.yesterday}::date as yesterday, ${p.monthStart}::date as month_start, ${p.monthDays}::int as month_days,
           ${p.yearStart}::date as year_start, ${p.prevYearStart}::date as prev_start, ${p.prevYearEnd}::date as prev_end, ${p.lastSevenDays[0]}::date as week_start),
  sold as (
    select r.organization_id, r.product_variant_id, r.day, r.quantity
      from line_day_rollup r cross join period
     where ${t.owns()} and r.lines > 0
       and (r.day between least(period.year_start, period.week_start) and period.today
            or r.day between period.prev_start and period.prev_end)),
  variant_totals as (
    select s.organization_id, s.product_variant_id,
           sum(s.quantity) filter (where s.day = period.today) as today_total,
           sum(s.quantity) filter (where s.day = period.yesterday) as yesterday_total,
           sum(s.quantity) filter (where s.day between period.month_start and period.today) as month_data,
           sum(s.quantity) filter (where s.day between period.year_start and period.today) as current_year_data,
           sum(s.quantity) filter (where s.day between period.prev_start and period.prev_end) as prev_year_data
      from sold s cross join period
     group by s.organization_id, s.product_variant_id),
  totals as (
    select p.product_class_id as class_id,
           coalesce(sum(vt.today_total * v.unit_quantity), 0) as today_total,
           coalesce(sum(vt.yesterday_total * v.unit_quantity), 0) as yesterday_total,
           coalesce(sum(vt.month_data * v.unit_quantity), 0) as month_data,
           coalesce(sum(vt.current_year_data * v.unit_quantity), 0) as current_year_data,
           coalesce(sum(vt.prev_year_data * v.unit_quantity), 0) as prev_year_data
      from variant_totals vt ${product('vt')}
     group by p.product_class_id),
  -- Materialized: each class's subquery below then reads these few rows, not every row sold. The
  -- bounds are subqueries, so the days are picked before the join (a join to period filtered after it).
  days as materialized (
    select p.product_class_id as class_id, s.day, sum(s.quantity * v.unit_quantity) as total
      from sold s ${product('s')}
     where s.day between (select week_start from period) and (select today from period)
     group by p.product_class_id, s.day),
  products as materialized (
    select p.product_class_id as class_id, p.id as product_id, p.name as product_name, sum(s.quantity * v.unit_quantity) as quantity
      from sold s ${product('s')}
     where s.day between (select month_start from period) and (select today from period)
     group by p.product_class_id, p.id, p.name),
  entries as (
    select c.id, c.name, c.unit,
           coalesce(t.today_total, 0) as today_total, coalesce(t.yesterday_total, 0) as yesterday_total,
           coalesce(t.month_data, 0) as month_data, coalesce(t.current_year_data, 0) as current_year_data,
           coalesce(t.prev_year_data, 0) as prev_year_data
      from product_class c
      left join totals t on t.class_id = c.id
     where ${t.owns('c')} and (c.status = ${ActiveStatus.ACTIVE} or t.class_id is not null))
  select e.id, e.name, e.unit, e.today_total, e.yesterday_total, e.month_data, e.current_year_data, e.prev_year_data,
         round(e.month_data / period.month_days, 2) as month_data_avg,
         case when e.yesterday_total = 0 then case when e.today_total > 0 then 100 else 0 end
              else round((e.today_total - e.yesterday_total) * 100 / e.yesterday_total, 2) end as daily_change_percent,
         sign(e.today_total - e.yesterday_total) as daily_sign,
         case when e.prev_year_data = 0 then case when e.current_year_data > 0 then 100 else 0 end
              else round((e.current_year_data - e.prev_year_data) * 100 / e.prev_year_data, 2) end as yearly_change_percent,
         sign(e.current_year_data - e.prev_year_data) as yearly_sign,
         (select coalesce(json_object_agg(to_char(d.day, 'YYYY-MM-DD'), d.total order by d.day), '{}')
            from days d where d.class_id = e.id) as day_totals,
         (select coalesce(json_agg(json_build_object('product_name', pr.product_name, 'quantity', pr.quantity)
                                   order by pr.quantity desc, pr.product_name, pr.product_id), '[]')
            from products pr where pr.class_id = e.id) as product_breakdown
    from entries e cross join period
   order by e.name, e.id`;
}

/** The monthly sales of a workspace over `periods`. */
export async function readMonthlySales(em: EntityManager, organizationId: number, periods: SalesPeriods): Promise<MonthlySalesEntry[]> {
  const rows = await executeSql<MonthlySalesRow>(em, monthlySalesStatement(organizationId, periods));
  return rows.map((row) => toMonthlySalesEntry(row, periods));
}

/** A row of monthlySalesStatement() (numeric columns arrive as text, json columns parsed). */
export interface MonthlySalesRow {
  id: number;
  name: string;
  unit: string;
  today_total: string;
  yesterday_total: string;
  month_data: string;
  month_data_avg: string;
  current_year_data: string;
  prev_year_data: string;
  daily_change_percent: string;
  daily_sign: string;
  yearly_change_percent: string;
  yearly_sign: string;
  day_totals: Record<string, number>;
  product_breakdown: Array<{ product_name: string; quantity: number }>;
}

const statusOf = (sign: string): ChangeStatus => {
  const n = Number(sign);
  return n > 0 ? ChangeStatus.UP : n < 0 ? ChangeStatus.DOWN : ChangeStatus.SAME;
};

/** A row as an entry, with the seven days filled in (zeros included). */
export function toMonthlySalesEntry(row: MonthlySalesRow, periods: SalesPeriods): MonthlySalesEntry {
  return {
    id: row.id,
    productClass: row.name,
    unit: row.unit,
    todayTotal: Number(row.today_total),
    yesterdayTotal: Number(row.yesterday_total),
    dailyChangePercent: Number(row.daily_change_percent),
    dailyChangeStatus: statusOf(row.daily_sign),
    monthData: Number(row.month_data),
    monthDataAvg: Number(row.month_data_avg),
    currentYearData: Number(row.current_year_data),
    prevYearData: Number(row.prev_year_data),
    yearlyChangePercent: Number(row.yearly_change_percent),
    yearlyChangeStatus: statusOf(row.yearly_sign),
    sevenDayData: periods.lastSevenDays.map((date) => {
      const [year, month, day] = date.split('-').map(Number);
      return { date, year, month: month - 1, day, total: Number(row.day_totals[date] ?? 0) };
    }),
    productBreakdown: row.product_breakdown.map((p) => ({ productName: p.product_name, quantity: Number(p.quantity) })),
  };
}

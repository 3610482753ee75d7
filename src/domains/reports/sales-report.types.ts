import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

/** The periods a sales report is cut into: days, ISO weeks (Monday first) or calendar months. */
export enum SalesReportPeriod {
  DAY = 'day',
  WEEK = 'week',
  MONTH = 'month',
}
registerEnumType(SalesReportPeriod, { name: 'SalesReportPeriod', description: 'day, week (ISO, Monday first) or month' });

/** What a sales report's rows are per, besides the period. */
export enum SalesReportGroupBy {
  CUSTOMER = 'customer',
  PRODUCT = 'product',
  PRODUCT_CLASS = 'product_class',
  TOWN = 'town',
  ROUTE = 'route',
  EMPLOYEE = 'employee',
  PRODUCTION_UNIT = 'production_unit',
}
registerEnumType(SalesReportGroupBy, { name: 'SalesReportGroupBy', description: 'What the rows are per, besides the period' });

/** The query of a sales report, as sent (every field optional; see the README's Reports notes). */
export interface SalesReportQuery {
  dateFrom?: string | null;
  dateTo?: string | null;
  period?: SalesReportPeriod | null;
  groupBy?: SalesReportGroupBy | null;
  userId?: number | null;
  customerId?: number | null;
  productClassId?: number | null;
  townId?: number | null;
  routeId?: number | null;
  productionUnitId?: number | null;
}

/** The id filters of a sales report, each naming a record of the workspace. */
export const SALES_REPORT_ID_FILTERS = ['userId', 'customerId', 'productClassId', 'townId', 'routeId', 'productionUnitId'] as const;
export type SalesReportIdFilter = (typeof SALES_REPORT_ID_FILTERS)[number];

@InputType({ description: 'A sales report’s range, periods, grouping and filters (all optional).' })
export class SalesReportInput implements SalesReportQuery {
  @Field(() => String, { nullable: true, description: 'First order date, YYYY-MM-DD (default: the 1st of dateTo’s month).' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Last order date, YYYY-MM-DD (default: today, the workspace’s local day); at most 366 days after dateFrom, both included.' })
  dateTo?: string | null;

  @Field(() => SalesReportPeriod, { nullable: true, description: 'Default MONTH.' })
  period?: SalesReportPeriod | null;

  @Field(() => SalesReportGroupBy, { nullable: true, description: 'Without it, one row per period (periods without sales included, as zeros).' })
  groupBy?: SalesReportGroupBy | null;

  @Field(() => Int, { nullable: true, description: 'The employee who booked the orders (employees: only themselves).' })
  userId?: number | null;

  @Field(() => Int, { nullable: true }) customerId?: number | null;
  @Field(() => Int, { nullable: true }) productClassId?: number | null;
  @Field(() => Int, { nullable: true }) townId?: number | null;
  @Field(() => Int, { nullable: true }) routeId?: number | null;
  @Field(() => Int, { nullable: true }) productionUnitId?: number | null;
}

/** The figures of a set of order lines. */
@ObjectType({ simpleResolvers: true, description: 'Figures of order lines of orders not cancelled.' })
export class SalesFigures {
  @Field(() => Float, { description: 'Sum of the lines’ amounts.' }) value!: number;
  @Field(() => Float, { description: 'Sum of the lines’ quantities: pieces of their variants, as ordered (not in the class’s unit).' }) quantity!: number;
  @Field(() => Int, { description: 'Distinct orders.' }) orders!: number;
  @Field(() => Int, { description: 'Order lines.' }) lines!: number;
}

@ObjectType({ simpleResolvers: true, description: 'One period (and group) of a sales report.' })
export class SalesReportRow extends SalesFigures {
  @Field({ description: 'The period’s first day, YYYY-MM-DD (a week’s Monday, a month’s 1st; it may precede dateFrom).' }) period!: string;
  @Field(() => Int, { nullable: true, description: 'The group’s id; null without groupBy, and for orders without one (no town, not booked by an employee…).' })
  groupId!: number | null;
  @Field(() => String, { nullable: true }) groupName!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'What a sales report covered, defaults applied.' })
export class SalesReportFilters {
  @Field() dateFrom!: string;
  @Field() dateTo!: string;
  @Field(() => SalesReportPeriod) period!: SalesReportPeriod;
  @Field(() => SalesReportGroupBy, { nullable: true }) groupBy!: SalesReportGroupBy | null;
  @Field(() => Int, { nullable: true }) userId!: number | null;
  @Field(() => Int, { nullable: true }) customerId!: number | null;
  @Field(() => Int, { nullable: true }) productClassId!: number | null;
  @Field(() => Int, { nullable: true }) townId!: number | null;
  @Field(() => Int, { nullable: true }) routeId!: number | null;
  @Field(() => Int, { nullable: true }) productionUnitId!: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'Sales by period (and group), with the totals over the whole range.' })
export class SalesReport {
  @Field(() => SalesReportFilters) filters!: SalesReportFilters;
  @Field(() => [SalesReportRow], { description: 'By period, then value (largest first), then group id.' }) rows!: SalesReportRow[];
  @Field(() => SalesFigures) totals!: SalesFigures;
}

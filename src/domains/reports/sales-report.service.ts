import type { RequestContext } from '../../context/request-context';
import { executeSql, joinSql, raw, sql, tenantSql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { UserType } from '../users/user.entity';
import { reportedBooker } from './report-access';
import { reportRange } from './report-range';
import { MAX_REPORT_ROWS, salesReportStatement, type SalesReportSqlRow } from './sales-report.statement';
import {
  SALES_REPORT_ID_FILTERS,
  SalesReportGroupBy,
  SalesReportPeriod,
  type SalesFigures,
  type SalesReport,
  type SalesReportFilters,
  type SalesReportIdFilter,
  type SalesReportQuery,
} from './sales-report.types';

/** Where each id filter must be found in the workspace (table, and the kind of user for user ids). */
const OWNED_BY_WORKSPACE: Record<SalesReportIdFilter, { table: string; condition?: string; what: string }> = {
  userId: { table: 'app_user', condition: `user_type = ${UserType.EMPLOYEE}`, what: 'an employee' },
  customerId: { table: 'app_user', condition: `user_type in (${UserType.DISTRIBUTOR}, ${UserType.RETAILER})`, what: 'a customer (distributor or retailer)' },
  productClassId: { table: 'product_class', what: 'a product class' },
  townId: { table: 'town', what: 'a town' },
  routeId: { table: 'route', what: 'a route' },
  productionUnitId: { table: 'production_unit', what: 'a production unit' },
};

const figuresOf = (row: SalesReportSqlRow): SalesFigures => ({
  value: Number(row.value),
  quantity: Number(row.quantity),
  orders: Number(row.orders),
  lines: Number(row.lines),
});

/** GET /reports/sales and GraphQL salesReport: value and quantity of order lines by period and group. */
export class SalesReportService {
  async report(ctx: RequestContext, query: SalesReportQuery): Promise<SalesReport> {
    const userId = reportedBooker(ctx, query.userId);
    const filters = await this.filters(ctx, { ...query, userId });
    const rows = await executeSql<SalesReportSqlRow>(ctx.em, salesReportStatement(ctx.organizationId, filters));
    const [totals, ...periods] = rows;
    if (periods.length > MAX_REPORT_ROWS) {
      throw new ValidationError('groupBy', `gives more than ${MAX_REPORT_ROWS.toLocaleString('en')} rows: choose a longer period or a shorter range, or filter`);
    }
    return {
      filters,
      rows: periods.map((row) => ({ period: row.period!, groupId: row.group_id, groupName: row.group_name, ...figuresOf(row) })),
      totals: figuresOf(totals),
    };
  }

  /** The query checked, with its defaults: a 400 naming the first field that is wrong. */
  private async filters(ctx: RequestContext, query: SalesReportQuery): Promise<SalesReportFilters> {
    const period = query.period ?? SalesReportPeriod.MONTH;
    if (!Object.values(SalesReportPeriod).includes(period)) throw new ValidationError('period', 'must be day, week or month');
    const groupBy = query.groupBy ?? null;
    if (groupBy !== null && !Object.values(SalesReportGroupBy).includes(groupBy)) {
      throw new ValidationError('groupBy', `must be one of ${Object.values(SalesReportGroupBy).join(', ')}`);
    }
    const ids = Object.fromEntries(SALES_REPORT_ID_FILTERS.map((name) => [name, query[name] ?? null])) as Record<SalesReportIdFilter, number | null>;
    await this.checkOwned(ctx, ids);
    const range = await reportRange(ctx.em, ctx.organizationId, query);
    return { ...range, period, groupBy, ...ids };
  }

  /** Each id filter sent must name a record of the workspace (of the right kind): one statement for all. */
  private async checkOwned(ctx: RequestContext, ids: Record<SalesReportIdFilter, number | null>): Promise<void> {
    const sent = SALES_REPORT_ID_FILTERS.filter((name) => ids[name] !== null);
    if (sent.length === 0) return;
    for (const name of sent) {
      if (!Number.isSafeInteger(ids[name]) || ids[name]! < 1) throw new ValidationError(name, 'must be a positive integer');
    }
    const t = tenantSql(ctx.organizationId, 'x');
    const checks = sent.map((name) => {
      const { table, condition } = OWNED_BY_WORKSPACE[name];
      return sql`exists (select 1 from ${raw(table)} x where ${t.owns()} and x.id = ${ids[name]}${raw(condition ? ` and x.${condition}` : '')}) as ${raw(`"${name}"`)}`;
    });
    const [found] = await executeSql<Record<SalesReportIdFilter, boolean>>(ctx.em, sql`select ${joinSql(checks, ', ')}`);
    const missing = sent.find((name) => !found[name]);
    if (missing) throw new ValidationError(missing, `does not name ${OWNED_BY_WORKSPACE[missing].what} of this workspace`);
  }
}

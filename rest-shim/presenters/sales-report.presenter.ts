import { Type } from '@sinclair/typebox';
import { Nullable } from '../schemas';
import { SalesReportGroupBy, SalesReportPeriod, type SalesFigures, type SalesReport } from '../../src/domains/reports/sales-report.types';

const figureFields = {
  value: Type.Number({ description: 'Sum of the lines’ amounts' }),
  quantity: Type.Number({ description: 'Sum of the lines’ quantities: pieces of their variants as ordered (not in the class’s unit)' }),
  orders: Type.Integer({ description: 'Distinct orders' }),
  lines: Type.Integer({ description: 'Order lines' }),
};

export const SalesReportBody = Type.Object({
  filters: Type.Object({
    date_from: Type.String(),
    date_to: Type.String(),
    period: Type.String({ enum: Object.values(SalesReportPeriod) }),
    group_by: Nullable(Type.String({ enum: Object.values(SalesReportGroupBy) })),
    user_id: Nullable(Type.Integer()),
    customer_id: Nullable(Type.Integer()),
    product_class_id: Nullable(Type.Integer()),
    town_id: Nullable(Type.Integer()),
    route_id: Nullable(Type.Integer()),
    production_unit_id: Nullable(Type.Integer()),
  }),
  rows: Type.Array(
    Type.Object({
      period: Type.String({ description: 'The period’s first day, YYYY-MM-DD (a week’s Monday, a month’s 1st)' }),
      group_id: Nullable(Type.Integer({ description: 'null without group_by, and for orders without one' })),
      group_name: Nullable(Type.String()),
      ...figureFields,
    }),
  ),
  totals: Type.Object(figureFields),
});

const figures = (f: SalesFigures) => ({ value: f.value, quantity: f.quantity, orders: f.orders, lines: f.lines });

/** A sales report in the REST interface's snake_case. */
export function presentSalesReport(report: SalesReport) {
  const f = report.filters;
  return {
    filters: {
      date_from: f.dateFrom,
      date_to: f.dateTo,
      period: f.period,
      group_by: f.groupBy,
      user_id: f.userId,
      customer_id: f.customerId,
      product_class_id: f.productClassId,
      town_id: f.townId,
      route_id: f.routeId,
      production_unit_id: f.productionUnitId,
    },
    rows: report.rows.map((r) => ({ period: r.period, group_id: r.groupId, group_name: r.groupName, ...figures(r) })),
    totals: figures(report.totals),
  };
}

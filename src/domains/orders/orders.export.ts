import { Int } from 'type-graphql';
import { executeSql, joinSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { checkDateRange, dateRangeFilters, dateRangeLine, type DateRange } from '../exports/date-range';
import { defineExport, isoDate, localTimestamp, type ExportFilter } from '../exports/export-source';
import { OrderStatus } from './order.entity';
import { ORDER_STATUS_LABELS } from './order-status.rules';

const statusLabel = `case o.status ${Object.entries(ORDER_STATUS_LABELS)
  .map(([code, label]) => `when ${Number(code)} then '${label}'`)
  .join(' ')} end`;

type OrderExportFilters = DateRange & { orderStatus?: OrderStatus; productionUnitId?: number };

/** A production unit of the caller's workspace; its name goes on the title lines. */
const productionUnitFilter: ExportFilter<number> = {
  graphqlType: () => Int,
  description: 'orders of this production unit',
  async check(name, id, { em, organizationId }) {
    const t = tenantSql(organizationId, 'pu');
    const [unit] = await executeSql<{ name: string }>(em, sql`select pu.name from production_unit pu where ${t.owns()} and pu.id = ${id}`);
    if (!unit) throw new ValidationError(name, 'is not a production unit of this workspace');
    return { value: id, label: unit.name };
  },
};

/** Conditions on `sales_order o`'s order_date for a date range. */
export function orderDateConditions(range: DateRange, where: Sql[]): void {
  if (range.dateFrom) where.push(sql`o.order_date >= ${range.dateFrom}`);
  if (range.dateTo) where.push(sql`o.order_date <= ${range.dateTo}`);
}

/** One row per order, oldest order date first. */
export const ordersExport = defineExport<OrderExportFilters>({
  kind: 'orders',
  description: 'one row per order',
  title: 'Orders',
  filters: {
    orderStatus: { graphqlType: () => OrderStatus, description: 'of this status' },
    ...dateRangeFilters('order date'),
    productionUnitId: productionUnitFilter,
  },
  checkTogether: checkDateRange,
  orientation: 'landscape',
  columns: [
    { key: 'order_code', header: 'Order code', type: 'text', width: 18 },
    { key: 'order_date', header: 'Order date', type: 'date', width: 12 },
    { key: 'status', header: 'Status', type: 'text', width: 11 },
    { key: 'customer', header: 'Customer', type: 'text', width: 20 },
    { key: 'store_name', header: 'Store', type: 'text', width: 20 },
    { key: 'town', header: 'Town', type: 'text', width: 16 },
    { key: 'route', header: 'Route', type: 'text', width: 16 },
    { key: 'production_unit', header: 'Production unit', type: 'text', width: 18 },
    { key: 'items_count', header: 'Items', type: 'integer', width: 10, total: true },
    // Wide enough in print for a bold total of 99,99,99,999.99.
    { key: 'total_amount', header: 'Total amount', type: 'money', width: 18, total: true },
    { key: 'mode_of_payment', header: 'Payment mode', type: 'text', width: 14 },
    { key: 'delivery_date', header: 'Delivery date', type: 'date', width: 13 },
    { key: 'created_at', header: 'Placed at', type: 'datetime', width: 17 },
  ],
  rows(organizationId, f) {
    const t = tenantSql(organizationId, 'o');
    const where: Sql[] = [t.owns()];
    if (f.orderStatus !== undefined) where.push(sql`o.status = ${f.orderStatus}`);
    orderDateConditions(f, where);
    if (f.productionUnitId !== undefined) where.push(sql`o.production_unit_id = ${f.productionUnitId}`);
    return {
      select: `o.order_code, ${isoDate('o.order_date')} as order_date, ${statusLabel} as status,
        trim(c.first_name || ' ' || c.last_name) as customer, c.store_name, t.name as town, r.name as route,
        pu.name as production_unit, o.items_count, o.total_amount, o.mode_of_payment,
        ${isoDate('o.delivery_date')} as delivery_date, ${localTimestamp('o.created_at')} as created_at`,
      from: sql`sales_order o
        ${t.join('workspace_config', 'wc')}
        ${t.join('app_user', 'c', 'c.id = o.customer_id')}
        ${t.leftJoin('town', 't', 't.id = o.town_id')}
        ${t.leftJoin('route', 'r', 'r.id = o.route_id')}
        ${t.leftJoin('production_unit', 'pu', 'pu.id = o.production_unit_id')}
        where ${joinSql(where, ' and ')}`,
      orderBy: 'o.order_date, o.id',
      count: sql`sales_order o ${t.join('workspace_config', 'wc')} where ${joinSql(where, ' and ')}`,
    };
  },
  describe(f, labels) {
    return [
      ...(f.orderStatus !== undefined ? [`Status: ${ORDER_STATUS_LABELS[f.orderStatus]}`] : []),
      ...dateRangeLine('Order date', f),
      ...(labels.productionUnitId !== undefined ? [`Production unit: ${labels.productionUnitId}`] : []),
    ];
  },
});

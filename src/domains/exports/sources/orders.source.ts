import { joinSql, sql, tenantSql, type Sql } from '../../../db/tenant-sql';
import { ORDER_STATUS_LABELS } from '../../orders/order-status.rules';
import type { ExportFilters } from '../export-kinds';
import { dateRangeLine, isoDate, localTimestamp, orderDateConditions, type ExportSource } from './export-source';

const statusLabel = `case o.status ${Object.entries(ORDER_STATUS_LABELS)
  .map(([code, label]) => `when ${Number(code)} then '${label}'`)
  .join(' ')} end`;

/** One row per order, oldest order date first. */
export const ordersSource: ExportSource = {
  title: 'Orders',
  filters: ['orderStatus', 'dateFrom', 'dateTo', 'productionUnitId'],
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
  rows(organizationId, f: ExportFilters) {
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
  describe(f, names) {
    return [
      ...(f.orderStatus !== undefined ? [`Status: ${ORDER_STATUS_LABELS[f.orderStatus]}`] : []),
      ...dateRangeLine('Order date', f),
      ...(names.productionUnit !== undefined ? [`Production unit: ${names.productionUnit}`] : []),
    ];
  },
};

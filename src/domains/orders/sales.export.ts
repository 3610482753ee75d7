import { joinSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { checkDateRange, dateRangeFilters, dateRangeLine, type DateRange } from '../exports/date-range';
import { defineExport, isoDate } from '../exports/export-source';
import { orderDateConditions } from './orders.export';

/** One row per order line: what was sold, when, to whom; quantities also in the class's unit. */
export const salesExport = defineExport<DateRange>({
  kind: 'sales',
  description: 'one row per order line',
  title: 'Sales',
  filters: dateRangeFilters('order date'),
  checkTogether: checkDateRange,
  orientation: 'landscape',
  columns: [
    { key: 'order_date', header: 'Order date', type: 'date', width: 12 },
    { key: 'order_code', header: 'Order code', type: 'text', width: 18 },
    { key: 'customer', header: 'Customer', type: 'text', width: 22 },
    { key: 'town', header: 'Town', type: 'text', width: 14 },
    { key: 'product_class', header: 'Class', type: 'text', width: 14 },
    { key: 'product', header: 'Product', type: 'text', width: 22 },
    { key: 'variant', header: 'Variant', type: 'text', width: 16 },
    { key: 'sku', header: 'SKU', type: 'text', width: 14 },
    { key: 'quantity', header: 'Quantity', type: 'integer', width: 10, total: true },
    { key: 'class_quantity', header: 'In class unit', type: 'quantity', width: 13 },
    { key: 'unit', header: 'Unit', type: 'text', width: 8 },
    { key: 'unit_price', header: 'Unit price', type: 'money', width: 12 },
    { key: 'amount', header: 'Amount', type: 'money', width: 14, total: true },
  ],
  rows(organizationId, f) {
    const t = tenantSql(organizationId, 'i');
    const where: Sql[] = [t.owns()];
    orderDateConditions(f, where);
    const byOrderDate = f.dateFrom !== undefined || f.dateTo !== undefined;
    return {
      select: `${isoDate('o.order_date')} as order_date, o.order_code, trim(c.first_name || ' ' || c.last_name) as customer,
        t.name as town, pc.name as product_class, p.name as product, v.variant_name as variant, v.item_sku_code as sku,
        i.quantity, i.quantity * v.unit_quantity as class_quantity, pc.unit, i.unit_price, i.amount`,
      from: sql`order_item i
        ${t.join('sales_order', 'o', 'o.id = i.order_id')}
        ${t.join('app_user', 'c', 'c.id = o.customer_id')}
        ${t.leftJoin('town', 't', 't.id = o.town_id')}
        ${t.join('product_variant', 'v', 'v.id = i.product_variant_id')}
        ${t.join('product', 'p', 'p.id = v.product_id')}
        ${t.join('product_class', 'pc', 'pc.id = p.product_class_id')}
        where ${joinSql(where, ' and ')}`,
      orderBy: 'o.order_date, o.id, i.id',
      // The order only when its date is filtered on: every line has its order (a composite key).
      count: sql`order_item i ${byOrderDate ? t.join('sales_order', 'o', 'o.id = i.order_id') : raw('')} where ${joinSql(where, ' and ')}`,
    };
  },
  describe(f) {
    return dateRangeLine('Order date', f);
  },
});

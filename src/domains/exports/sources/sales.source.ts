import { dateRangeLine, isoDate, orderDateConditions, type ExportSource } from './export-source';

/** One row per order line: what was sold, when, to whom; quantities also in the class's unit. */
export const salesSource: ExportSource = {
  title: 'Sales',
  filters: ['dateFrom', 'dateTo'],
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
    const where = ['i.organization_id = ?'];
    const params: unknown[] = [organizationId];
    orderDateConditions(f, where, params);
    return {
      select: `${isoDate('o.order_date')} as order_date, o.order_code, trim(c.first_name || ' ' || c.last_name) as customer,
        t.name as town, pc.name as product_class, p.name as product, v.variant_name as variant, v.item_sku_code as sku,
        i.quantity, i.quantity * v.unit_quantity as class_quantity, pc.unit, i.unit_price, i.amount`,
      from: `order_item i
        join sales_order o on o.id = i.order_id
        join app_user c on c.id = o.customer_id
        left join town t on t.id = o.town_id
        join product_variant v on v.id = i.product_variant_id
        join product p on p.id = v.product_id
        join product_class pc on pc.id = p.product_class_id
        where ${where.join(' and ')}`,
      orderBy: 'o.order_date, o.id, i.id',
      params,
    };
  },
  describe(f) {
    return dateRangeLine('Order date', f);
  },
};

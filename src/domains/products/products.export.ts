import { Int } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, joinSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { defineExport, type ExportFilter } from '../exports/export-source';

type ProductExportFilters = { productStatus?: ActiveStatus; productClassId?: number };

const statusText = (column: string) => `case ${column} when ${ActiveStatus.ACTIVE} then 'Active' else 'Inactive' end`;

/** A product class of the caller's workspace; its name goes on the title lines. */
const productClassFilter: ExportFilter<number> = {
  graphqlType: () => Int,
  description: 'products of this class',
  async check(name, id, { em, organizationId }) {
    const t = tenantSql(organizationId, 'pc');
    const [found] = await executeSql<{ name: string }>(em, sql`select pc.name from product_class pc where ${t.owns()} and pc.id = ${id}`);
    if (!found) throw new ValidationError(name, 'is not a product class of this workspace');
    return { value: id, label: found.name };
  },
};

/** GET /exports/products: one row per variant with its product, class and prices (a price list). */
export const productsExport = defineExport<ProductExportFilters>({
  kind: 'products',
  description: 'one row per product variant, with its prices',
  title: 'Products',
  filters: {
    productStatus: { graphqlType: () => ActiveStatus, description: 'products active (1) or inactive (0)' },
    productClassId: productClassFilter,
  },
  orientation: 'landscape',
  columns: [
    { key: 'product', header: 'Product', type: 'text', width: 24 },
    { key: 'product_class', header: 'Class', type: 'text', width: 14 },
    { key: 'hsn', header: 'HSN', type: 'text', width: 9 },
    { key: 'variant', header: 'Variant', type: 'text', width: 16 },
    { key: 'sku', header: 'SKU', type: 'text', width: 16 },
    { key: 'unit_quantity', header: 'In class unit', type: 'quantity', width: 10 },
    { key: 'unit', header: 'Unit', type: 'text', width: 8 },
    { key: 'mrp', header: 'MRP', type: 'money', width: 11 },
    { key: 'sp', header: 'Selling price', type: 'money', width: 11 },
    { key: 'product_status', header: 'Product status', type: 'text', width: 10 },
    { key: 'variant_status', header: 'Variant status', type: 'text', width: 10 },
  ],
  rows(organizationId, f) {
    const t = tenantSql(organizationId, 'v');
    const where: Sql[] = [t.owns()];
    if (f.productStatus !== undefined) where.push(sql`p.status = ${f.productStatus}`);
    if (f.productClassId !== undefined) where.push(sql`p.product_class_id = ${f.productClassId}`);
    const byProduct = f.productStatus !== undefined || f.productClassId !== undefined;
    return {
      select: `p.name as product, pc.name as product_class, p.hsn, v.variant_name as variant, v.item_sku_code as sku,
        v.unit_quantity, pc.unit, v.mrp, v.sp, ${statusText('p.status')} as product_status, ${statusText('v.status')} as variant_status`,
      from: sql`product_variant v
        ${t.join('product', 'p', 'p.id = v.product_id')}
        ${t.join('product_class', 'pc', 'pc.id = p.product_class_id')}
        where ${joinSql(where, ' and ')}`,
      orderBy: 'lower(p.name), p.id, v.id',
      // Every variant has its product and class (composite keys on NOT NULL columns): the product only when filtered on.
      count: byProduct ? sql`product_variant v ${t.join('product', 'p', 'p.id = v.product_id')} where ${joinSql(where, ' and ')}` : sql`product_variant v where ${joinSql(where, ' and ')}`,
    };
  },
  describe(f, labels) {
    return [
      ...(f.productStatus !== undefined ? [`Products: ${f.productStatus === ActiveStatus.ACTIVE ? 'Active' : 'Inactive'}`] : []),
      ...(f.productClassId !== undefined ? [`Class: ${labels.productClassId ?? f.productClassId}`] : []),
    ];
  },
});

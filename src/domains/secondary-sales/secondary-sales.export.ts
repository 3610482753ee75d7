import { Int } from 'type-graphql';
import { executeSql, joinSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { checkDateRange, dateRangeFilters, dateRangeLine, type DateRange } from '../exports/date-range';
import { defineExport, isoDate, type ExportFilter } from '../exports/export-source';
import { UserType } from '../users/user.entity';

type SecondarySaleExportFilters = DateRange & { distributorId?: number; retailerId?: number };

/** A customer of one type of the caller's workspace; their name (and store) goes on the title lines. */
const customerFilter = (type: UserType, what: string): ExportFilter<number> => ({
  graphqlType: () => Int,
  description: `sales ${type === UserType.DISTRIBUTOR ? 'by' : 'to'} this ${what}`,
  async check(name, id, { em, organizationId }) {
    const t = tenantSql(organizationId, 'u');
    const [found] = await executeSql<{ label: string }>(
      em,
      sql`select trim(u.first_name || ' ' || u.last_name) || coalesce(' (' || u.store_name || ')', '') as label
            from app_user u where ${t.owns()} and u.id = ${id} and u.user_type = ${type}`,
    );
    if (!found) throw new ValidationError(name, `is not a ${what} of this workspace`);
    return { value: id, label: found.label };
  },
});

const person = (alias: string) => `trim(${alias}.first_name || ' ' || ${alias}.last_name)`;

/** GET /exports/secondary-sales: one row per secondary sale (invoice), oldest invoice date first. */
export const secondarySalesExport = defineExport<SecondarySaleExportFilters>({
  kind: 'secondary-sales',
  description: 'one row per secondary sale (a distributor’s invoice to a retailer)',
  title: 'Secondary sales',
  filters: {
    distributorId: customerFilter(UserType.DISTRIBUTOR, 'distributor'),
    retailerId: customerFilter(UserType.RETAILER, 'retailer'),
    ...dateRangeFilters('invoice date'),
  },
  checkTogether: checkDateRange,
  orientation: 'landscape',
  columns: [
    { key: 'invoice_date', header: 'Invoice date', type: 'date', width: 12 },
    { key: 'invoice_no', header: 'Invoice no', type: 'text', width: 16 },
    { key: 'distributor', header: 'Distributor', type: 'text', width: 20 },
    { key: 'distributor_store', header: 'Distributor store', type: 'text', width: 20 },
    { key: 'retailer', header: 'Retailer', type: 'text', width: 20 },
    { key: 'retailer_store', header: 'Retailer store', type: 'text', width: 20 },
    { key: 'items_count', header: 'Items', type: 'integer', width: 8, total: true },
    { key: 'quantity', header: 'Quantity', type: 'integer', width: 10, total: true },
    { key: 'free_quantity', header: 'Free quantity', type: 'integer', width: 10, total: true },
    { key: 'gross_amount', header: 'Gross amount', type: 'money', width: 16, total: true },
    { key: 'scheme_discount', header: 'Scheme discount', type: 'money', width: 14, total: true },
    { key: 'net_amount', header: 'Net amount', type: 'money', width: 16, total: true },
  ],
  rows(organizationId, f) {
    const t = tenantSql(organizationId, 's');
    const where: Sql[] = [t.owns()];
    if (f.distributorId !== undefined) where.push(sql`s.distributor_id = ${f.distributorId}`);
    if (f.retailerId !== undefined) where.push(sql`s.retailer_id = ${f.retailerId}`);
    if (f.dateFrom) where.push(sql`s.invoice_date >= ${f.dateFrom}`);
    if (f.dateTo) where.push(sql`s.invoice_date <= ${f.dateTo}`);
    return {
      select: `${isoDate('s.invoice_date')} as invoice_date, s.invoice_no, ${person('d')} as distributor, d.store_name as distributor_store,
        ${person('r')} as retailer, r.store_name as retailer_store, s.items_count,
        (select sum(l.quantity) from secondary_sale_line l where l.secondary_sale_id = s.id and l.organization_id = s.organization_id) as quantity,
        (select sum(l.free_quantity) from secondary_sale_line l where l.secondary_sale_id = s.id and l.organization_id = s.organization_id) as free_quantity,
        s.gross_amount, s.scheme_discount, s.net_amount`,
      from: sql`secondary_sale s
        ${t.join('app_user', 'd', 'd.id = s.distributor_id')}
        ${t.join('app_user', 'r', 'r.id = s.retailer_id')}
        where ${joinSql(where, ' and ')}`,
      orderBy: 's.invoice_date, s.id',
      count: sql`secondary_sale s where ${joinSql(where, ' and ')}`,
    };
  },
  describe(f, labels) {
    return [
      ...(labels.distributorId !== undefined ? [`Distributor: ${labels.distributorId}`] : []),
      ...(labels.retailerId !== undefined ? [`Retailer: ${labels.retailerId}`] : []),
      ...dateRangeLine('Invoice date', f),
    ];
  },
});

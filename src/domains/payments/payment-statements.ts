import type { EntityManager } from '@mikro-orm/postgresql';
import { rowJson, rowMapper } from '../../db/entity-rows';
import { executeSql, joinSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import type { Paginated } from '../../lists/page-request';
import { Order } from '../orders/order.entity';
import { Payment } from './payment.entity';
import type { PaymentRead } from './payment-read';
import { sortable, type ResolvedSort } from '../../lists/sort';
import { pickedOrder } from '../../lists/sql-sort';

/** Which payments a page reads, on `payment p`, besides the tenant's condition: each ANDed. */
export interface PaymentConditions {
  orderId?: number;
  /** paid_at at or after it. */
  paidFrom?: Date;
  /** paid_at before it. */
  paidBefore?: Date;
}

/** The payment list's sortable fields and their columns; newest payment first by default. */
export const PAYMENT_SORT = sortable({
  name: 'Payment',
  fields: { paid_at: 'p.paid_at', amount: 'p.amount', created_at: 'p.created_at', id: 'p.id' },
  default: '-paid_at',
});

/**
 * A page of the payments matching `conditions`, in the order `page.sort` gives, each with its
 * order's row, and how many match in all. One raw statement, so tenancy is written here: it is
 * rooted at `p.organization_id` bound to the organization, and the orders are matched on
 * organization_id as well as on their id (tenant-sql.ts).
 */
export async function findPaymentPage(
  em: EntityManager,
  organizationId: number,
  conditions: PaymentConditions,
  page: { page: number; limit: number; offset: number; sort: ResolvedSort<string> },
): Promise<Paginated<PaymentRead>> {
  const t = tenantSql(organizationId, 'p');
  const where: Sql[] = [t.owns()];
  if (conditions.orderId !== undefined) where.push(sql`p.order_id = ${conditions.orderId}`);
  if (conditions.paidFrom) where.push(sql`p.paid_at >= ${conditions.paidFrom}`);
  if (conditions.paidBefore) where.push(sql`p.paid_at < ${conditions.paidBefore}`);
  const from = sql`payment p where ${joinSql(where, ' and ')}`;
  const rows = raw(`json_build_array(${rowJson(em, Payment, 'p')}, ${rowJson(em, Order, 'o')})`);
  const picked = t.rooted('picked');
  const ordered = pickedOrder(page.sort);
  const [row] = await executeSql<{ count: number; payments: Array<[unknown[], unknown[]]> | null }>(
    em,
    sql`with picked as materialized (select p.id, p.organization_id, ${raw(ordered.keys)} from ${from} order by ${raw(ordered.orderBy)} limit ${page.limit} offset ${page.offset})
      select (select count(*)::int from ${from}) as count,
        (select json_agg(${rows} order by ${raw(ordered.pickedOrderBy)})
          from picked ${picked.join('payment', 'p', 'p.id = picked.id')} ${picked.join('sales_order', 'o', 'o.id = p.order_id')}) as payments`,
  );
  const [payment, order] = [rowMapper(em, Payment), rowMapper(em, Order)];
  const items = (row.payments ?? []).map(([p, o]) => ({ payment: payment(p), order: order(o) }));
  return { items, total: row.count, page: page.page, limit: page.limit };
}

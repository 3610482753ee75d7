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
  /** These payments only. */
  ids?: number[];
  orderId?: number;
  customerId?: number;
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
 * order's row (none: on account), its allocations and unallocated amount, and how many match in all. One raw statement, so tenancy is written here: it is
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
  if (conditions.ids !== undefined) where.push(sql`p.id = any(${`{${conditions.ids.join(',')}}`}::int[])`);
  if (conditions.orderId !== undefined) where.push(sql`p.order_id = ${conditions.orderId}`);
  if (conditions.customerId !== undefined) where.push(sql`p.customer_id = ${conditions.customerId}`);
  if (conditions.paidFrom) where.push(sql`p.paid_at >= ${conditions.paidFrom}`);
  if (conditions.paidBefore) where.push(sql`p.paid_at < ${conditions.paidBefore}`);
  const from = sql`payment p where ${joinSql(where, ' and ')}`;
  // An allocation is listed net per order (the order first allocated first); unallocated: on account only.
  const rows = raw(`json_build_array(${rowJson(em, Payment, 'p')}, case when o.id is null then null else ${rowJson(em, Order, 'o')} end,
    (select json_agg(json_build_array(a.order_id, a.amount::text) order by a.first)
       from (select pa.order_id, sum(pa.amount) as amount, min(pa.id) as first from payment_allocation pa
              where pa.organization_id = p.organization_id and pa.payment_id = p.id group by pa.order_id having sum(pa.amount) <> 0) a),
    case when p.order_id is null
         then (p.amount - coalesce((select sum(pa.amount) from payment_allocation pa where pa.organization_id = p.organization_id and pa.payment_id = p.id), 0))::text
         else '0' end)`);
  const picked = t.rooted('picked');
  const ordered = pickedOrder(page.sort);
  const [row] = await executeSql<{ count: number; payments: Array<[unknown[], unknown[] | null, Array<[number, string]> | null, string]> | null }>(
    em,
    sql`with picked as materialized (select p.id, p.organization_id, ${raw(ordered.keys)} from ${from} order by ${raw(ordered.orderBy)} limit ${page.limit} offset ${page.offset})
      select (select count(*)::int from ${from}) as count,
        (select json_agg(${rows} order by ${raw(ordered.pickedOrderBy)})
          from picked ${picked.join('payment', 'p', 'p.id = picked.id')} ${picked.leftJoin('sales_order', 'o', 'o.id = p.order_id')}) as payments`,
  );
  const [payment, order] = [rowMapper(em, Payment), rowMapper(em, Order)];
  const items = (row.payments ?? []).map(([p, o, allocated, unallocated]) => ({
    payment: payment(p),
    order: o === null ? null : order(o),
    allocations: (allocated ?? []).map(([orderId, amount]) => ({ orderId, amount: Number(amount) })),
    unallocatedAmount: Number(unallocated),
  }));
  return { items, total: row.count, page: page.page, limit: page.limit };
}

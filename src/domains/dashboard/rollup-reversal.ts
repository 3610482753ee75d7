import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { paidOn } from '../payments/payment-allocation';

/*
 * A cancelled order leaves the dashboard: its share of order_day_rollup (one order, its total, what
 * was paid on it, directly or by allocations of on-account payments, and what is outstanding) and of line_day_rollup (its lines) is subtracted, in the
 * transaction of the cancel, as a reversal: the rollups are sums, the cancel is a recorded event, and
 * nothing is deleted. The triggers of Migration20261126100000 do not see a cancel (it changes none
 * of the columns they sum by), and rollups.ts's definition leaves cancelled orders out, so
 * `stats:check` agrees with the rows after it. The rollup rows are locked in the triggers' order
 * (orders before lines, each in key order), so a cancel and a writer cannot deadlock.
 */

/** Subtracts order `orderId`'s share from the workspace's rollups; call it in the cancel's transaction, after locking the order. */
export async function reverseOrderInRollups(em: EntityManager, organizationId: number, orderId: number): Promise<void> {
  const t = tenantSql(organizationId, 'o');
  await executeSql(
    em,
    sql`with share as (
        select o.organization_id, o.order_date as day, o.status, o.total_amount as total,
               ${paidOn('o')} as paid
          from sales_order o where ${t.owns()} and o.id = ${orderId})
      update order_day_rollup r
         set orders = r.orders - 1, total_amount = r.total_amount - s.total, paid_amount = r.paid_amount - s.paid,
             outstanding_amount = r.outstanding_amount - greatest(s.total - s.paid, 0), updated_at = now()
        from share s
       where r.organization_id = s.organization_id and r.day = s.day and r.status = s.status`,
  );
  await executeSql(
    em,
    sql`with share as (
        select li.organization_id, o.order_date as day, li.product_variant_id, count(*)::int as lines, sum(li.quantity)::bigint as quantity
          from sales_order o join order_item li on li.organization_id = o.organization_id and li.order_id = o.id
         where ${t.owns()} and o.id = ${orderId}
         group by li.organization_id, o.order_date, li.product_variant_id),
      locked as (
        select r.id from line_day_rollup r join share s on r.organization_id = s.organization_id and r.day = s.day and r.product_variant_id = s.product_variant_id
         order by r.organization_id, r.day, r.product_variant_id for no key update of r)
      update line_day_rollup r
         set lines = r.lines - s.lines, quantity = r.quantity - s.quantity, updated_at = now()
        from share s
       where r.organization_id = s.organization_id and r.day = s.day and r.product_variant_id = s.product_variant_id and r.id in (select id from locked)`,
  );
}

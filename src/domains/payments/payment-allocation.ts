import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { OrderStatus } from '../orders/order.entity';

/*
 * On-account payments settled against orders (payment_allocation, Migration20261127160000).
 *
 * An order's paid amount is its direct payments plus its allocations; what it still owes is its
 * total less both. Every writer that changes it holds the order's row lock: a direct payment and
 * its void lock the one order (payment.service.ts), an allocation and an on-account void lock
 * every order they touch, in id order (the order the dashboard's triggers lock them in), so none
 * of them can deadlock with another and two of them cannot both settle the same amount.
 */

/** What order `alias` has been paid: its direct payments and allocations (same workspace). */
export function paidOn(alias: string): Sql {
  return raw(`(coalesce((select sum(x.amount) from payment x where x.organization_id = ${alias}.organization_id and x.order_id = ${alias}.id), 0)
    + coalesce((select sum(x.amount) from payment_allocation x where x.organization_id = ${alias}.organization_id and x.order_id = ${alias}.id), 0))`);
}

/** A row of an allocation just written. */
export interface Allocated {
  orderId: number;
  amount: number;
}

/**
 * Allocates up to `amount` of on-account payment `paymentId` over customer `customerId`'s open
 * delivered orders (delivered, not cancelled, still owing), oldest first (delivery date, then id),
 * in `tx`'s transaction; the rest stays unallocated. Locks the orders that owed when it looked
 * (FOR UPDATE, in id order), then reads what they owe again under the locks, so a payment or an
 * allocation committed meanwhile is counted. Returns the rows written (none: nothing open).
 */
export async function allocateOldestFirst(tx: EntityManager, organizationId: number, paymentId: number, customerId: number, amount: number): Promise<Allocated[]> {
  const t = tenantSql(organizationId, 'o');
  const open = sql`${t.owns()} and o.customer_id = ${customerId} and o.status = ${OrderStatus.DELIVERED} and o.cancelled_at is null`;
  const locked = await executeSql<{ id: number }>(tx, sql`select o.id from sales_order o where ${open} and o.total_amount > ${paidOn('o')} order by o.id for update of o`);
  if (locked.length === 0) return [];
  const ids = `{${locked.map((l) => Number(l.id)).join(',')}}`;
  // A new statement: it sees what was committed before the locks were granted.
  const rows = await executeSql<{ order_id: number; amount: string }>(
    tx,
    sql`with owing as (
          select o.id, coalesce(o.delivery_date, o.order_date) as day, o.total_amount - ${paidOn('o')} as owes
            from sales_order o where ${open} and o.id = any(${ids}::int[])),
        running as (
          select w.id, w.day, w.owes, sum(w.owes) over (order by w.day, w.id) - w.owes as before from owing w where w.owes > 0)
      insert into payment_allocation (organization_id, payment_id, order_id, amount)
      select ${organizationId}, ${paymentId}, r.id, least(r.owes, ${amount}::numeric - r.before)
        from running r where r.before < ${amount}::numeric
       order by r.day, r.id
      returning order_id, amount`,
  );
  return rows.map((r) => ({ orderId: Number(r.order_id), amount: Number(r.amount) }));
}

/**
 * Voids the allocations of on-account payment `paymentId`: the negated rows, attached to
 * `voidId` (the void payment), each naming the row it reverses, after locking the orders (in id
 * order). The orders owe those amounts again; nothing is updated.
 */
export async function reverseAllocations(tx: EntityManager, organizationId: number, paymentId: number, voidId: number): Promise<void> {
  const t = tenantSql(organizationId, 'a');
  await executeSql(
    tx,
    sql`select o.id from sales_order o where o.organization_id = ${organizationId}
          and o.id in (select a.order_id from payment_allocation a where ${t.owns()} and a.payment_id = ${paymentId})
        order by o.id for update of o`,
  );
  await executeSql(
    tx,
    sql`insert into payment_allocation (organization_id, payment_id, order_id, amount, reverses_id)
        select a.organization_id, ${voidId}, a.order_id, -a.amount, a.id from payment_allocation a
         where ${t.owns()} and a.payment_id = ${paymentId} and a.reverses_id is null
         order by a.id`,
  );
}

/** What on-account payment `paymentId` has allocated, net. */
export async function allocatedOf(tx: EntityManager, organizationId: number, paymentId: number): Promise<number> {
  const t = tenantSql(organizationId, 'a');
  const [row] = await executeSql<{ amount: string }>(tx, sql`select coalesce(sum(a.amount), 0) as amount from payment_allocation a where ${t.owns()} and a.payment_id = ${paymentId}`);
  return Number(row.amount);
}

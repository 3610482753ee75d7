import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { LedgerEntryKind } from './ledger-entry.entity';

/** A customer whose ledger disagrees with the documents, in figures. */
export interface LedgerDifference {
  customerId: number;
  /** The ledger's balance, and the documents' (delivered orders − payments ± notes, opening balances and crate charges). */
  balance: { ledger: number; documents: number };
  /** The order postings net of reversals, and the delivered, not cancelled orders' totals. */
  orders: { ledger: number; documents: number };
  /** The payment postings net of reversals, and the payments' amounts (on account ones too: allocations are no money). */
  payments: { ledger: number; documents: number };
}

/** What `ledger:verify` found for one workspace. */
export interface LedgerCheck {
  customers: number;
  differences: LedgerDifference[];
  /** Reversal rows that do not mirror their original (other customer, side or amount). */
  badReversals: number[];
}

const K = LedgerEntryKind;

/**
 * The ledger's invariant, for every customer of a workspace: its balance (the sum of its rows)
 * equals what the documents say — delivered orders (not cancelled) − payments + debit notes −
 * credit notes ± opening balances + crate charges, each note, opening balance and charge net of its
 * reversal — and the order and payment postings equal the orders and payments themselves. Also
 * lists reversals that do not mirror their original. Read-only; the figures come straight from
 * the documents' tables, not from the ledger.
 */
export async function verifyLedger(em: EntityManager, organizationId: number): Promise<LedgerCheck> {
  const t = tenantSql(organizationId, 'l');
  const rows = await executeSql<{ customer_id: number; ledger: string; documents: string; ledger_orders: string; orders: string; ledger_payments: string; payments: string }>(
    em,
    sql`with entries as (
          select l.customer_id, l.kind, l.debit - l.credit as amount, coalesce(o.kind, l.kind) as source_kind
            from ledger_entry l ${t.leftJoin('ledger_entry', 'o', 'o.id = l.reverses_id')}
           where ${t.owns()}),
        ledger as (
          select customer_id, sum(amount) as balance,
                 coalesce(sum(amount) filter (where source_kind = ${K.ORDER}), 0) as orders,
                 coalesce(-sum(amount) filter (where source_kind = ${K.PAYMENT}), 0) as payments,
                 coalesce(sum(amount) filter (where source_kind in (${K.CREDIT_NOTE}, ${K.DEBIT_NOTE}, ${K.OPENING_BALANCE}, ${K.CRATE_CHARGE})), 0) as own_rows
            from entries group by customer_id),
        orders as (
          select so.customer_id, sum(so.total_amount) as amount from sales_order so
           where ${t.owns('so')} and so.status = 4 and so.cancelled_at is null group by so.customer_id),
        payments as (
          select p.customer_id, sum(p.amount) as amount from payment p
           where ${t.owns('p')} group by p.customer_id),
        customers as (select customer_id from ledger union select customer_id from orders union select customer_id from payments)
      select c.customer_id,
             coalesce(l.balance, 0)::text as ledger,
             (coalesce(o.amount, 0) - coalesce(p.amount, 0) + coalesce(l.own_rows, 0))::text as documents,
             coalesce(l.orders, 0)::text as ledger_orders, coalesce(o.amount, 0)::text as orders,
             coalesce(l.payments, 0)::text as ledger_payments, coalesce(p.amount, 0)::text as payments
        from customers c
        left join ledger l on l.customer_id = c.customer_id
        left join orders o on o.customer_id = c.customer_id
        left join payments p on p.customer_id = c.customer_id
       order by c.customer_id`,
  );
  const differences = rows
    .map((r) => ({
      customerId: Number(r.customer_id),
      balance: { ledger: Number(r.ledger), documents: Number(r.documents) },
      orders: { ledger: Number(r.ledger_orders), documents: Number(r.orders) },
      payments: { ledger: Number(r.ledger_payments), documents: Number(r.payments) },
    }))
    .filter((d) => d.balance.ledger !== d.balance.documents || d.orders.ledger !== d.orders.documents || d.payments.ledger !== d.payments.documents);
  const bad = await executeSql<{ id: number }>(
    em,
    sql`select l.id from ledger_entry l ${t.join('ledger_entry', 'o', 'o.id = l.reverses_id')}
         where ${t.owns()} and (l.customer_id <> o.customer_id or l.debit <> o.credit or l.credit <> o.debit or o.kind = ${K.REVERSAL})
         order by l.id`,
  );
  return { customers: rows.length, differences, badReversals: bad.map((b) => Number(b.id)) };
}

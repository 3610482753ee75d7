import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import type { LedgerEntryKind } from './ledger-entry.entity';

/** One row of a statement, with the balance after it. */
export interface StatementRow {
  id: number;
  entryDate: string;
  kind: LedgerEntryKind;
  debit: number;
  credit: number;
  balance: number;
  orderId: number | null;
  paymentId: number | null;
  reversesId: number | null;
  narration: string | null;
  reference: string | null;
}

/** What the customer owed at the statement's end, by the age of each debit still open (FIFO). */
export interface Ageing {
  days0To7: number;
  days8To15: number;
  days16To30: number;
  over30Days: number;
  /** Credits beyond every debit: money the customer has paid ahead (0 or more). */
  advance: number;
}

/** A customer's statement of account over [from, to], computed in one statement. */
export interface Statement {
  customerId: number;
  from: string;
  to: string;
  /** The sum of every row before `from`. */
  openingBalance: number;
  /** The rows in [from, to] by day, then id; all of them, or the page asked for. */
  rows: StatementRow[];
  /** How many rows [from, to] holds (the paged REST and GraphQL statements' total). */
  rowCount: number;
  totalDebit: number;
  totalCredit: number;
  /** openingBalance + the rows' debits − credits: the sum of every row up to `to`. */
  closingBalance: number;
  ageing: Ageing;
}

/** Which of the statement's rows to return (a page); every figure still counts all of them. */
export interface RowWindow {
  offset: number;
  limit: number;
}

type RowTuple = [number, string, LedgerEntryKind, string, string, string, number | null, number | null, number | null, string | null, string | null];

/**
 * THE statement of account: the REST and GraphQL statement, the ledger export and (later) the
 * customer portal and the assistant connector all read it here, so they cannot disagree. Balances
 * are sums of rows (a positive balance: the customer owes). Ageing applies every credit up to `to`
 * to the oldest debits first; what stays open of each debit is bucketed by its age on `to`.
 * One statement, rooted at the customer's rows of the workspace (tenant-sql.ts). With `window`, only
 * that page of the rows is returned (each with its running balance); the balances, totals and ageing
 * count every row.
 */
export async function ledgerStatement(em: EntityManager, organizationId: number, customerId: number, from: string, to: string, window?: RowWindow): Promise<Statement> {
  const t = tenantSql(organizationId, 'l');
  const first = window ? window.offset + 1 : 1;
  const last = window ? window.offset + window.limit : null;
  const [row] = await executeSql<{
    opening: string;
    closing: string;
    total_debit: string;
    total_credit: string;
    row_count: number;
    rows: RowTuple[] | null;
    d0: string;
    d8: string;
    d16: string;
    d31: string;
    advance: string;
  }>(
    em,
    sql`with e as materialized (
          select l.id, l.entry_date, l.kind, l.debit, l.credit, l.order_id, l.payment_id, l.reverses_id, l.narration, l.reference
            from ledger_entry l where ${t.owns()} and l.customer_id = ${customerId} and l.entry_date <= ${to}::date),
        opening as (select coalesce(sum(e.debit - e.credit), 0) as amount from e where e.entry_date < ${from}::date),
        ranged as (
          select e.*, (select amount from opening) + sum(e.debit - e.credit) over (order by e.entry_date, e.id) as balance,
                 row_number() over (order by e.entry_date, e.id) as n
            from e where e.entry_date >= ${from}::date),
        paid as (select coalesce(sum(e.credit), 0) as amount, coalesce(sum(e.debit), 0) as owed from e),
        debits as (select e.entry_date, e.debit, sum(e.debit) over (order by e.entry_date, e.id) as upto from e where e.debit > 0),
        open_debits as (
          select ${to}::date - d.entry_date as age, d.upto - greatest(paid.amount, d.upto - d.debit) as open
            from debits d, paid where d.upto > paid.amount)
      select (select amount from opening)::text as opening,
             (select coalesce(sum(e.debit - e.credit), 0) from e)::text as closing,
             (select coalesce(sum(r.debit), 0) from ranged r)::text as total_debit,
             (select coalesce(sum(r.credit), 0) from ranged r)::text as total_credit,
             (select count(*) from ranged)::int as row_count,
             (select json_agg(json_build_array(r.id, to_char(r.entry_date, 'YYYY-MM-DD'), r.kind, r.debit::text, r.credit::text, r.balance::text,
                                               r.order_id, r.payment_id, r.reverses_id, r.narration, r.reference) order by r.n)
                from ranged r where r.n >= ${first} and (${last}::bigint is null or r.n <= ${last}::bigint)) as rows,
             (select coalesce(sum(o.open) filter (where o.age <= 7), 0) from open_debits o)::text as d0,
             (select coalesce(sum(o.open) filter (where o.age between 8 and 15), 0) from open_debits o)::text as d8,
             (select coalesce(sum(o.open) filter (where o.age between 16 and 30), 0) from open_debits o)::text as d16,
             (select coalesce(sum(o.open) filter (where o.age > 30), 0) from open_debits o)::text as d31,
             (select greatest(paid.amount - paid.owed, 0) from paid)::text as advance`,
  );
  return {
    customerId,
    from,
    to,
    openingBalance: Number(row.opening),
    rows: (row.rows ?? []).map(([id, entryDate, kind, debit, credit, balance, orderId, paymentId, reversesId, narration, reference]) => ({
      id,
      entryDate,
      kind,
      debit: Number(debit),
      credit: Number(credit),
      balance: Number(balance),
      orderId,
      paymentId,
      reversesId,
      narration,
      reference,
    })),
    rowCount: row.row_count,
    totalDebit: Number(row.total_debit),
    totalCredit: Number(row.total_credit),
    closingBalance: Number(row.closing),
    ageing: { days0To7: Number(row.d0), days8To15: Number(row.d8), days16To30: Number(row.d16), over30Days: Number(row.d31), advance: Number(row.advance) },
  };
}

import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { LedgerEntry } from '../../src/domains/ledger/ledger-entry.entity';
import { LEDGER_ENTRY_KINDS, LEDGER_KIND_NAMES } from '../../src/domains/ledger/ledger-entry.entity';
import type { Statement, StatementRow } from '../../src/domains/ledger/ledger-statement';
import { DateString, Nullable, Timestamp } from '../schemas';

/** `kind` codes with their names, as descriptions list them. */
export const LEDGER_KIND_TEXT = LEDGER_ENTRY_KINDS.map((k) => `${k} ${LEDGER_KIND_NAMES[k]}`).join(', ');

const entryFields = {
  id: Type.Integer(),
  entry_date: { ...DateString, description: 'The workspace’s local day it counts on' },
  kind: Type.Integer({ description: LEDGER_KIND_TEXT }),
  debit: Type.Number({ description: 'What the customer owes more (0 on a credit row)' }),
  credit: Type.Number({ description: 'What the customer owes less (0 on a debit row)' }),
  order_id: Nullable(Type.Integer()),
  payment_id: Nullable(Type.Integer()),
  reverses_id: Nullable(Type.Integer({ description: 'The row this one reverses' })),
  narration: Nullable(Type.String()),
  reference: Nullable(Type.String()),
};

/** A ledger row. */
export const LedgerEntryBody = Type.Object({ ...entryFields, customer_id: Type.Integer(), created_at: Timestamp });

/** A customer's statement of account. */
export const LedgerStatementBody = Type.Object({
  customer_id: Type.Integer(),
  from: DateString,
  to: DateString,
  opening_balance: Type.Number({ description: 'Every row before from (positive: the customer owes)' }),
  rows: Type.Array(Type.Object({ ...entryFields, balance: Type.Number({ description: 'The balance after this row' }) }), {
    description: 'The page asked for (page, limit) of the rows in [from, to], by day then id; `pagination.total` counts them all',
  }),
  total_debit: Type.Number(),
  total_credit: Type.Number(),
  closing_balance: Type.Number({ description: 'opening_balance + total_debit − total_credit' }),
  ageing: Type.Object(
    {
      days_0_7: Type.Number(),
      days_8_15: Type.Number(),
      days_16_30: Type.Number(),
      over_30_days: Type.Number(),
      advance: Type.Number({ description: 'Credits beyond every debit: paid ahead' }),
    },
    { description: 'What stays owed on `to` by the age of each open debit, credits applied to the oldest debits first' },
  ),
});

const entryOf = (e: Pick<StatementRow, 'id' | 'entryDate' | 'kind' | 'debit' | 'credit' | 'narration' | 'reference'> & { orderId: number | null; paymentId: number | null; reversesId: number | null }) => ({
  id: e.id,
  entry_date: e.entryDate,
  kind: e.kind,
  debit: e.debit,
  credit: e.credit,
  order_id: e.orderId,
  payment_id: e.paymentId,
  reverses_id: e.reversesId,
  narration: e.narration,
  reference: e.reference,
});

export function presentLedgerEntry(e: Row<LedgerEntry>) {
  return { ...entryOf({ ...e, orderId: e.order, paymentId: e.payment, reversesId: e.reverses }), customer_id: e.customer, created_at: e.createdAt };
}

export function presentStatement(s: Statement) {
  return {
    customer_id: s.customerId,
    from: s.from,
    to: s.to,
    opening_balance: s.openingBalance,
    rows: s.rows.map((r) => ({ ...entryOf(r), balance: r.balance })),
    total_debit: s.totalDebit,
    total_credit: s.totalCredit,
    closing_balance: s.closingBalance,
    ageing: {
      days_0_7: s.ageing.days0To7,
      days_8_15: s.ageing.days8To15,
      days_16_30: s.ageing.days16To30,
      over_30_days: s.ageing.over30Days,
      advance: s.ageing.advance,
    },
  };
}

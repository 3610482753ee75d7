import { Int } from 'type-graphql';
import { ValidationError } from '../../errors/app-error';
import { dateFilter } from '../exports/date-range';
import { defineExport, type ExportFilter } from '../exports/export-source';
import { workspaceToday } from '../workspace/local-day';
import { LEDGER_KIND_NAMES } from './ledger-entry.entity';
import { ledgerStatement, type Statement } from './ledger-statement';
import { checkCustomer } from './ledger.service';

type Filters = { customerId?: number; from?: string; to?: string };

const MONEY = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (n: number) => MONEY.format(n);
const kindLabel = (kind: number) => {
  const name = LEDGER_KIND_NAMES[kind as keyof typeof LEDGER_KIND_NAMES];
  return name[0].toUpperCase() + name.slice(1).replace('_', ' ');
};

/** A customer (distributor or retailer) of the workspace, named on the title lines with their store. */
const customerFilter: ExportFilter<number> = {
  graphqlType: () => Int,
  description: 'whose statement (required)',
  check: async (name, id, { em, organizationId }) => ({ value: id, label: await checkCustomer(em, organizationId, name, id) }),
};

/** The statement's figures under the title: balances and ageing. */
function summaryLines(s: Statement): string[] {
  const a = s.ageing;
  return [
    `Opening balance: ${money(s.openingBalance)} · Debits: ${money(s.totalDebit)} · Credits: ${money(s.totalCredit)} · Closing balance: ${money(s.closingBalance)}`,
    `Outstanding by age: 0–7 days ${money(a.days0To7)} · 8–15 days ${money(a.days8To15)} · 16–30 days ${money(a.days16To30)} · over 30 days ${money(a.over30Days)}${a.advance > 0 ? ` · paid ahead ${money(a.advance)}` : ''}`,
  ];
}

/**
 * GET /exports/ledger: a customer's statement of account from THE statement function
 * (ledger-statement.ts), so the file and GET /ledger/statement cannot disagree: the opening
 * balance as the first row, each row with its running balance, the closing balance as the last,
 * the debits and credits totalled, the balances and ageing under the title.
 */
export const ledgerExport = defineExport<Filters>({
  kind: 'ledger',
  description: 'a customer’s statement of account: one row per ledger row, with the running balance',
  title: 'Statement of account',
  filters: {
    customerId: customerFilter,
    from: dateFilter('first day of the statement, YYYY-MM-DD (default: the 1st of to’s month)'),
    to: dateFilter('last day of the statement, YYYY-MM-DD (default: today)'),
  },
  checkTogether(f) {
    if (f.customerId === undefined) throw new ValidationError('customerId', 'is required');
    if (f.from && f.to && f.from > f.to) throw new ValidationError('from', 'must not be after to');
  },
  async defaults(scope, f) {
    const to = f.to ?? (await workspaceToday(scope.em, scope.organizationId));
    const from = f.from ?? `${to.slice(0, 8)}01`;
    if (from > to) throw new ValidationError('from', 'must not be after to');
    return { from, to };
  },
  orientation: 'portrait',
  columns: [
    { key: 'entry_date', header: 'Date', type: 'date', width: 11 },
    { key: 'kind', header: 'Type', type: 'text', width: 13 },
    { key: 'narration', header: 'Particulars', type: 'text', width: 34 },
    { key: 'reference', header: 'Reference', type: 'text', width: 14 },
    { key: 'debit', header: 'Debit', type: 'money', width: 12, total: true },
    { key: 'credit', header: 'Credit', type: 'money', width: 12, total: true },
    { key: 'balance', header: 'Balance', type: 'money', width: 13 },
  ],
  async computedRows(scope, f) {
    const s = await ledgerStatement(scope.em, scope.organizationId, f.customerId!, f.from!, f.to!);
    const rows = [
      { entry_date: s.from, kind: 'Opening balance', narration: 'Balance brought forward', reference: null, debit: null, credit: null, balance: s.openingBalance },
      ...s.rows.map((r) => ({
        entry_date: r.entryDate,
        kind: kindLabel(r.kind),
        narration: r.narration,
        reference: r.reference,
        debit: r.debit === 0 ? null : r.debit,
        credit: r.credit === 0 ? null : r.credit,
        balance: r.balance,
      })),
      { entry_date: s.to, kind: 'Closing balance', narration: 'Balance carried forward', reference: null, debit: null, credit: null, balance: s.closingBalance },
    ];
    return { rows, lines: summaryLines(s) };
  },
  describe(f, labels) {
    return [`Customer: ${labels.customerId ?? f.customerId}`, `Period: ${f.from} to ${f.to}`];
  },
});

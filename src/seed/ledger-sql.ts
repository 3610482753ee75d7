import type { ClientBase } from 'pg';
import { LedgerEntryKind } from '../domains/ledger/ledger-entry.entity';
import { UserType } from '../domains/users/user.entity';
import type { RowCounts } from './masters-sql';
import { KeyedRandom } from './random';
import { addDays, localInstant } from './workspace-plan';

const CREDIT_REASONS = ['Damaged goods returned', 'Rate difference', 'Leakage claim', 'Scheme settlement'];
const DEBIT_REASONS = ['Freight charges', 'Short billing corrected', 'Cheque bounce charges'];

interface Entry {
  customer: number;
  day: string;
  kind: LedgerEntryKind;
  debit: number;
  credit: number;
  narration: string;
  reference: string | null;
  /** The index (in this list) of the entry it reverses. */
  reverses: number | null;
}

const money = (cents: number) => cents / 100;

/**
 * The ledger rows of one seeded workspace that no order or payment posts (their triggers post
 * those as the seed inserts them): opening balances for some customers (some 400 days back),
 * credit and debit notes over the last 90 days, and a reversal of a few credit notes the
 * day after. Values come from KeyedRandom; every entry is dated on or before the day before asOf.
 */
export async function insertLedgerNotes(client: ClientBase, options: { key: string; organizationId: number; asOf: string }, counts: RowCounts): Promise<void> {
  const { organizationId: org, asOf } = options;
  const r = new KeyedRandom(`${options.key}:ledger`);
  const customers = (
    await client.query<{ id: number }>(`select id from app_user where organization_id = $1 and user_type in ($2, $3) order by id`, [org, UserType.DISTRIBUTOR, UserType.RETAILER])
  ).rows.map((u) => u.id);
  const entries: Entry[] = [];
  customers.forEach((customer, no) => {
    const k = `c${no}`;
    if (r.chance(`${k}:opening`, 0.3)) {
      const owes = !r.chance(`${k}:opening:credit`, 0.1);
      const cents = r.between(`${k}:opening:amount`, 50_000, 2_000_000);
      const day = addDays(asOf, -400 - r.below(`${k}:opening:day`, 30));
      entries.push({ customer, day, kind: LedgerEntryKind.OPENING_BALANCE, debit: owes ? money(cents) : 0, credit: owes ? 0 : money(cents), narration: 'Opening balance', reference: null, reverses: null });
    }
    for (let n = 0; n < r.below(`${k}:credits`, 3); n += 1) {
      const day = addDays(asOf, -2 - r.below(`${k}:credit${n}:day`, 88));
      const at = entries.push({
        customer,
        day,
        kind: LedgerEntryKind.CREDIT_NOTE,
        debit: 0,
        credit: money(r.between(`${k}:credit${n}:amount`, 5_000, 200_000)),
        narration: CREDIT_REASONS[r.below(`${k}:credit${n}:why`, CREDIT_REASONS.length)],
        reference: `CN-${no + 1}-${n + 1}`,
        reverses: null,
      });
      if (r.chance(`${k}:credit${n}:reversed`, 0.1)) {
        const note = entries[at - 1];
        entries.push({ customer, day: addDays(day, 1), kind: LedgerEntryKind.REVERSAL, debit: note.credit, credit: 0, narration: 'Issued in error', reference: note.reference, reverses: at - 1 });
      }
    }
    if (r.chance(`${k}:debit`, 0.15)) {
      const day = addDays(asOf, -2 - r.below(`${k}:debit:day`, 88));
      const cents = r.between(`${k}:debit:amount`, 2_000, 50_000);
      entries.push({ customer, day, kind: LedgerEntryKind.DEBIT_NOTE, debit: money(cents), credit: 0, narration: DEBIT_REASONS[r.below(`${k}:debit:why`, DEBIT_REASONS.length)], reference: `DN-${no + 1}`, reverses: null });
    }
  });
  if (entries.length > 0) await insertEntries(client, org, entries);
  // The workspace's rows: the orders' and payments' the triggers posted as well as these.
  const [{ n }] = (await client.query<{ n: number }>('select count(*)::int as n from ledger_entry where organization_id = $1', [org])).rows;
  counts.ledger_entry = (counts.ledger_entry ?? 0) + n;
}

async function insertEntries(client: ClientBase, org: number, entries: Entry[]): Promise<void> {
  // Originals first (in list order), then the reversals, which name their originals' new ids.
  const originals = entries.filter((e) => e.reverses === null);
  const ids = (
    await client.query<{ id: number }>(
      `insert into ledger_entry (organization_id, customer_id, entry_date, kind, debit, credit, narration, reference, created_at, updated_at)
       select $1, c, d, k, db, cr, na, rf, ts, ts
         from unnest($2::int[], $3::date[], $4::smallint[], $5::numeric[], $6::numeric[], $7::text[], $8::text[], $9::timestamptz[])
              with ordinality as x(c, d, k, db, cr, na, rf, ts, n)
        order by n returning id`,
      [org, ...(['customer', 'day', 'kind', 'debit', 'credit', 'narration', 'reference'] as const).map((f) => originals.map((e) => e[f])), originals.map((e) => localInstant(e.day, 11 * 3600))],
    )
  ).rows.map((row) => row.id);
  const idOf = new Map(originals.map((e, i) => [entries.indexOf(e), ids[i]]));
  const reversals = entries.filter((e) => e.reverses !== null);
  if (reversals.length > 0) {
    await client.query(
      `insert into ledger_entry (organization_id, customer_id, entry_date, kind, debit, credit, narration, reference, reverses_id, created_at, updated_at)
       select $1, c, d, k, db, cr, na, rf, rv, ts, ts
         from unnest($2::int[], $3::date[], $4::smallint[], $5::numeric[], $6::numeric[], $7::text[], $8::text[], $9::int[], $10::timestamptz[])
              with ordinality as x(c, d, k, db, cr, na, rf, rv, ts, n)
        order by n`,
      [
        org,
        ...(['customer', 'day', 'kind', 'debit', 'credit', 'narration', 'reference'] as const).map((f) => reversals.map((e) => e[f])),
        reversals.map((e) => idOf.get(e.reverses!)),
        reversals.map((e) => localInstant(e.day, 11 * 3600)),
      ],
    );
  }
}

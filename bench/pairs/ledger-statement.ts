import type { BenchContext } from '../lib/bench-context';
import { capturedRequest } from '../lib/captured-request';
import type { HttpRequest } from '../lib/http-load';
import { figure, ratioAtMost, type Figure } from '../lib/report';
import { replay } from '../lib/sql-load';
import { percentile } from '../lib/stats';

/** Rows of the customer's statement (issue 24: "a ledger statement for a customer with 20,000 rows"). */
export const STATEMENT_ROWS = 20_000;
const TRIES = 20;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Tops one customer of the first API workspace up to STATEMENT_ROWS ledger rows (credit and debit
 * notes alternating over the two years before today, on top of what their orders and payments
 * posted) and returns the customer's id. Idempotent: a later run finds the rows there.
 */
async function customerWithRows(ctx: BenchContext, organizationId: number): Promise<number> {
  const { rows } = await ctx.pool.query<{ customer_id: number; n: string }>(
    `select u.id as customer_id, (select count(*) from ledger_entry l where l.organization_id = u.organization_id and l.customer_id = u.id) as n
       from app_user u where u.organization_id = $1 and u.user_type in (3, 4) order by n desc, u.id limit 1`,
    [organizationId],
  );
  const [{ customer_id: customerId, n }] = rows;
  const missing = STATEMENT_ROWS - Number(n);
  if (missing > 0) {
    await ctx.pool.query(
      `insert into ledger_entry (organization_id, customer_id, entry_date, kind, debit, credit, narration, reference)
       select $1, $2, current_date - (i % 730), case when i % 2 = 0 then 4 else 3 end,
              case when i % 2 = 0 then 100 + i % 900 else 0 end, case when i % 2 = 0 then 0 else 50 + i % 700 end,
              'Bench note', 'BN-' || i
         from generate_series(1, $3) as i`,
      [organizationId, customerId, missing],
    );
  }
  return customerId;
}

/**
 * "Ledger statement for a customer with 20,000 rows": GET /ledger/statement over every row of one
 * customer (two years), its first page of 100 rows (the list contract's largest; the balances,
 * totals and ageing count all 20,000, and each row's running balance sums every row before it),
 * one request at a time, against the very statements the service sent
 * (captured from the in-process app) replayed through raw pg. p95 of each side over TRIES tries;
 * the goal is ≥ 60% of raw, i.e. a p95 at most 1/0.6 of the SQL's.
 */
export async function measureLedgerStatement(ctx: BenchContext): Promise<Figure[]> {
  const organizationId = ctx.main.organizationIds[0];
  const customerId = await customerWithRows(ctx, organizationId);
  const from = new Date(Date.now() - 800 * 86_400_000).toISOString().slice(0, 10);
  const request: HttpRequest = { path: `/api/v1/ledger/statement?customer_id=${customerId}&from=${from}&limit=100`, headers: { 'x-api-key': ctx.main.keys.get(organizationId)![0] } };
  const { statements } = await capturedRequest(ctx.app, ctx.capture, request);
  const overHttp = async () => {
    const res = await fetch(`${ctx.service.baseUrl}${request.path}`, { headers: request.headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${request.path} answered ${res.status}: ${body.slice(0, 300)}`);
    return body;
  };
  const rowsShown = (JSON.parse(await overHttp()) as { pagination: { total: number } }).pagination.total;
  await replay(ctx.pool, statements);
  const raw: number[] = [];
  const ours: number[] = [];
  // Alternating, so a busy spell of the machine falls on both sides alike.
  for (let i = 0; i < TRIES; i += 1) {
    raw.push(await timed(() => replay(ctx.pool, statements)));
    ours.push(await timed(overHttp));
  }
  const p95 = { raw: percentile(raw, 95), ours: percentile(ours, 95) };
  ctx.log(`  ledger statement (${rowsShown.toLocaleString('en-US')} rows, ${statements.length} statements): p95 raw ${p95.raw.toFixed(1)} ms · ours ${p95.ours.toFixed(1)} ms (${TRIES} tries a side)`);
  const goal = ratioAtMost(Number((1 / 0.6).toFixed(2)), 'its SQL through raw pg');
  goal.text = `≥ 60% of raw (p95 ≤ 1.67 × its SQL's)`;
  return [figure(`Ledger statement of a customer with ${rowsShown.toLocaleString('en-US')} rows (a page of 100) p95`, 'ms', p95.ours, p95.raw, goal)];
}

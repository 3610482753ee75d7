import { writeFileSync } from 'node:fs';
import nodePath from 'node:path';
import type { BenchContext, KeyedDataset } from '../lib/bench-context';
import { BENCH_DATA_DIR } from '../lib/bench-database';
import { capturedRequest } from '../lib/captured-request';
import type { HttpRequest } from '../lib/http-load';
import { figure, ratioAtMost, type Figure } from '../lib/report';
import type { Statement } from '../lib/sql-capture';
import { replay } from '../lib/sql-load';
import { percentile } from '../lib/stats';

/**
 * Workspaces of the dataset the report is asked of (at most), and tries a side in each: a year's
 * statement takes about 2.3 s at 500,000 orders. The capture runs in this process (its own report
 * budget); over HTTP a workspace's second key serves the warm-up and the tries (20 a minute).
 */
const WORKSPACES = 5;
const TRIES_EACH = 5;
/** Where the baseline's statements are written, to read or EXPLAIN them after a run. */
export const SALES_REPORT_SQL_FILE = nodePath.join(BENCH_DATA_DIR, 'sales-report-sql.json');

/** A year ending yesterday (UTC), 365 days both included: within the 366-day cap whatever the workspace's zone. */
function lastYear(): { from: string; to: string } {
  const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
  return { from: day(365), to: day(1) };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * "Sales report over a year": GET /reports/sales by month and product class over the last year of
 * (up to WORKSPACES) workspaces of `dataset` (the 500,000-order one, over two years), one request at
 * a time, against the very statements the service sent for each (captured from the in-process app),
 * replayed through raw pg. p95 of each side over every try; the goal is ≥ 60% of raw, i.e.
 * a p95 at most 1/0.6 of the SQL's.
 */
export async function measureSalesReport(ctx: BenchContext, dataset: KeyedDataset): Promise<Figure[]> {
  const { from, to } = lastYear();
  const path = `/api/v1/reports/sales?date_from=${from}&date_to=${to}&period=month&group_by=product_class`;
  const raw: number[] = [];
  const ours: number[] = [];
  const targets: Array<{ request: HttpRequest; statements: Statement[] }> = [];
  for (const organizationId of dataset.organizationIds.slice(0, WORKSPACES)) {
    const [captureKey, httpKey] = dataset.keys.get(organizationId)!;
    // The capture's warm-up is a cheap request of the key (a year's report is too slow to send twice).
    await capturedRequest(ctx.app, ctx.capture, { path: '/api/v1/masters/production-units?limit=1', headers: { 'x-api-key': captureKey } }, { warmUp: false });
    const captured = await capturedRequest(ctx.app, ctx.capture, { path, headers: { 'x-api-key': captureKey } }, { warmUp: false });
    targets.push({ request: { path, headers: { 'x-api-key': httpKey } }, statements: captured.statements });
  }
  for (const { request, statements } of targets) {
    const overHttp = async () => {
      const res = await fetch(`${ctx.service.baseUrl}${request.path}`, { headers: request.headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${request.path} answered ${res.status}: ${body.slice(0, 300)}`);
    };
    await replay(ctx.pool, statements); // warm-ups, one a side
    await overHttp();
    // Alternating try by try: at 2–4 s a try, a block of one side's tries can fall into a busy spell of this shared machine.
    for (let i = 0; i < TRIES_EACH; i += 1) {
      raw.push(await timed(() => replay(ctx.pool, statements)));
      ours.push(await timed(overHttp));
    }
  }
  const p95 = { raw: percentile(raw, 95), ours: percentile(ours, 95) };
  writeFileSync(SALES_REPORT_SQL_FILE, `${JSON.stringify(targets.map((t) => ({ path: t.request.path, statements: t.statements })), null, 2)}\n`);
  const size = dataset.ordersPerOrg.toLocaleString('en-US');
  ctx.log(`  sales report over a year (${targets.length} × ${size}-order workspace, ${targets[0].statements.length} statements): p95 raw ${p95.raw.toFixed(1)} ms · ours ${p95.ours.toFixed(1)} ms (${raw.length} tries a side, alternating; medians raw ${percentile(raw, 50).toFixed(1)} ms · ours ${percentile(ours, 50).toFixed(1)} ms)`);
  const goal = ratioAtMost(Number((1 / 0.6).toFixed(2)), 'its SQL through raw pg');
  goal.text = `≥ 60% of raw (p95 ≤ 1.67 × its SQL's)`;
  return [figure(`Sales report over a year (${size}-order workspace, by month and product class) p95`, 'ms', p95.ours, p95.raw, goal)];
}

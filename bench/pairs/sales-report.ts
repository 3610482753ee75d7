import type { BenchContext } from '../lib/bench-context';
import { capturedRequest } from '../lib/captured-request';
import type { HttpRequest } from '../lib/http-load';
import { figure, ratioAtMost, type Figure } from '../lib/report';
import type { Statement } from '../lib/sql-capture';
import { replay } from '../lib/sql-load';
import { percentile } from '../lib/stats';

/** Workspaces of the API dataset the report is asked of, and tries a side in each (the key's report budget is 20 a minute: one capture, one warm-up, the tries). */
const WORKSPACES = 5;
const TRIES_EACH = 4;

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
 * WORKSPACES workspaces of the API dataset (10,000 orders over two years each, by default), one request at
 * a time, against the very statements the service sent for each (captured from the in-process app),
 * replayed through raw pg. p95 of each side over every try; the goal is ≥ 60% of raw, i.e.
 * a p95 at most 1/0.6 of the SQL's.
 */
export async function measureSalesReport(ctx: BenchContext): Promise<Figure[]> {
  const { from, to } = lastYear();
  const path = `/api/v1/reports/sales?date_from=${from}&date_to=${to}&period=month&group_by=product_class`;
  const raw: number[] = [];
  const ours: number[] = [];
  const targets: Array<{ request: HttpRequest; statements: Statement[] }> = [];
  for (const organizationId of ctx.main.organizationIds.slice(0, WORKSPACES)) {
    const request: HttpRequest = { path, headers: { 'x-api-key': ctx.main.keys.get(organizationId)![0] } };
    targets.push({ request, statements: (await capturedRequest(ctx.app, ctx.capture, request)).statements });
  }
  for (const { request, statements } of targets) {
    const overHttp = async () => {
      const res = await fetch(`${ctx.service.baseUrl}${request.path}`, { headers: request.headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${request.path} answered ${res.status}: ${body.slice(0, 300)}`);
    };
    await replay(ctx.pool, statements); // warm-ups, one a side
    await overHttp();
    for (let i = 0; i < TRIES_EACH; i += 1) raw.push(await timed(() => replay(ctx.pool, statements)));
    for (let i = 0; i < TRIES_EACH; i += 1) ours.push(await timed(overHttp));
  }
  const p95 = { raw: percentile(raw, 95), ours: percentile(ours, 95) };
  const size = ctx.main.ordersPerOrg.toLocaleString('en-US');
  ctx.log(`  sales report over a year (${size}-order workspaces, ${targets[0].statements.length} statements): p95 raw ${p95.raw.toFixed(1)} ms · ours ${p95.ours.toFixed(1)} ms (${raw.length} tries a side)`);
  const goal = ratioAtMost(Number((1 / 0.6).toFixed(2)), 'its SQL through raw pg');
  goal.text = `≥ 60% of raw (p95 ≤ 1.67 × its SQL's)`;
  return [figure(`Sales report over a year (${size}-order workspace, by month and product class) p95`, 'ms', p95.ours, p95.raw, goal)];
}

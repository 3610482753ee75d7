import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext, KeyedDataset } from '../lib/bench-context';
import { BENCH_DATA_DIR } from '../lib/bench-database';
import type { BusyDay } from '../lib/busy-day';
import { capturedRequest } from '../lib/captured-request';
import type { HttpRequest } from '../lib/http-load';
import { figure, ratioAtMost, type Figure } from '../lib/report';
import type { Statement } from '../lib/sql-capture';
import { replay } from '../lib/sql-load';
import { percentile } from '../lib/stats';

/** Tries a side, spread over the rounds. */
const TRIES = 60;
/** Requests of one key over HTTP before the next key: the report budget is 20 a minute per key (run.ts issues 8 keys: 1 to capture, 7 take turns). */
const PER_KEY = 10;
/** Warm-ups of each side. */
const WARM_UPS = 3;
/** Where the baseline's statements are written, to read or EXPLAIN them after a run. */
export const BEAT_PRODUCTIVITY_SQL_FILE = path.join(BENCH_DATA_DIR, 'beat-productivity-sql.json');

/** The statements, grouped by their first words, counted: "100 × with day as (…)". */
function shapeOf(statements: Statement[]): string {
  const counts = new Map<string, number>();
  for (const s of statements) {
    const head = s.text.trim().split(/\s+/).slice(0, 4).join(' ');
    counts.set(head, (counts.get(head) ?? 0) + 1);
  }
  return [...counts].map(([head, n]) => `${n > 1 ? `${n} × ` : ''}${head} …`).join('; ');
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** `tries` spread over `rounds` as evenly as they go. */
function perRound(tries: number, rounds: number): number[] {
  return Array.from({ length: rounds }, (_, i) => Math.floor(tries / rounds) + (i < tries % rounds ? 1 : 0)).filter((n) => n > 0);
}

/**
 * "Beat productivity": GET /reports/beat-productivity?date= of the busy day (bench/lib/busy-day.ts:
 * 100 active employees, 30 visits each) of its own workspace, one request at a time over HTTP,
 * against the very statements the service sent for it (captured from the in-process app after a
 * warm-up, so the day's plan snapshot is already written and the API key's lookup cached), replayed
 * through raw pg. p95 of each side; the issue's goal is ≥ 60% of raw, i.e. a p95 at most 1/0.6 of the SQL's.
 * The keys take turns over HTTP (PER_KEY requests each, a cheap request of the key first to fill
 * its cached lookup), so no key spends its report budget.
 */
export async function measureBeatProductivity(ctx: BenchContext, dataset: KeyedDataset, day: BusyDay): Promise<Figure[]> {
  const organizationId = dataset.organizationIds[0];
  const keys = dataset.keys.get(organizationId)!;
  const route = `/api/v1/reports/beat-productivity?date=${day.date}`;
  const request = (key: string): HttpRequest => ({ path: route, headers: { 'x-api-key': key } });
  const captured = await capturedRequest(ctx.app, ctx.capture, request(keys[0]));
  const answer = JSON.parse(captured.body) as { data?: { rows?: unknown[] }; rows?: unknown[] };
  const reported = (answer.data?.rows ?? answer.rows ?? []).length;
  const statements: Statement[] = captured.statements;
  writeFileSync(BEAT_PRODUCTIVITY_SQL_FILE, `${JSON.stringify({ path: route, statements }, null, 2)}\n`);

  let sent = 0;
  const overHttp = async () => {
    const key = keys[1 + (Math.floor(sent / PER_KEY) % (keys.length - 1))];
    if (sent % PER_KEY === 0) {
      const res = await fetch(`${ctx.service.baseUrl}/api/v1/masters/production-units?limit=1`, { headers: { 'x-api-key': key } });
      await res.text();
    }
    sent += 1;
    const started = performance.now();
    const res = await fetch(`${ctx.service.baseUrl}${route}`, { headers: { 'x-api-key': key } });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${route} answered ${res.status}: ${body.slice(0, 300)}`);
    return ms;
  };
  for (let i = 0; i < WARM_UPS; i += 1) {
    await replay(ctx.pool, statements);
    await overHttp();
  }
  const raw: number[] = [];
  const ours: number[] = [];
  for (const n of perRound(TRIES, ctx.rounds)) {
    for (let i = 0; i < n; i += 1) raw.push(await timed(() => replay(ctx.pool, statements)));
    for (let i = 0; i < n; i += 1) ours.push(await overHttp());
  }
  const p95 = { raw: percentile(raw, 95), ours: percentile(ours, 95) };
  ctx.log(
    `  beat productivity of ${day.date}: ${day.employees} employees (${day.planned} with a beat plan that day), ${day.visits.toLocaleString('en-US')} visits ` +
      `(${day.orderVisits} with an order), ${reported} rows; ${statements.length} statements (${shapeOf(statements)}); ` +
      `p95 raw ${p95.raw.toFixed(1)} ms · ours ${p95.ours.toFixed(1)} ms (${raw.length} tries a side; medians raw ${percentile(raw, 50).toFixed(1)} ms · ours ${percentile(ours, 50).toFixed(1)} ms; ` +
      `answer ${Math.round(captured.body.length / 1024)} KB); statements in ${path.relative(process.cwd(), BEAT_PRODUCTIVITY_SQL_FILE)}`,
  );
  const goal = ratioAtMost(Number((1 / 0.6).toFixed(2)), 'its SQL through raw pg');
  goal.text = `≥ 60% of raw (p95 ≤ 1.67 × its SQL's)`;
  return [figure(`Beat productivity of a day (${day.employees} employees, ${day.visits.toLocaleString('en-US')} visits) p95`, 'ms', p95.ours, p95.raw, goal)];
}

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BenchContext, KeyedDataset } from '../lib/bench-context';
import { httpLoad } from '../lib/http-load';
import { PeakRss } from '../lib/process-memory';
import { seededRandom, pick } from '../lib/random';
import { atMost, figure, ratioAtMost, type Figure } from '../lib/report';
import { median, percentile } from '../lib/stats';

const run = promisify(execFile);

/** Export requests go round these keys: the exports budget is 5 a minute per key. */
let keyTurn = 0;
function exportKey(dataset: KeyedDataset): string {
  const keys = dataset.keys.get(dataset.organizationIds[0])!;
  return keys[keyTurn++ % keys.length];
}

interface Measured {
  seconds: number;
  peakRssMb: number;
  bytes: number;
}

/** Downloads an export from the service, timing it and watching the service's peak RSS. */
async function exportThroughService(ctx: BenchContext, dataset: KeyedDataset, format: 'xlsx' | 'pdf'): Promise<Measured> {
  const memory = new PeakRss(ctx.service.pid);
  const started = performance.now();
  const res = await fetch(`${ctx.service.baseUrl}/api/v1/exports/orders?format=${format}`, { headers: { 'x-api-key': exportKey(dataset) } });
  if (res.status !== 200 || !res.body) {
    memory.stop();
    throw new Error(`export answered ${res.status}: ${await res.text()}`);
  }
  let bytes = 0;
  const reader = res.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length;
  const seconds = (performance.now() - started) / 1000;
  return { seconds, peakRssMb: memory.stop(), bytes };
}

async function bareXlsx(ctx: BenchContext, dataset: KeyedDataset): Promise<Measured> {
  const { stdout } = await run(process.execPath, ['dist/bench/baselines/xlsx-bare.js', ctx.databaseUrl, String(dataset.organizationIds[0])], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as Measured;
}

async function xlsxPair(ctx: BenchContext, dataset: KeyedDataset): Promise<{ ours: Measured; bare: Measured }> {
  const ours: Measured[] = [];
  const bare: Measured[] = [];
  const rows = dataset.ordersPerOrg.toLocaleString('en-US');
  for (let round = 1; round <= ctx.rounds; round += 1) {
    bare.push(await bareXlsx(ctx, dataset));
    ours.push(await exportThroughService(ctx, dataset, 'xlsx'));
    const show = (m: Measured) => `${m.seconds.toFixed(1)} s, ${Math.round(m.peakRssMb)} MB`;
    ctx.log(`  XLSX ${rows} round ${round}: bare ${show(bare.at(-1)!)} · ours ${show(ours.at(-1)!)} (${(ours.at(-1)!.bytes / 2 ** 20).toFixed(1)} MiB)`);
  }
  const medianOf = (ms: Measured[]): Measured => ({
    seconds: median(ms.map((m) => m.seconds)),
    peakRssMb: median(ms.map((m) => m.peakRssMb)),
    bytes: median(ms.map((m) => m.bytes)),
  });
  return { ours: medianOf(ours), bare: medianOf(bare) };
}

/** Pair 4: XLSX of 100,000 and 500,000 orders against the bare pg-cursor → exceljs script. */
export async function measureXlsx(ctx: BenchContext, small: KeyedDataset, large: KeyedDataset): Promise<Figure[]> {
  const a = await xlsxPair(ctx, small);
  const b = await xlsxPair(ctx, large);
  const n = (d: KeyedDataset) => d.ordersPerOrg.toLocaleString('en-US');
  return [
    figure(`XLSX export of ${n(small)} orders: time`, 's', a.ours.seconds, a.bare.seconds, ratioAtMost(1.5, 'the bare script')),
    figure(`XLSX export of ${n(small)} orders: peak RSS`, 'MB', a.ours.peakRssMb, a.bare.peakRssMb, atMost(200, 'MB')),
    figure(`XLSX export of ${n(large)} orders: time`, 's', b.ours.seconds, b.bare.seconds, ratioAtMost(1.5, 'the bare script')),
    figure(`XLSX peak RSS at ${n(large)} (baseline: at ${n(small)})`, 'MB', b.ours.peakRssMb, a.ours.peakRssMb, ratioAtMost(1.3, `RSS at ${n(small)}`)),
  ];
}

/**
 * Light requests per second beside the PDFs, and how long each window of them lasts: 500 requests
 * a window (at 4 s, 200, and a window's p99 moved with any single stall of the machine). The
 * figure's p99s are taken over all rounds' windows together (1,500 requests each side at 3 rounds):
 * a single window's p99, its 5th slowest request, went from 11 to 28 ms between idle windows a
 * minute apart, so the median of the rounds' p99s said more about those stalls than about the PDFs.
 */
const LIGHT_RATE = 50;
const WINDOW_SECONDS = 10;

/** Pair 5: a PDF of 5,000 orders — time, peak RSS, and a light request's p99 while it renders against idle. */
export async function measurePdf(ctx: BenchContext, dataset: KeyedDataset): Promise<Figure[]> {
  const random = seededRandom(5);
  const { rows } = await ctx.pool.query<{ id: number; organization_id: number }>(
    `select id, organization_id from sales_order where organization_id = any($1) order by id limit 100`,
    [ctx.main.organizationIds],
  );
  const light = (seconds: number, latencies?: number[]) =>
    httpLoad({
      baseUrl: ctx.service.baseUrl,
      connections: 4,
      rate: LIGHT_RATE,
      seconds,
      latencies,
      next: () => {
        const order = pick(rows, random);
        return { path: `/api/v1/orders/${order.id}`, headers: { 'x-api-key': ctx.main.keys.get(order.organization_id)![0] } };
      },
    });
  const idle: number[] = [];
  const during: number[] = [];
  const pdfs: Measured[] = [];
  // Each request's latency, all rounds together.
  const idleLatencies: number[] = [];
  const duringLatencies: number[] = [];
  // A fresh service answers its first requests slowly (code not yet optimised, connections and
  // plans not yet made, the render thread not yet started): those would be the idle p99 or the
  // PDF's, so a light run and a PDF are made and dropped first.
  await light(3);
  await exportThroughService(ctx, dataset, 'pdf');
  for (let round = 1; round <= ctx.rounds; round += 1) {
    idle.push((await light(WINDOW_SECONDS, idleLatencies)).p99);
    // PDFs back to back for the whole window, so every light request is sent while one is made.
    const busy = light(WINDOW_SECONDS, duringLatencies);
    let windowOver = false;
    busy.finally(() => (windowOver = true)).catch(() => undefined); // a failure is thrown where busy is awaited
    const made: Measured[] = [];
    while (!windowOver) made.push(await exportThroughService(ctx, dataset, 'pdf'));
    pdfs.push(...made);
    during.push((await busy).p99);
    ctx.log(`  PDF round ${round}: ${made.length} PDFs, median ${median(made.map((m) => m.seconds)).toFixed(2)} s, ${Math.round(Math.max(...made.map((m) => m.peakRssMb)))} MB; light p99 idle ${idle.at(-1)} ms · during ${during.at(-1)} ms`);
  }
  return [
    figure(`PDF export of ${dataset.ordersPerOrg.toLocaleString('en-US')} orders: time`, 's', median(pdfs.map((p) => p.seconds)), null, atMost(5, 's')),
    figure('PDF export: peak RSS of the service', 'MB', median(pdfs.map((p) => p.peakRssMb)), null, { text: 'reported', met: () => true }),
    figure('Light request p99 during a PDF (baseline: idle)', 'ms', percentile(duringLatencies, 99), percentile(idleLatencies, 99), ratioAtMost(1.2, 'idle')),
  ];
}

import { bench, describe } from 'vitest';
import { createWorkspace, seedCatalog, type Workspace } from '../test/helpers/fixtures';
import { buildTestApp, type TestApp } from '../test/helpers/test-app';

/**
 * Memory of a streamed XLSX export: GET /exports/orders over real HTTP for a workspace of 10,000
 * and one of 100,000 orders, the body read and dropped by the client as it arrives, while the
 * server's heap and RSS are sampled every 20 ms and, every half second, the heap left after a full
 * garbage collection (what the export really holds, not garbage awaiting collection). Streaming
 * means that does not follow the row count: at 100,000 rows it must stay under
 * RETAINED_GROWTH_LIMIT_MB above the heap before the export (else the benchmark fails). Needs
 * --expose-gc (`npm run bench` passes it).
 */
const RETAINED_GROWTH_LIMIT_MB = 16;
const MB = 1024 * 1024;

async function seedOrders(t: TestApp, ws: Workspace, count: number): Promise<void> {
  const catalog = await seedCatalog(t, ws);
  await t.orm.em.fork().getConnection().execute(
    `insert into sales_order (organization_id, order_code, status, order_date, customer_id, total_amount, items_count, delivery_otp_hash, mode_of_payment)
     select ?, 'ORD-B-' || lpad(n::text, 7, '0'), 1 + n % 4, date '2025-01-01' + (n % 600), ?, (n % 5000) + 0.5, 1 + n % 8, md5(n::text), 'cash'
       from generate_series(1, ?) as n`,
    [ws.organizationId, catalog.distributorId, count],
  );
}

interface Measured {
  rows: number;
  seconds: number;
  bytes: number;
  heapGrowthMb: number;
  retainedGrowthMb: number;
  rssGrowthMb: number;
}

async function measure(base: string, ws: Workspace, rows: number): Promise<Measured> {
  global.gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  let peakRetained = before.heapUsed;
  let samples = 0;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
    if (global.gc && ++samples % 25 === 0) {
      global.gc();
      peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed);
    }
  }, 20);
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/exports/orders`, { headers: { authorization: `Bearer ${ws.token}`, 'user-agent': 'export-memory-bench' } });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  const reader = res.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { rows, seconds, bytes, heapGrowthMb: (peakHeap - before.heapUsed) / MB, retainedGrowthMb: (peakRetained - before.heapUsed) / MB, rssGrowthMb: (peakRss - before.rss) / MB };
}

describe('XLSX export memory (streamed by cursor)', () => {
  bench(
    '10,000 then 100,000 orders',
    async () => {
      if (!global.gc) throw new Error('run with --expose-gc (npm run bench does)');
      const t = await buildTestApp();
      try {
        const small = await createWorkspace(t);
        const large = await createWorkspace(t);
        await seedOrders(t, small, 10_000);
        await seedOrders(t, large, 100_000);
        const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
        const figures = [await measure(base, small, 10_000), await measure(base, large, 100_000)];
        console.table(figures.map((f) => ({ ...f, seconds: f.seconds.toFixed(2), heapGrowthMb: f.heapGrowthMb.toFixed(1), retainedGrowthMb: f.retainedGrowthMb.toFixed(1), rssGrowthMb: f.rssGrowthMb.toFixed(1) })));
        const retained = figures[1].retainedGrowthMb;
        if (retained > RETAINED_GROWTH_LIMIT_MB) {
          throw new Error(`the heap kept ${retained.toFixed(1)} MB more while exporting 100,000 rows (limit ${RETAINED_GROWTH_LIMIT_MB} MB)`);
        }
      } finally {
        await t.close();
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0 },
  );
});

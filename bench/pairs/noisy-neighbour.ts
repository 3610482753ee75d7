import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../../src/config';
import type { BenchContext } from '../lib/bench-context';
import { issueKeys } from '../lib/bench-database';
import { httpLoad } from '../lib/http-load';
import { figure, ratioAtMost, type Figure } from '../lib/report';
import { startService, type ServiceProcess } from '../lib/service-process';
import { percentile } from '../lib/stats';
import type { NoisyClientsData, NoisyCounts } from './noisy-clients.worker';

/** Clients of the noisy workspace, each with an API key (a budget) of its own. */
const NOISY_CLIENTS = 12;
/** The quiet workspace's light requests: a steady rate over a few connections, as in the PDF pair. */
const LIGHT_RATE = 50;
const LIGHT_CONNECTIONS = 4;
const LIGHT_QUERY = '{ __typename }';

const MONTHLY_SALES = `{ monthlySales { id productClass unit todayTotal yesterdayTotal dailyChangePercent dailyChangeStatus
  monthData monthDataAvg currentYearData prevYearData yearlyChangePercent yearlyChangeStatus
  sevenDayData { date year month day total } productBreakdown { productName quantity } } }`;
const STATS_FIELDS = `orderInitiatedCount orderForwardedCount orderApprovedCount orderDeliveredCount totalEmployees todayAttendance
  totalTaggedOutlets todayTaggedOutlets todayRevenue pendingAmount totalCollection todayCollection`;
const THREE_STATS = `{ a: dashboardStats { ${STATS_FIELDS} } b: dashboardStats { ${STATS_FIELDS} } c: dashboardStats { ${STATS_FIELDS} } }`;
const SEARCHED_PAGE = `{ orders(limit: 100, search: "a") { pageInfo { total } nodes { id orderCode status totalAmount
  customer { firstName storeName } items { quantity amount variant { itemSkuCode product { name } } } } } }`;
/** The heaviest documents the limits allow (each priced close to 50,000), in turn. */
export const HEAVY_DOCUMENTS = [MONTHLY_SALES, THREE_STATS, SEARCHED_PAGE];

/** The real cost budget (the service's defaults), which BENCH_SERVICE_ENV lifts for the throughput pairs. */
const DEFAULT_BUDGET = loadConfig({}).graphqlCost;
const REAL_BUDGET = { GRAPHQL_COST_MAXIMUM: String(DEFAULT_BUDGET.maximum), GRAPHQL_COST_RESTORE_RATE: String(DEFAULT_BUDGET.restoreRate) };

/**
 * Runs the noisy workspace's clients in a thread of their own until `stop` resolves, so that reading
 * their large answers does not delay the bench's timing of the light requests (its event loop).
 */
async function noisyClients(baseUrl: string, keys: string[], stop: Promise<void>): Promise<NoisyCounts> {
  const data: NoisyClientsData = { baseUrl, keys, documents: HEAVY_DOCUMENTS };
  const worker = new Worker(path.join(__dirname, 'noisy-clients.worker.js'), { workerData: data });
  try {
    const answer = once(worker, 'message') as Promise<[{ counts?: NoisyCounts; error?: string }]>;
    const failed = once(worker, 'error').then(([err]) => Promise.reject(err as Error));
    void stop.then(() => worker.postMessage('stop'));
    const [message] = await Promise.race([answer, failed]);
    if (message.error !== undefined) throw new Error(message.error);
    return message.counts!;
  } finally {
    await worker.terminate();
  }
}

/** Light-request latencies with nothing else running, and beside the noisy workspace, round after round. */
async function measure(ctx: BenchContext, service: ServiceProcess, noisyKeys: string[], quietKey: string, label: string) {
  const light = (latencies?: number[], seconds = ctx.seconds) =>
    httpLoad({
      baseUrl: service.baseUrl,
      connections: LIGHT_CONNECTIONS,
      rate: LIGHT_RATE,
      seconds,
      latencies,
      next: () => ({ method: 'POST', path: '/graphql', headers: { 'x-api-key': quietKey, 'content-type': 'application/json' }, body: JSON.stringify({ query: LIGHT_QUERY }) }),
    });
  // A fresh service answers its first requests slowly (code not yet optimised, plans not made).
  await light(undefined, 3);
  // Each heavy document once (a key each: two of them empty a bucket).
  for (const [i, query] of HEAVY_DOCUMENTS.entries()) {
    const res = await fetch(`${service.baseUrl}/graphql`, { method: 'POST', headers: { 'x-api-key': noisyKeys[i], 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    if (res.status !== 200) throw new Error(`warming up: ${res.status} ${await res.text()}`);
  }
  const idle: number[] = [];
  const noisy: number[] = [];
  const counts: NoisyCounts = { answered: 0, refused: 0 };
  for (let round = 1; round <= ctx.rounds; round += 1) {
    const idleRun = await light(idle);
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const clients = noisyClients(service.baseUrl, noisyKeys, stopped);
    const busyRun = await light(noisy).finally(stop);
    const round_ = await clients;
    counts.answered += round_.answered;
    counts.refused += round_.refused;
    if (idleRun.failures || busyRun.failures) throw new Error(`light requests failed: ${idleRun.failures} idle, ${busyRun.failures} beside the noisy workspace`);
    ctx.log(`  noisy neighbour (${label}) round ${round}: light p99 idle ${idleRun.p99} ms · noisy ${busyRun.p99} ms; heavy documents ${round_.answered} answered, ${round_.refused} refused`);
  }
  return { idleP99: percentile(idle, 99), noisyP99: percentile(noisy, 99), answeredPerSecond: counts.answered / (ctx.rounds * ctx.seconds), refused: counts.refused };
}

/**
 * Pair 7: one workspace sends the heaviest documents the limits allow from 12 clients (an API key
 * each) while another workspace's light requests are timed, against the same light requests alone.
 * Measured with the service's real cost budget, then (reported) with the budget lifted, where only
 * the execution slots keep the workspaces apart.
 */
export async function measureNoisyNeighbour(ctx: BenchContext): Promise<Figure[]> {
  const [noisyOrg, quietOrg] = ctx.main.organizationIds;
  if (quietOrg === undefined) throw new Error('the noisy-neighbour pair needs two workspaces (--orgs 2 or more)');
  const noisyKeys = (await issueKeys(ctx.pool, [noisyOrg], 'read', NOISY_CLIENTS, 'bench-noisy')).get(noisyOrg)!;
  const quietKey = ctx.main.keys.get(quietOrg)![0];

  ctx.log('noisy neighbour: a service with the real cost budget…');
  const budgeted = await startService(ctx.databaseUrl, { ...ctx.serviceEnv, ...REAL_BUDGET });
  let real: Awaited<ReturnType<typeof measure>>;
  try {
    real = await measure(ctx, budgeted, noisyKeys, quietKey, 'cost budget');
  } finally {
    await budgeted.stop();
  }
  ctx.log('noisy neighbour: the cost budget lifted (execution slots alone)…');
  const lifted = await measure(ctx, ctx.service, noisyKeys, quietKey, 'budget lifted');
  return [
    figure('Light GraphQL p99 beside a noisy workspace (baseline: idle)', 'ms', real.noisyP99, real.idleP99, ratioAtMost(2, 'idle')),
    figure('Noisy workspace: heavy documents answered', 'docs/s', real.answeredPerSecond, null, { text: `reported (${real.refused} refused with 429)`, met: () => true }),
    figure('Same, cost budget lifted (baseline: idle)', 'ms', lifted.noisyP99, lifted.idleP99, { text: 'reported (execution slots alone)', met: () => true }),
    figure('Noisy workspace, budget lifted: heavy documents answered', 'docs/s', lifted.answeredPerSecond, null, { text: 'reported', met: () => true }),
  ];
}

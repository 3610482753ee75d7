import https from 'node:https';
import { run, type Runner } from 'graphile-worker';
import { quietWorkerLogger } from '../../jobs/quiet-logger';
import { WORKER_CONCURRENCY, WORKER_TUNING } from '../../jobs/worker';
import { scopeToOrganization } from '../../src/db/tenant-filter';
import { WebhookEventQueue } from '../../src/domains/webhooks/webhook-event-queue';
import { User, UserType } from '../../src/domains/users/user.entity';
import type { BenchContext } from '../lib/bench-context';
import type { HttpsSink } from '../lib/https-sink';
import { atLeast, atMost, figure, type Figure } from '../lib/report';
import { median, percentile } from '../lib/stats';

/**
 * The latency phase offers 200 events 100 ms apart to ENDPOINTS endpoints: 100 deliveries/s, a
 * third of the 300/s throughput goal, so it measures pickup and not a backlog (at 20 ms apart,
 * 500/s, more than either side could deliver, it measured how long the queue had grown).
 */
const LATENCY_EVENTS = 200;
const LATENCY_SPACING_MS = 100;
const BURST_EVENTS = 200;
/** Endpoints subscribed in the bench workspace: each event is one delivery to each. */
const ENDPOINTS = 10;

/** How events are queued, and how their arrivals are awaited. */
interface Queue {
  /** Queues `count` events numbered from `firstSeq` in one transaction; resolves once committed. */
  enqueue(firstSeq: number, count: number): Promise<void>;
  deliveriesPerEvent: number;
}

interface Measured {
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
}

/**
 * Pickup latency (committed → the request arrives at the receiver), events queued one at a time
 * with gaps, then throughput: a burst of events, first commit to last arrival.
 */
async function measureQueue(sink: HttpsSink, queue: Queue, seqBase: number): Promise<Measured> {
  const arrivals = new Map<number, number[]>();
  let waiting: { count: number; resolve: () => void } | null = null;
  let arrived = 0;
  sink.listen((seq, at) => {
    arrived += 1;
    const list = arrivals.get(seq) ?? [];
    list.push(at);
    arrivals.set(seq, list);
    if (waiting && arrived >= waiting.count) waiting.resolve();
  });
  const until = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${arrived} of ${count} deliveries arrived within 120 s`)), 120_000);
      waiting = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      if (arrived >= count) waiting.resolve();
    });

  const committed = new Map<number, number>();
  for (let i = 0; i < LATENCY_EVENTS; i += 1) {
    const seq = seqBase + i;
    await queue.enqueue(seq, 1);
    committed.set(seq, performance.now());
    await new Promise((resolve) => setTimeout(resolve, LATENCY_SPACING_MS));
  }
  await until(LATENCY_EVENTS * queue.deliveriesPerEvent);
  const latencies = [...committed].flatMap(([seq, at]) => (arrivals.get(seq) ?? []).map((arrival) => arrival - at));

  arrived = 0;
  const burstSeq = seqBase + LATENCY_EVENTS;
  const started = performance.now();
  await queue.enqueue(burstSeq, BURST_EVENTS);
  await until(BURST_EVENTS * queue.deliveriesPerEvent);
  const perSecond = (BURST_EVENTS * queue.deliveriesPerEvent) / ((performance.now() - started) / 1000);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), perSecond };
}

/** Subscribes ENDPOINTS endpoints of the workspace to order.created, through the service's API as its admin. */
async function subscribe(ctx: BenchContext, organizationId: number, url: string): Promise<void> {
  await ctx.pool.query(`update webhook_endpoint set deleted_at = now() where organization_id = $1 and deleted_at is null`, [organizationId]);
  const em = ctx.orm.em.fork();
  scopeToOrganization(em, organizationId);
  const admin = await em.findOneOrFail(User, { userType: UserType.ADMIN }, { orderBy: { id: 'asc' } });
  const token = await ctx.app.services.sessions.start(em, admin);
  for (let i = 0; i < ENDPOINTS; i += 1) {
    const res = await fetch(`${ctx.service.baseUrl}/api/v1/developer/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)' },
      body: JSON.stringify({ name: `bench ${i + 1}`, url, events: ['order.created'] }),
    });
    if (res.status !== 201) throw new Error(`creating a webhook answered ${res.status}: ${await res.text()}`);
  }
}

/** The service's own path: WebhookEventQueue.emit in a transaction, delivered by the service's worker. */
function serviceQueue(ctx: BenchContext, organizationId: number): Queue {
  const events = new WebhookEventQueue(12);
  return {
    deliveriesPerEvent: ENDPOINTS,
    enqueue: (firstSeq, count) =>
      ctx.orm.em.fork().transactional(async (tx) => {
        for (let i = 0; i < count; i += 1) await events.emit(tx, organizationId, 'order.created', { bench_seq: firstSeq + i });
      }),
  };
}

/** The floor: graphile-worker's add_job and a task that only POSTs the body, in this process. */
function bareQueue(ctx: BenchContext): Queue {
  return {
    deliveriesPerEvent: ENDPOINTS,
    enqueue: async (firstSeq, count) => {
      await ctx.pool.query(
        `select graphile_worker.add_job('bench_bare_post', json_build_object('bench_seq', s)) from generate_series($1::int, $2::int) s, generate_series(1, $3::int) e`,
        [firstSeq, firstSeq + count - 1, ENDPOINTS],
      );
    },
  };
}

function post(url: string, agent: https.Agent, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    request.on('error', reject);
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve());
    });
    request.end(body);
  });
}

/**
 * Vacuums the job and delivery tables before each side is measured. Autovacuum is off on the CI
 * server (conf.d/90-ci.conf), so without this each run would start on the dead rows of every run
 * before it (tens of thousands in graphile-worker's job table), which slows graphile-worker's
 * get_job for both sides alike and more with every run.
 */
async function vacuumQueues(ctx: BenchContext): Promise<void> {
  await ctx.pool.query('vacuum analyze graphile_worker._private_jobs, webhook_delivery, webhook_endpoint');
}

/** Jobs of the bare task left by an interrupted run. */
async function removeBareJobs(ctx: BenchContext): Promise<void> {
  await ctx.pool.query(
    `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t where t.id = j.task_id and t.identifier = 'bench_bare_post'`,
  );
}

/**
 * The bare worker gets what the service's worker has: its concurrency and graphile-worker
 * settings, a keep-alive agent (idle sockets closed after 4 s, as the service's) and a logger
 * without a line per job.
 */
async function startBareWorker(ctx: BenchContext, sink: HttpsSink): Promise<{ runner: Runner; agent: https.Agent }> {
  await removeBareJobs(ctx);
  const agent = new https.Agent({ keepAlive: true, timeout: 4_000, ca: sink.ca });
  const runner = await run({
    ...WORKER_TUNING,
    connectionString: ctx.databaseUrl,
    concurrency: WORKER_CONCURRENCY,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietWorkerLogger(),
    taskList: { bench_bare_post: async (payload) => post(sink.url, agent, JSON.stringify({ data: payload })) },
  });
  return { runner, agent };
}

/** Pair 6: webhook pickup latency and deliveries per second, the service's worker against a bare graphile-worker task. */
export async function measureWebhooks(ctx: BenchContext, sink: HttpsSink, organizationId: number): Promise<Figure[]> {
  await subscribe(ctx, organizationId, sink.url);
  const bare: Measured[] = [];
  const ours: Measured[] = [];
  let seq = Date.now() % 1_000_000_000;
  for (let round = 1; round <= ctx.rounds; round += 1) {
    await vacuumQueues(ctx);
    const { runner, agent } = await startBareWorker(ctx, sink);
    try {
      bare.push(await measureQueue(sink, bareQueue(ctx), seq));
    } finally {
      await runner.stop();
      agent.destroy();
    }
    seq += LATENCY_EVENTS + BURST_EVENTS;
    await vacuumQueues(ctx);
    ours.push(await measureQueue(sink, serviceQueue(ctx, organizationId), seq));
    seq += LATENCY_EVENTS + BURST_EVENTS;
    const show = (m: Measured) => `p50 ${m.p50.toFixed(1)} / p95 ${m.p95.toFixed(1)} / p99 ${m.p99.toFixed(1)} ms, ${Math.round(m.perSecond)}/s`;
    ctx.log(`  webhooks round ${round}: bare ${show(bare.at(-1)!)} · ours ${show(ours.at(-1)!)}`);
  }
  const m = (ms: Measured[], key: keyof Measured) => median(ms.map((x) => x[key]));
  return [
    figure('Webhook pickup p50 (commit → arrival)', 'ms', m(ours, 'p50'), m(bare, 'p50'), { text: 'reported', met: () => true }),
    figure('Webhook pickup p95', 'ms', m(ours, 'p95'), m(bare, 'p95'), atMost(50, 'ms')),
    figure('Webhook pickup p99', 'ms', m(ours, 'p99'), m(bare, 'p99'), { text: 'reported', met: () => true }),
    figure('Webhook deliveries per second', 'deliveries/s', m(ours, 'perSecond'), m(bare, 'perSecond'), atLeast(300, 'per second')),
  ];
}

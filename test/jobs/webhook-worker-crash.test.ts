import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leaseMs } from '../../src/domains/webhooks/delivery-engine';
import { deliveryJobKey } from '../../src/domains/webhooks/delivery-job';
import { createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { signatureValid, startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from '../helpers/https-receiver';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Crash safety of webhook delivery with real worker processes (`node dist/src/main.js --worker`,
 * what `npm run worker` starts) over the test database:
 * - a worker killed with SIGKILL in the middle of an attempt leaves the delivery `sending` under a
 *   lease; a worker started afterwards takes it over once the lease (2 × WEBHOOK_TIMEOUT_MS + 5 s)
 *   has ended and completes it: attempt 2, same event id, nothing lost and nothing sent twice more;
 * - a worker killed between attempts does not lose the scheduled retry.
 * The API runs in this process (buildTestApp, no in-process worker); only the child processes deliver.
 */

const ROOT = path.resolve(__dirname, '../..');
const MAIN_JS = path.join(ROOT, 'dist/src/main.js');
const TIMEOUT_MS = 1_500;
const LEASE_MS = leaseMs(TIMEOUT_MS); // 8 s
/** Back-off base of the worker processes: the first retry comes 2.4–3.6 s after a failed attempt. */
const RETRY_BASE_MS = 3_000;
/** Slack for comparing the database clock with this process's clock (same host). */
const CLOCK_SLACK_MS = 250;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A worker child process and everything it printed. */
interface WorkerProcess {
  label: string;
  child: ChildProcess;
  pid: number;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every worker process started and not yet seen to exit: afterEach/afterAll/exit end them. */
const live = new Set<WorkerProcess>();
const everyWorker: WorkerProcess[] = [];

/** Last resort when the test process leaves without its hooks running (a crash, a timeout). */
const killLeftovers = () => {
  for (const w of live) {
    try {
      w.child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
};

const hasExited = (w: WorkerProcess) => w.child.exitCode !== null || w.child.signalCode !== null;

/** SIGTERM (an orderly stop), then SIGKILL if it has not exited within `graceMs`. */
async function stopWorker(w: WorkerProcess, graceMs = 5_000): Promise<void> {
  if (!hasExited(w)) {
    w.child.kill('SIGTERM');
    const exited = await Promise.race([w.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!exited) {
      w.child.kill('SIGKILL');
      await Promise.race([w.exited, sleep(5_000)]);
    }
  }
  live.delete(w);
}

async function stopAllWorkers(): Promise<void> {
  await Promise.all([...live].map((w) => stopWorker(w)));
}

/** What every worker printed, for failure messages. */
const workerOutput = () =>
  everyWorker.map((w) => `--- ${w.label} (pid ${w.pid}, ${hasExited(w) ? `exited ${w.child.exitCode ?? w.child.signalCode}` : 'running'}):\n${w.output.join('').slice(-4_000)}`).join('\n');

describe('webhook delivery survives a worker killed with SIGKILL', () => {
  let t: TestApp;
  let dataDir: string;
  let workerEnv: NodeJS.ProcessEnv;
  const receivers: HttpsReceiver[] = [];

  const sql = <T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[] = []) =>
    t.orm.em.fork().getConnection().execute<T>(query, params);

  interface DeliveryRow {
    id: number;
    event_id: string;
    status: string;
    attempts: number;
    max_attempts: number;
    response_status: number | null;
    last_error: string | null;
    /** Timestamps as epoch milliseconds (with microseconds as the fraction). */
    last_attempt_at: number | null;
    next_attempt_at: number | null;
    lease_until: number | null;
    sent_at: number | null;
  }

  /** A timestamp column as epoch milliseconds. */
  const ms = (column: string, as = column) => `(extract(epoch from ${column}) * 1000)::float8 as ${as}`;

  /** The deliveries of an endpoint (one per event). */
  const deliveriesOf = (webhookId: number) =>
    sql<DeliveryRow[]>(
      `select id, event_id, status, attempts, max_attempts, response_status, last_error,
              ${ms('last_attempt_at')}, ${ms('next_attempt_at')}, ${ms('lease_until')}, ${ms('sent_at')}
         from webhook_delivery where webhook_id = ? order by id`,
      [webhookId],
    );

  interface JobRow {
    id: string;
    key: string | null;
    run_at: number;
    attempts: number;
    max_attempts: number;
    locked_by: string | null;
  }

  const jobsOf = (deliveryId: number) =>
    sql<JobRow[]>(
      `select j.id, j.key, ${ms('j.run_at', 'run_at')}, j.attempts, j.max_attempts, j.locked_by
         from graphile_worker._private_jobs j
        where (j.payload->>'deliveryId')::int = ? order by j.id`,
      [deliveryId],
    );

  /** State of the database and the workers, for failure messages. */
  async function diagnostics(webhookId: number): Promise<string> {
    const deliveries = await deliveriesOf(webhookId).catch((err: Error) => err.message);
    const jobs = await sql('select id, key, run_at, attempts, max_attempts, locked_by, last_error from graphile_worker.jobs order by id').catch(
      (err: Error) => err.message,
    );
    return `deliveries: ${JSON.stringify(deliveries)}\njobs: ${JSON.stringify(jobs)}\n${workerOutput()}`;
  }

  /** Polls `probe` until it returns a value other than undefined; fails with `describe()` after `timeoutMs`. */
  async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, explain: () => Promise<string>, timeoutMs: number, everyMs = 50): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${await explain()}`);
      await sleep(everyMs);
    }
  }

  /** Starts `node dist/src/main.js --worker` over the test database; resolves once it says it runs. */
  async function startWorkerProcess(label: string): Promise<WorkerProcess> {
    const child = spawn(process.execPath, ['--enable-source-maps', MAIN_JS, '--worker'], {
      cwd: ROOT,
      env: workerEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', (err) => {
        output.push(`spawn error: ${err.message}\n`);
        resolve({ code: null, signal: null });
      });
    });
    const w: WorkerProcess = { label, child, pid: child.pid ?? -1, output, exited };
    everyWorker.push(w);
    live.add(w);
    void exited.then(() => live.delete(w));
    expect(child.pid, `could not start ${label}\n${output.join('')}`).toBeGreaterThan(0);
    // Ready once it prints 'Job worker: running' (migrations checked, runner started).
    const deadline = Date.now() + 30_000;
    while (!output.join('').includes('Job worker: running')) {
      if (hasExited(w)) throw new Error(`${label} exited before it was running\n${workerOutput()}`);
      if (Date.now() > deadline) throw new Error(`${label} did not start within 30 s\n${workerOutput()}`);
      await sleep(50);
    }
    return w;
  }

  /** SIGKILL, as a crash or the OOM killer would; resolves once the process is gone. */
  async function killHard(w: WorkerProcess): Promise<void> {
    process.kill(w.pid, 'SIGKILL');
    const { signal } = await w.exited;
    expect(signal, `${w.label} should have died of SIGKILL`).toBe('SIGKILL');
    live.delete(w);
  }

  /** A workspace with a catalogue, and an endpoint (subscribed to order.created) on a fresh receiver. */
  async function endpointOn(receiver: HttpsReceiver, name: string): Promise<{ ws: Workspace; catalog: Catalog; webhookId: number; secret: string }> {
    const ws = await createWorkspace(t, `${name} Dairy`);
    const catalog = await seedCatalog(t, ws);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/developer/webhooks',
      token: ws.token,
      payload: { name, url: receiver.url(), events: ['order.created'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id, secret } = res.json().data as { id: number; secret: string };
    return { ws, catalog, webhookId: id, secret };
  }

  const order = (ws: Workspace, catalog: Catalog) =>
    placeOrder(t, ws.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] });

  /** The two attempts carry the same event, numbered 1 and 2, each correctly signed with the endpoint's secret. */
  function expectSameEventTwice(requests: ReceivedRequest[], delivery: DeliveryRow, secret: string): void {
    expect(requests.map((r) => r.headers['x-webhook-id'])).toEqual([delivery.event_id, delivery.event_id]);
    expect(requests.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2']);
    expect(requests.map((r) => r.headers['x-webhook-event'])).toEqual(['order.created', 'order.created']);
    expect(requests[1].body).toBe(requests[0].body);
    const body = JSON.parse(requests[1].body) as { id: string; event: string };
    expect(body).toMatchObject({ id: delivery.event_id, event: 'order.created' });
    for (const r of requests) expect(signatureValid(secret, r)).toBe(true);
  }

  beforeAll(async () => {
    process.on('exit', killLeftovers);
    // Build once (swc → dist/), as `npm run worker` does before starting.
    await promisify(execFile)('npm', ['run', '-s', 'build'], { cwd: ROOT, timeout: 60_000 });
    t = await buildTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-test-worker-'));
    workerEnv = {
      ...process.env, // NODE_EXTRA_CA_CERTS (the tests' CA) comes from here
      DATABASE_URL: t.db.url,
      JWT_SECRET: t.config.jwtSecret, // the key that opens the endpoints' secrets is derived from it
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
    };
  }, 120_000);

  afterEach(async () => {
    await stopAllWorkers();
  });

  afterAll(async () => {
    await stopAllWorkers();
    killLeftovers();
    process.off('exit', killLeftovers);
    for (const r of receivers) await r.close();
    await t?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('the lease is 2 × 1500 ms + 5 s here', () => {
    expect(LEASE_MS).toBe(8_000);
  });

  it('a worker killed in the middle of an attempt: the next worker completes the delivery after the lease', async () => {
    const receiver = await startHttpsReceiver();
    receivers.push(receiver);
    // The first attempt gets no answer for 20 s (worker 1 is killed meanwhile); later ones get 200.
    receiver.script({ status: 200, body: 'late', delayMs: 20_000 });
    const { ws, catalog, webhookId, secret } = await endpointOn(receiver, 'Crash');
    const describeState = () => diagnostics(webhookId);

    const first = await startWorkerProcess('worker 1');
    await order(ws, catalog);
    await receiver.waitFor(1, 20_000).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await describeState()}`);
    });
    await killHard(first); // within the 1.5 s the attempt may last, so its outcome is never recorded

    // Worker 1 died holding the attempt: the delivery is `sending` under its lease, and the
    // watchdog job (same job key) waits for the lease to end.
    const [held] = await deliveriesOf(webhookId);
    expect(held, await describeState()).toMatchObject({ status: 'sending', attempts: 1, response_status: null, sent_at: null });
    expect(held.lease_until).not.toBeNull();
    expect(held.lease_until! - held.last_attempt_at!).toBeCloseTo(LEASE_MS, 3);
    const watchdog = (await jobsOf(held.id)).filter((j) => j.key === deliveryJobKey(held.id));
    expect(watchdog, await describeState()).toHaveLength(1);
    expect(watchdog[0].locked_by).toBeNull();
    expect(watchdog[0].run_at).toBe(held.lease_until);

    // A new worker takes the delivery over once the lease has ended, and completes it.
    const second = await startWorkerProcess('worker 2');
    const sent = await waitUntil(
      "the delivery to be 'sent' by worker 2",
      async () => (await deliveriesOf(webhookId)).find((d) => d.status !== 'sending' && d.status !== 'pending'),
      describeState,
      LEASE_MS + 12_000,
    );
    expect(sent, await describeState()).toMatchObject({ id: held.id, status: 'sent', attempts: 2, response_status: 200, last_error: null, lease_until: null, next_attempt_at: null });
    expect(sent.sent_at).not.toBeNull();
    expect(hasExited(second), 'worker 2 keeps running').toBe(false);

    // Exactly two requests: attempt 1 (never answered) and attempt 2, not before the lease ended.
    await sleep(500);
    const requests = receiver.received;
    expect(requests, await describeState()).toHaveLength(2);
    expectSameEventTwice(requests, sent, secret);
    expect(requests[1].at).toBeGreaterThanOrEqual(held.lease_until! - CLOCK_SLACK_MS);

    // Nothing left that could deliver it again; the endpoint's counters reflect the success.
    const runnable = (await jobsOf(held.id)).filter((j) => j.attempts < j.max_attempts);
    expect(runnable, await describeState()).toEqual([]);
    const [endpoint] = await sql<{ failure_count: number; last_triggered_at: Date | null }[]>(
      'select failure_count, last_triggered_at from webhook_endpoint where id = ?',
      [webhookId],
    );
    expect(endpoint.failure_count).toBe(0);
    expect(endpoint.last_triggered_at).not.toBeNull();
  }, 60_000);

  it('a worker killed between attempts does not lose the scheduled retry', async () => {
    const receiver = await startHttpsReceiver();
    receivers.push(receiver);
    // The first attempt fails at once with a 500 (retried after 2.4–3.6 s); later ones get 200.
    receiver.script({ status: 500, body: 'boom' });
    const { ws, catalog, webhookId, secret } = await endpointOn(receiver, 'Retry');
    const describeState = () => diagnostics(webhookId);

    const first = await startWorkerProcess('worker A');
    await order(ws, catalog);
    const pending = await waitUntil(
      "the failed first attempt to be recorded as 'pending'",
      async () => (await deliveriesOf(webhookId)).find((d) => d.status === 'pending' && d.attempts === 1),
      describeState,
      20_000,
      20,
    );
    await killHard(first);

    // The retry is scheduled, in the delivery record and as a job nobody holds.
    expect(receiver.received, await describeState()).toHaveLength(1);
    const [waiting] = await deliveriesOf(webhookId);
    expect(waiting, await describeState()).toMatchObject({ status: 'pending', attempts: 1, response_status: 500, last_error: 'HTTP 500', lease_until: null });
    expect(waiting.next_attempt_at).not.toBeNull();
    expect(waiting.next_attempt_at).toBe(pending.next_attempt_at);
    const retryJob = (await jobsOf(waiting.id)).filter((j) => j.key === deliveryJobKey(waiting.id));
    expect(retryJob, await describeState()).toHaveLength(1);
    expect(retryJob[0].locked_by).toBeNull();
    expect(retryJob[0].run_at).toBe(waiting.next_attempt_at);

    // A new worker sends the retry when it is due.
    await startWorkerProcess('worker B');
    const sent = await waitUntil(
      "the delivery to be 'sent' by worker B",
      async () => (await deliveriesOf(webhookId)).find((d) => d.status === 'sent' || d.status === 'dead'),
      describeState,
      20_000,
    );
    expect(sent, await describeState()).toMatchObject({ id: waiting.id, status: 'sent', attempts: 2, response_status: 200, last_error: null, next_attempt_at: null });

    await sleep(500);
    const requests = receiver.received;
    expect(requests, await describeState()).toHaveLength(2);
    expectSameEventTwice(requests, sent, secret);
    expect(requests[1].at).toBeGreaterThanOrEqual(waiting.next_attempt_at! - CLOCK_SLACK_MS);
    const runnable = (await jobsOf(waiting.id)).filter((j) => j.attempts < j.max_attempts);
    expect(runnable, await describeState()).toEqual([]);
    const [endpoint] = await sql<{ failure_count: number }[]>('select failure_count from webhook_endpoint where id = ?', [webhookId]);
    expect(endpoint.failure_count).toBe(0); // the 500 counted, the success reset it
  }, 60_000);

  it('leaves no worker process behind', async () => {
    await stopAllWorkers();
    for (const w of everyWorker) {
      expect(hasExited(w), `${w.label} (pid ${w.pid}) is still running`).toBe(true);
      expect(() => process.kill(w.pid, 0)).toThrow();
    }
  });
});

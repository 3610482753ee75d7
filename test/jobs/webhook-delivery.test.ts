import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import type { HostResolver } from '../../src/domains/webhooks/target-guard';
import { createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { ORDER_CREATED_KEYS, signatureValid, startHttpsReceiver, USER_CREATED_KEYS, type HttpsReceiver, type LoggedDelivery, type ReceivedRequest } from '../helpers/https-receiver';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Webhook DELIVERY by the worker: events raised by real API calls (orders, status changes, users)
 * are delivered by graphile-worker runners (`t.startWorker()`) to real HTTPS receivers on
 * 127.0.0.1 (a throwaway CA). Checked: the envelope, headers and signature (verified here with an
 * independent HMAC), the delivery record and the endpoint counters, retries and their back-off,
 * what is not retried (4xx, redirects), timeouts, the last attempt, pausing / resuming / deleting /
 * rotating while a delivery waits for its retry, redelivery, the SSRF guard at delivery time (a
 * host that rebinds to a private address; pinning to the vetted address with TLS still checking
 * the URL's host name), order.delivered and user.created payloads, and two workers sharing a burst.
 *
 * Three apps, each over its own database with its own workers and workspace:
 * - `fast`: small timings (base 100 ms, cap 400 ms, timeout 500 ms, 4 attempts), two workers;
 * - `capped`: base 100 ms but cap 3 s, to see a 429's Retry-After honoured within the cap;
 * - `slow`: base 1.5 s, so a test can pause, delete or rotate while a retry is waiting.
 * graphile-worker polls for due jobs every second, so a retry comes at its scheduled time plus up
 * to a second; gaps are asserted against the scheduled delays (next_attempt_at), not exact times.
 */

const BASE_ENV = {
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,hooks.test,pinned.hooks.test,wrong-name.test',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_MAX_ATTEMPTS: '4',
};
const FAST_ENV = { ...BASE_ENV, WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_CAP_MS: '400' };
const CAPPED_ENV = { ...BASE_ENV, WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_CAP_MS: '3000' };
const SLOW_ENV = { ...BASE_ENV, WEBHOOK_RETRY_BASE_MS: '1500', WEBHOOK_RETRY_CAP_MS: '3000' };

const USER_AGENT = 'SalesDistribution-Webhooks/1.0 (+https://github.com/sales-distribution)';

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 20 ms until it returns something truthy; fails after `timeoutMs`. */
async function waitUntil<T>(probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitUntil: ${what} not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** A request header as one string. */
function header(req: ReceivedRequest, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}


interface Envelope {
  id: string;
  event: string;
  timestamp: string;
  organization_id: number;
  data: Record<string, unknown>;
}
const envelopeOf = (req: ReceivedRequest) => JSON.parse(req.body) as Envelope;

/** Every key at any depth of a JSON value. */
function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...keysDeep(v)]);
  return [];
}

const receivers: HttpsReceiver[] = [];
/** A fresh HTTPS receiver, closed after the file. */
async function receiver(): Promise<HttpsReceiver> {
  const r = await startHttpsReceiver();
  receivers.push(r);
  return r;
}

// ---------------------------------------------------------------------------------------------
// One app, its workspace and catalogue
// ---------------------------------------------------------------------------------------------

/** A delivery row (timestamps as the driver returns them: ISO strings) with its endpoint's counters and, when pending, the scheduled delay. */
interface DeliveryRow extends Omit<LoggedDelivery, 'webhook_id' | 'created_at'> {
  delay_ms: number | null;
  failure_count: number;
}

interface Endpoint {
  id: number;
  secret: string;
}

class Stage {
  t!: TestApp;
  ws!: Workspace;
  catalog!: Catalog;

  async start(env: Record<string, string>, workers: number, resolveHost?: HostResolver): Promise<this> {
    this.t = await buildTestApp(env, { resolveHost });
    this.ws = await createWorkspace(this.t);
    this.catalog = await seedCatalog(this.t, this.ws);
    for (let i = 0; i < workers; i += 1) await this.t.startWorker();
    return this;
  }

  sql<T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[] = []): Promise<T> {
    return this.t.orm.em.fork().getConnection().execute<T>(query, params);
  }

  async createEndpoint(url: string, events?: string[]): Promise<Endpoint> {
    const res = await this.t.request({
      method: 'POST',
      url: '/api/v1/developer/webhooks',
      token: this.ws.token,
      payload: { name: 'Receiver', url, ...(events ? { events } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    return { id: data.id, secret: data.secret };
  }

  async update(id: number, payload: Record<string, unknown>) {
    const res = await this.t.request({ method: 'PUT', url: `/api/v1/developer/webhooks/${id}`, token: this.ws.token, payload });
    expect(res.statusCode, res.body).toBe(200);
  }

  async remove(id: number) {
    const res = await this.t.request({ method: 'DELETE', url: `/api/v1/developer/webhooks/${id}`, token: this.ws.token });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** Deletes every endpoint of the workspace, so the next test's events reach only its own. */
  async removeAllEndpoints() {
    const res = await this.t.request({ method: 'GET', url: '/api/v1/developer/webhooks', token: this.ws.token });
    for (const endpoint of res.json().data as Array<{ id: number }>) await this.remove(endpoint.id);
  }

  /** GET /developer/webhooks entry of an endpoint. */
  async endpoint(id: number): Promise<{ failure_count: number; last_triggered_at: string | null; status: number }> {
    const res = await this.t.request({ method: 'GET', url: '/api/v1/developer/webhooks', token: this.ws.token });
    expect(res.statusCode, res.body).toBe(200);
    const found = (res.json().data as Array<{ id: number; failure_count: number; last_triggered_at: string | null; status: number }>).find((w) => w.id === id);
    expect(found, `endpoint ${id} listed`).toBeDefined();
    return found!;
  }

  /** The delivery log of an endpoint over REST, newest first. */
  async log(webhookId: number): Promise<LoggedDelivery[]> {
    const res = await this.t.request({ method: 'GET', url: `/api/v1/developer/webhook-deliveries?webhook_id=${webhookId}`, token: this.ws.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  /** Delivery rows of an endpoint (oldest first) straight from the database. */
  rows(webhookId: number): Promise<DeliveryRow[]> {
    return this.sql<DeliveryRow[]>(
      `select d.id, d.event_id, d.event_type, d.status, d.attempts, d.max_attempts, d.next_attempt_at, d.last_attempt_at, d.sent_at,
              d.response_status, d.response_body, d.duration_ms, d.last_error,
              round(extract(epoch from (d.next_attempt_at - d.updated_at)) * 1000)::int as delay_ms, w.failure_count
         from webhook_delivery d join webhook_endpoint w on w.id = d.webhook_id
        where d.webhook_id = ? order by d.id`,
      [webhookId],
    );
  }

  /** The only delivery row of an endpoint, once `ready` holds for it. */
  async waitForRow(webhookId: number, ready: (row: DeliveryRow) => boolean, timeoutMs = 10_000, what = 'delivery state'): Promise<DeliveryRow> {
    return waitUntil(async () => {
      const rows = await this.rows(webhookId);
      expect(rows.length).toBeLessThanOrEqual(1);
      return rows[0] && ready(rows[0]) ? rows[0] : null;
    }, timeoutMs, what);
  }

  /** graphile-worker jobs still keyed to a delivery. */
  async jobsFor(deliveryId: number): Promise<number> {
    const rows = await this.sql<{ n: number }[]>('select count(*)::int as n from graphile_worker.jobs where key = ?', [`webhook-delivery-${deliveryId}`]);
    return rows[0].n;
  }

  /** Places an order for the distributor; returns its id and when the answer came. */
  async order(): Promise<{ id: number; answeredAt: number }> {
    const order = await placeOrder(this.t, this.ws.token, {
      user_id: this.catalog.distributorId,
      items: [
        { product_variant_id: this.catalog.variantIds[0], quantity: 2 },
        { product_variant_id: this.catalog.variantIds[1], quantity: 1 },
      ],
    });
    return { id: order.id, answeredAt: Date.now() };
  }

  async orderDetail(id: number): Promise<Record<string, unknown> & { delivery: { delivered_at: string | null } }> {
    const res = await this.t.request({ method: 'GET', url: `/api/v1/orders/${id}`, token: this.ws.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  async setOrderStatus(id: number, status: number) {
    const res = await this.t.request({ method: 'PATCH', url: `/api/v1/orders/${id}/status`, token: this.ws.token, payload: { order_status: status } });
    expect(res.statusCode, res.body).toBe(200);
  }

  close() {
    return this.t?.close();
  }
}

/** Fake DNS for webhook targets: counts calls per host. */
function fakeResolver() {
  const calls = new Map<string, number>();
  const resolve: HostResolver = async (host) => {
    const n = (calls.get(host) ?? 0) + 1;
    calls.set(host, n);
    // Public when the endpoint is registered (first lookup), loopback at every delivery after.
    if (host === 'rebind.hooks.test') return [{ address: n === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    if (host === 'hooks.test' || host === 'pinned.hooks.test' || host === 'wrong-name.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  return { resolve, calls: (host: string) => calls.get(host) ?? 0 };
}

// ---------------------------------------------------------------------------------------------

const dns = fakeResolver();
const fast = new Stage();
const capped = new Stage();
const slow = new Stage();

beforeAll(async () => {
  await Promise.all([fast.start(FAST_ENV, 2, dns.resolve), capped.start(CAPPED_ENV, 1), slow.start(SLOW_ENV, 1)]);
});
afterAll(async () => {
  await Promise.all([fast.close(), capped.close(), slow.close()]);
  await Promise.all(receivers.map((r) => r.close()));
});
afterEach(async () => {
  await Promise.all([fast.removeAllEndpoints(), capped.removeAllEndpoints(), slow.removeAllEndpoints()]);
});

describe('webhook delivery by the worker', () => {
  describe('a successful delivery', () => {
    it('order.created: one signed POST with the envelope, picked up within a second; the record and the endpoint are updated', async () => {
      const r = await receiver();
      const endpoint = await fast.createEndpoint(r.url());
      const order = await fast.order();
      const [req] = await r.waitFor(1, 5_000);

      // Pickup: an idle worker is woken by LISTEN/NOTIFY, not by its one-second poll.
      expect(req.at - order.answeredAt).toBeLessThan(1_000);
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/hook');

      const body = envelopeOf(req);
      expect(Object.keys(body)).toEqual(['id', 'event', 'timestamp', 'organization_id', 'data']);
      expect(body.id).toMatch(/^evt_[0-9a-f]{24}$/);
      expect(body.event).toBe('order.created');
      expect(body.organization_id).toBe(fast.ws.organizationId);
      expect(Math.abs(Date.parse(body.timestamp) - order.answeredAt)).toBeLessThan(5_000);
      expect(Object.keys(body.data).sort()).toEqual([...ORDER_CREATED_KEYS].sort());

      const detail = await fast.orderDetail(order.id);
      expect(body.data).toEqual({
        id: order.id,
        order_code: detail.order_code,
        order_status: 1,
        user_id: fast.catalog.distributorId,
        user_name: detail.user_name,
        order_total_amount: detail.order_total_amount,
        order_items_count: 2,
        order_date: detail.order_date,
        production_unit_id: detail.production_unit_id,
        mode_of_payment: detail.mode_of_payment,
        created_at: detail.createdAt,
      });
      expect(detail.order_total_amount).toBe(2 * 28.5 + 55);

      expect(header(req, 'content-type')).toBe('application/json');
      expect(header(req, 'user-agent')).toBe(USER_AGENT);
      expect(header(req, 'x-webhook-event')).toBe('order.created');
      expect(header(req, 'x-webhook-id')).toBe(body.id);
      expect(header(req, 'x-webhook-attempt')).toBe('1');
      expect(header(req, 'x-webhook-timestamp')).toMatch(/^\d+$/);
      expect(Math.abs(Number(header(req, 'x-webhook-timestamp')) - Date.now() / 1000)).toBeLessThan(5);
      expect(header(req, 'x-webhook-signature')).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(signatureValid(endpoint.secret, req)).toBe(true);
      expect(signatureValid(`${endpoint.secret}x`, req)).toBe(false); // the check can fail
      expect(signatureValid(endpoint.secret, { ...req, body: req.body.replace('"order_status":1', '"order_status":2') })).toBe(false);

      const [record] = await waitUntil(async () => {
        const log = await fast.log(endpoint.id);
        return log[0]?.status === 'sent' ? log : null;
      }, 5_000, 'delivery sent');
      expect(record).toMatchObject({
        webhook_id: endpoint.id,
        event_id: body.id,
        event_type: 'order.created',
        status: 'sent',
        attempts: 1,
        max_attempts: 4,
        next_attempt_at: null,
        response_status: 200,
        response_body: 'ok',
        last_error: null,
      });
      expect(Date.parse(record.sent_at!)).toBeGreaterThanOrEqual(Date.parse(record.last_attempt_at!));
      expect(Math.abs(Date.parse(record.sent_at!) - Date.now())).toBeLessThan(5_000);
      expect(record.duration_ms).toEqual(expect.any(Number));
      expect(record.duration_ms!).toBeGreaterThanOrEqual(0);
      expect(record.duration_ms!).toBeLessThan(500);

      const after = await fast.endpoint(endpoint.id);
      expect(after.failure_count).toBe(0);
      expect(after.last_triggered_at).not.toBeNull();
      expect(Math.abs(Date.parse(after.last_triggered_at!) - Date.now())).toBeLessThan(5_000);
      expect(await fast.jobsFor(record.id)).toBe(0);
      await sleep(300);
      expect(r.received).toHaveLength(1);
    });
  });

  describe('retries', () => {
    it('500, 500, 200: three attempts of one event, each freshly signed, backing off; failure_count climbs to 2 then resets', async () => {
      const r = await receiver();
      r.script({ status: 500, body: 'down' }, { status: 500, body: 'still down' });
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();

      // Sample the record while it retries: every distinct (status, attempts, failure_count) seen.
      const seen: DeliveryRow[] = [];
      const final = await fast.waitForRow(endpoint.id, (row) => {
        const last = seen.at(-1);
        if (!last || last.status !== row.status || last.attempts !== row.attempts || last.failure_count !== row.failure_count) seen.push(row);
        return row.status === 'sent';
      }, 10_000, 'delivery sent after retries');

      const reqs = await r.waitFor(3, 1_000);
      expect(reqs.map((q) => header(q, 'x-webhook-attempt'))).toEqual(['1', '2', '3']);
      const eventId = envelopeOf(reqs[0]).id;
      for (const q of reqs) {
        expect(header(q, 'x-webhook-id')).toBe(eventId);
        expect(q.body).toBe(reqs[0].body); // the same envelope every time
        expect(signatureValid(endpoint.secret, q)).toBe(true); // each against its own timestamp
      }

      const pending = seen.filter((row) => row.status === 'pending' && row.attempts > 0);
      expect(pending.map((row) => [row.attempts, row.failure_count, row.last_error])).toEqual([
        [1, 1, 'HTTP 500'],
        [2, 2, 'HTTP 500'],
      ]);
      // Scheduled delays: base × 2^(n−1) ± 20% (80–120 ms, then 160–240 ms): they grow.
      const [d1, d2] = pending.map((row) => row.delay_ms!);
      expect(d1).toBeGreaterThanOrEqual(80);
      expect(d1).toBeLessThanOrEqual(120);
      expect(d2).toBeGreaterThanOrEqual(160);
      expect(d2).toBeLessThanOrEqual(240);
      // Real gaps are at least the scheduled delays (the worker's poll adds up to a second).
      expect(reqs[1].at - reqs[0].at).toBeGreaterThanOrEqual(d1);
      expect(reqs[2].at - reqs[1].at).toBeGreaterThanOrEqual(d2);

      expect(final).toMatchObject({ status: 'sent', attempts: 3, response_status: 200, response_body: 'ok', last_error: null, failure_count: 0, next_attempt_at: null });
      expect((await fast.endpoint(endpoint.id)).failure_count).toBe(0);
      expect(await fast.jobsFor(final.id)).toBe(0);
    });

    it('429 and 408 are retried, then a 200 delivers', async () => {
      const r = await receiver();
      r.script({ status: 429, body: 'slow down' }, { status: 408, body: 'timeout' });
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();
      const final = await fast.waitForRow(endpoint.id, (row) => row.status === 'sent', 10_000, 'sent after 429 and 408');
      expect(final).toMatchObject({ attempts: 3, response_status: 200, failure_count: 0 });
      expect(r.received.map((q) => header(q, 'x-webhook-attempt'))).toEqual(['1', '2', '3']);
    });

    it('a 429 with Retry-After: 1 delays the next attempt by a second (cap 3 s)', async () => {
      const r = await receiver();
      r.script({ status: 429, headers: { 'retry-after': '1' } });
      const endpoint = await capped.createEndpoint(r.url());
      await capped.order();
      const waiting = await capped.waitForRow(endpoint.id, (row) => row.status === 'pending' && row.attempts === 1, 5_000, 'pending after 429');
      // Without Retry-After the delay would be 80–120 ms.
      expect(waiting.delay_ms).toBe(1_000);
      expect(waiting).toMatchObject({ response_status: 429, last_error: 'HTTP 429' });
      const [first, second] = await r.waitFor(2, 5_000);
      expect(second.at - first.at).toBeGreaterThanOrEqual(900);
      expect(header(second, 'x-webhook-attempt')).toBe('2');
      await capped.waitForRow(endpoint.id, (row) => row.status === 'sent' && row.attempts === 2, 3_000, 'sent');
    });

    it('a Retry-After longer than the cap waits the cap only', async () => {
      const r = await receiver();
      r.script({ status: 429, headers: { 'retry-after': '10' } });
      const endpoint = await capped.createEndpoint(r.url());
      await capped.order();
      const waiting = await capped.waitForRow(endpoint.id, (row) => row.status === 'pending' && row.attempts === 1, 5_000, 'pending after 429');
      expect(waiting.delay_ms).toBe(3_000);
      // The job that makes the retry runs then (not in 10 s); the endpoint is deleted after the test.
      const [job] = await capped.sql<{ run_at: string }[]>('select run_at from graphile_worker.jobs where key = ?', [`webhook-delivery-${waiting.id}`]);
      expect(Date.parse(job.run_at)).toBe(Date.parse(waiting.next_attempt_at!));
      expect(r.received).toHaveLength(1);
    });

    it('no answer within WEBHOOK_TIMEOUT_MS is retried with no response status', async () => {
      const r = await receiver();
      r.script({ status: 200, body: 'too late', delayMs: 2_000 });
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();
      const waiting = await fast.waitForRow(endpoint.id, (row) => row.status === 'pending' && row.attempts === 1, 5_000, 'pending after timeout');
      expect(waiting.last_error).toMatch(/no answer within 500 ms/);
      expect(waiting.response_status).toBeNull();
      expect(waiting.response_body).toBeNull();
      expect(waiting.duration_ms!).toBeGreaterThanOrEqual(480);
      expect(waiting.duration_ms!).toBeLessThan(1_500);
      expect(waiting.failure_count).toBe(1);
      const final = await fast.waitForRow(endpoint.id, (row) => row.status === 'sent', 5_000, 'sent on the retry');
      expect(final).toMatchObject({ attempts: 2, response_status: 200 });
      expect(r.received.map((q) => header(q, 'x-webhook-attempt'))).toEqual(['1', '2']);
    });

    it('always 500: exactly WEBHOOK_MAX_ATTEMPTS (4) attempts, then dead with no job left', async () => {
      const r = await receiver();
      r.fallback = { status: 500, body: 'boom' };
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();
      const dead = await fast.waitForRow(endpoint.id, (row) => row.status === 'dead', 15_000, 'dead after 4 attempts');
      expect(dead).toMatchObject({ attempts: 4, max_attempts: 4, next_attempt_at: null, response_status: 500, response_body: 'boom', last_error: 'HTTP 500', failure_count: 4 });
      expect(await fast.jobsFor(dead.id)).toBe(0);
      await sleep(1_500); // a fifth attempt would come within the cap (400 ms) and a poll (1 s)
      expect(r.received.map((q) => header(q, 'x-webhook-attempt'))).toEqual(['1', '2', '3', '4']);
      expect(new Set(r.received.map((q) => header(q, 'x-webhook-id'))).size).toBe(1);
      expect((await fast.log(endpoint.id))[0]).toMatchObject({ status: 'dead', attempts: 4, next_attempt_at: null });
    });
  });

  describe('answers that are not retried', () => {
    it.each([
      [410, 'gone'],
      [404, 'not found'],
    ])('%i → one attempt, dead at once', async (status, text) => {
      const r = await receiver();
      r.script({ status, body: text });
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();
      const dead = await fast.waitForRow(endpoint.id, (row) => row.status === 'dead', 5_000, `dead after ${status}`);
      await sleep(1_000);
      expect(r.received).toHaveLength(1);
      expect(dead).toMatchObject({ attempts: 1, next_attempt_at: null, sent_at: null, response_status: status, response_body: text, last_error: `HTTP ${status}`, failure_count: 1 });
      expect(await fast.jobsFor(dead.id)).toBe(0);
      expect((await fast.endpoint(endpoint.id)).failure_count).toBe(1);
    });

    it('a 302 is not followed: the Location receiver gets nothing, the delivery is dead', async () => {
      const r = await receiver();
      const elsewhere = await receiver();
      r.script({ status: 302, headers: { location: elsewhere.url('/elsewhere') } });
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();
      const dead = await fast.waitForRow(endpoint.id, (row) => row.status === 'dead', 5_000, 'dead after 302');
      await sleep(1_000);
      expect(elsewhere.received).toHaveLength(0);
      expect(r.received).toHaveLength(1);
      expect(dead).toMatchObject({ attempts: 1, response_status: 302, last_error: 'redirect (302) not followed', failure_count: 1 });
    });
  });

  describe('endpoint changes while a delivery waits for its retry', () => {
    /** Places an order against a 500-once receiver and waits until the delivery is pending its retry. */
    async function failedOnce(stage: Stage) {
      const r = await receiver();
      r.script({ status: 500 });
      const endpoint = await stage.createEndpoint(r.url());
      await stage.order();
      await r.waitFor(1, 5_000);
      const waiting = await stage.waitForRow(endpoint.id, (row) => row.status === 'pending' && row.attempts === 1, 5_000, 'pending retry');
      return { r, endpoint, waiting };
    }

    it('pausing cancels the retry; events while paused are not queued; resuming delivers new events only', async () => {
      const { r, endpoint, waiting } = await failedOnce(slow);
      await slow.update(endpoint.id, { status: 0 });
      const pausedAt = Date.now();
      const cancelled = (await slow.rows(endpoint.id))[0];
      expect(cancelled).toMatchObject({ status: 'dead', attempts: 1, next_attempt_at: null, last_error: 'cancelled: the endpoint was paused' });
      expect(await slow.jobsFor(cancelled.id)).toBe(0);

      await slow.order(); // while paused: not queued at all
      expect(await slow.rows(endpoint.id)).toHaveLength(1);

      // Past the moment the retry was due, plus a poll.
      await sleep(Math.max(0, Date.parse(waiting.next_attempt_at!) - Date.now()) + 1_500);
      expect(r.received.filter((q) => q.at > pausedAt)).toHaveLength(0);
      expect(r.received).toHaveLength(1);

      await slow.update(endpoint.id, { status: 1 });
      const fresh = await slow.order();
      const [, second] = await r.waitFor(2, 5_000);
      expect(envelopeOf(second).data.id).toBe(fresh.id);
      expect(header(second, 'x-webhook-id')).not.toBe(header(r.received[0], 'x-webhook-id'));
      expect(header(second, 'x-webhook-attempt')).toBe('1');
      await sleep(1_000);
      expect(r.received).toHaveLength(2); // neither the cancelled nor the paused-time event comes back
      const rows = await slow.rows(endpoint.id);
      expect(rows.map((row) => row.status)).toEqual(['dead', 'sent']);
    });

    it('deleting cancels the retry and discards the secret', async () => {
      const { r, endpoint, waiting } = await failedOnce(slow);
      await slow.remove(endpoint.id);
      const deletedAt = Date.now();
      const [cancelled] = await slow.rows(endpoint.id);
      expect(cancelled).toMatchObject({ status: 'dead', attempts: 1, next_attempt_at: null, last_error: 'cancelled: the endpoint was deleted' });
      expect(await slow.jobsFor(cancelled.id)).toBe(0);
      const [stored] = await slow.sql<{ secret_ciphertext: string | null; deleted_at: string | null }[]>(
        'select secret_ciphertext, deleted_at from webhook_endpoint where id = ?',
        [endpoint.id],
      );
      expect(stored.secret_ciphertext).toBeNull();
      expect(stored.deleted_at).not.toBeNull();
      await sleep(Math.max(0, Date.parse(waiting.next_attempt_at!) - Date.now()) + 1_500);
      expect(r.received.filter((q) => q.at > deletedAt)).toHaveLength(0);
      expect(r.received).toHaveLength(1);
      expect((await slow.log(endpoint.id))[0]).toMatchObject({ status: 'dead', last_error: 'cancelled: the endpoint was deleted' });
    });

    it('pausing while an attempt is in flight: the attempt finishes, its retry is not made', async () => {
      const r = await receiver();
      r.script({ status: 500, delayMs: 300 });
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();
      await r.waitFor(1, 5_000);
      expect((await fast.rows(endpoint.id))[0].status).toBe('sending');
      await fast.update(endpoint.id, { status: 0 });
      const pausedAt = Date.now();
      const dead = await fast.waitForRow(endpoint.id, (row) => row.status === 'dead', 5_000, 'dead after the pause');
      await sleep(1_000);
      expect(r.received.filter((q) => q.at > pausedAt)).toHaveLength(0);
      // The in-flight attempt is recorded (pending), then the retry's claim finds the endpoint paused and ends it.
      expect(dead).toMatchObject({ attempts: 1, response_status: 500, next_attempt_at: null, last_error: 'cancelled: the endpoint was paused' });
      expect(await fast.jobsFor(dead.id)).toBe(0);
    });

    it('rotating the secret: the retry is signed with the new secret, not the old', async () => {
      const { r, endpoint } = await failedOnce(slow);
      expect(signatureValid(endpoint.secret, r.received[0])).toBe(true);
      const res = await slow.t.request({ method: 'POST', url: `/api/v1/developer/webhooks/${endpoint.id}/rotate-secret`, token: slow.ws.token });
      expect(res.statusCode, res.body).toBe(200);
      const rotated: string = res.json().data.secret;
      expect(rotated).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(rotated).not.toBe(endpoint.secret);
      const [, retry] = await r.waitFor(2, 6_000);
      expect(header(retry, 'x-webhook-attempt')).toBe('2');
      expect(signatureValid(rotated, retry)).toBe(true);
      expect(signatureValid(endpoint.secret, retry)).toBe(false);
      await slow.waitForRow(endpoint.id, (row) => row.status === 'sent' && row.attempts === 2, 3_000, 'sent on the retry');
    });
  });

  describe('redelivery', () => {
    it('a dead delivery is sent again as a new delivery of the same event, from attempt 1', async () => {
      const r = await receiver();
      r.script({ status: 410 });
      const endpoint = await fast.createEndpoint(r.url());
      await fast.order();
      const dead = await fast.waitForRow(endpoint.id, (row) => row.status === 'dead', 5_000, 'dead after 410');

      const res = await fast.t.request({ method: 'POST', url: `/api/v1/developer/webhook-deliveries/${dead.id}/redeliver`, token: fast.ws.token });
      expect(res.statusCode, res.body).toBe(201);
      const again = res.json().data;
      expect(again.id).not.toBe(dead.id);
      expect(again).toMatchObject({ event_id: dead.event_id, event_type: 'order.created', webhook_id: endpoint.id, attempts: 0, max_attempts: 4 });

      const [first, second] = await r.waitFor(2, 5_000);
      expect(header(second, 'x-webhook-id')).toBe(header(first, 'x-webhook-id'));
      expect(header(second, 'x-webhook-id')).toBe(dead.event_id);
      expect(header(second, 'x-webhook-attempt')).toBe('1');
      expect(second.body).toBe(first.body);
      expect(signatureValid(endpoint.secret, second)).toBe(true);

      await waitUntil(async () => (await fast.rows(endpoint.id)).find((row) => row.id === again.id && row.status === 'sent'), 5_000, 'redelivery sent');
      const log = await fast.log(endpoint.id);
      expect(log.map((d) => [d.id, d.status, d.attempts])).toEqual([
        [again.id, 'sent', 1],
        [dead.id, 'dead', 1],
      ]);
      await sleep(300);
      expect(r.received).toHaveLength(2);
    });
  });

  describe('the target is vetted again at delivery', () => {
    it('a host that resolved to a public address at registration and to 127.0.0.1 later is refused and retried; nothing is sent', async () => {
      const r = await receiver();
      const url = r.url('/hook', 'rebind.hooks.test');
      const endpoint = await fast.createEndpoint(url);
      expect(dns.calls('rebind.hooks.test')).toBe(1);
      await fast.order();
      const retried = await fast.waitForRow(endpoint.id, (row) => row.attempts >= 2, 5_000, 'a second refused attempt');
      expect(retried.last_error).toBe('target refused: host rebind.hooks.test must resolve only to public addresses');
      expect(retried.response_status).toBeNull();
      const dead = await fast.waitForRow(endpoint.id, (row) => row.status === 'dead', 10_000, 'dead after 4 refused attempts');
      expect(dead).toMatchObject({ attempts: 4, failure_count: 4, response_status: null, next_attempt_at: null });
      expect(dead.last_error).toMatch(/^target refused: /);
      expect(dns.calls('rebind.hooks.test')).toBe(1 + 4);
      expect(r.received).toHaveLength(0);
    });

    it('the connection goes to the vetted address (one lookup per attempt) and TLS checks the URL host name', async () => {
      const r = await receiver();
      r.script({ status: 503 });
      const endpoint = await fast.createEndpoint(r.url('/pinned', 'pinned.hooks.test'));
      const before = dns.calls('pinned.hooks.test');
      expect(before).toBe(1); // registration
      await fast.order();
      const sent = await fast.waitForRow(endpoint.id, (row) => row.status === 'sent', 8_000, 'sent to the pinned host');
      expect(sent.attempts).toBe(2);
      const reqs = await r.waitFor(2, 1_000);
      for (const q of reqs) {
        expect(q.url).toBe('/pinned');
        expect(header(q, 'host')).toBe(`pinned.hooks.test:${r.port}`);
        expect(signatureValid(endpoint.secret, q)).toBe(true);
      }
      // The system resolver knows no pinned.hooks.test: the request could only go to the vetted address.
      expect(dns.calls('pinned.hooks.test')).toBe(before + 2);
    });

    it('a certificate that does not name the URL host fails the attempt (retried), though the address is in it', async () => {
      const r = await receiver();
      const endpoint = await fast.createEndpoint(r.url('/hook', 'wrong-name.test'));
      await fast.order();
      const failed = await fast.waitForRow(endpoint.id, (row) => row.attempts >= 1 && row.status !== 'sending', 5_000, 'TLS failure recorded');
      expect(failed.status === 'pending' || failed.status === 'dead').toBe(true);
      expect(failed.response_status).toBeNull();
      expect(failed.last_error).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
      expect(r.received).toHaveLength(0);
      await fast.waitForRow(endpoint.id, (row) => row.attempts >= 2, 5_000, 'TLS failure retried');
      expect(r.received).toHaveLength(0);
    });
  });

  describe('other events', () => {
    it('order.delivered: exactly one POST when the status reaches 4, with the order.created fields and delivered_at', async () => {
      const r = await receiver();
      const endpoint = await fast.createEndpoint(r.url());
      const order = await fast.order();
      const [created] = await r.waitFor(1, 5_000);
      const createdData = envelopeOf(created).data;
      await fast.setOrderStatus(order.id, 2);
      await fast.setOrderStatus(order.id, 3);
      await sleep(500);
      expect(r.received).toHaveLength(1);
      await fast.setOrderStatus(order.id, 4);
      const [, delivered] = await r.waitFor(2, 5_000);
      await sleep(800);
      expect(r.received).toHaveLength(2);

      const body = envelopeOf(delivered);
      expect(body.event).toBe('order.delivered');
      expect(header(delivered, 'x-webhook-event')).toBe('order.delivered');
      expect(header(delivered, 'x-webhook-id')).toBe(body.id);
      expect(body.id).not.toBe(envelopeOf(created).id);
      expect(signatureValid(endpoint.secret, delivered)).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual([...ORDER_CREATED_KEYS, 'delivered_at'].sort());
      const detail = await fast.orderDetail(order.id);
      expect(body.data).toEqual({ ...createdData, order_status: 4, delivered_at: detail.delivery.delivered_at });
      expect(detail.delivery.delivered_at).not.toBeNull();
      const rows = await fast.rows(endpoint.id);
      expect(rows.map((row) => [row.event_type, row.status])).toEqual([
        ['order.created', 'sent'],
        ['order.delivered', 'sent'],
      ]);
    });

    it('user.created: exactly the documented fields, no password or hash anywhere; order events do not reach a user-only endpoint', async () => {
      const r = await receiver();
      const endpoint = await fast.createEndpoint(r.url(), ['user.created']);
      const user = await createUser(fast.t, fast.ws, UserType.EMPLOYEE);
      const [req] = await r.waitFor(1, 5_000);
      const body = envelopeOf(req);
      expect(body.event).toBe('user.created');
      expect(signatureValid(endpoint.secret, req)).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual([...USER_CREATED_KEYS].sort());
      expect(body.data).toEqual({
        id: user.id,
        first_name: user.body.first_name,
        last_name: user.body.last_name,
        official_email: user.body.official_email,
        primary_contact_number: user.body.primary_contact_number,
        user_type: UserType.EMPLOYEE,
        role_id: fast.ws.roles.Employee,
        status: 1,
        created_at: user.body.createdAt,
      });
      expect(keysDeep(body).filter((k) => /pass|hash|secret|otp|token/i.test(k))).toEqual([]);
      expect(req.body).not.toMatch(/password123|\$argon2|\$2[aby]\$/);

      await fast.order();
      await sleep(1_000);
      expect(r.received).toHaveLength(1);
    });
  });

  describe('two workers', () => {
    it('10 orders placed at once: 10 events, each delivered exactly once', async () => {
      const r = await receiver();
      const endpoint = await fast.createEndpoint(r.url());
      const orders = await Promise.all(Array.from({ length: 10 }, () => fast.order()));
      const reqs = await r.waitFor(10, 8_000);
      await waitUntil(async () => (await fast.rows(endpoint.id)).filter((row) => row.status === 'sent').length === 10, 5_000, '10 sent');
      await sleep(1_000);
      expect(r.received).toHaveLength(10);

      const pairs = reqs.map((q) => `${header(q, 'x-webhook-id')}#${header(q, 'x-webhook-attempt')}`);
      expect(new Set(pairs).size).toBe(10);
      expect(new Set(reqs.map((q) => header(q, 'x-webhook-id'))).size).toBe(10);
      expect(reqs.every((q) => header(q, 'x-webhook-attempt') === '1' && signatureValid(endpoint.secret, q))).toBe(true);
      expect(reqs.map((q) => envelopeOf(q).data.id as number).sort((a, b) => a - b)).toEqual(orders.map((o) => o.id).sort((a, b) => a - b));
      const rows = await fast.rows(endpoint.id);
      expect(rows).toHaveLength(10);
      expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    });
  });
});

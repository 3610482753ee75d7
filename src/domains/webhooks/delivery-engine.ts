import { randomBytes } from 'node:crypto';
import { isRetryable, parseRetryAfter, retryDelayMs, type RetrySettings } from './retry-policy';
import { sendAttempt, WEBHOOK_USER_AGENT, type AttemptOutcome } from './webhook-sender';
import { signPayload, type SecretBox } from './webhook-secret';
import { UnsafeTargetError, vetTarget, type HostResolver } from './target-guard';

/** What delivering needs from its surroundings. */
export interface DeliveryDeps {
  settings: RetrySettings & { timeoutMs: number; allowedPrivateHosts: string[] };
  secrets: SecretBox;
  resolve: HostResolver;
}

/** A SQL connection inside which statements can run in one transaction (pg's PoolClient fits). */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** An id for a new event: `evt_` and 24 hex characters. */
export const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;

/** The graphile-worker job key of a delivery: at most one job per delivery is waiting. */
export const deliveryJobKey = (deliveryId: number) => `webhook-delivery-${deliveryId}`;

/**
 * How long a `sending` delivery belongs to the worker that started the attempt: twice the
 * attempt's timeout and 5 s more (25 s by default). After that another worker takes it over.
 */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 5_000;

interface DeliveryRow {
  id: number;
  organization_id: number;
  webhook_id: number;
  event_id: string;
  event_type: string;
  event_data: object;
  event_at: Date;
  status: string;
  attempts: number;
  max_attempts: number;
  /** Whether a `sending` attempt's lease is still running (by the database's clock). */
  leased: boolean;
  url: string;
  secret_ciphertext: string | null;
  endpoint_status: number;
  deleted_at: Date | null;
}

/** An attempt this worker now owns. */
export interface ClaimedAttempt {
  deliveryId: number;
  organizationId: number;
  webhookId: number;
  attempt: number;
  maxAttempts: number;
  url: string;
  secret: string;
  body: string;
  eventId: string;
  eventType: string;
}

/** The JSON body of every delivery of an event (the envelope of the interface). */
export function envelope(eventId: string, eventType: string, eventAt: Date, organizationId: number, data: object): string {
  return JSON.stringify({ id: eventId, event: eventType, timestamp: new Date(eventAt).toISOString(), organization_id: organizationId, data });
}

async function inTransaction<T>(client: SqlClient, work: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await work();
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback');
    throw err;
  }
}

/**
 * Delivers webhook events. Each attempt is claimed, sent and recorded in three steps. Claiming
 * marks the delivery `sending` and leaves a watchdog job that runs when the lease ends: if this
 * worker dies mid-attempt, another one takes the delivery over, and nothing is lost. Recording
 * either finishes the delivery (`sent`, `dead`) or moves the same job key to the next attempt.
 */
export class DeliveryEngine {
  constructor(private readonly deps: DeliveryDeps) {}

  /** Runs the next attempt of a delivery, if it is due and no other worker holds it. */
  async run(client: SqlClient, organizationId: number, deliveryId: number): Promise<void> {
    const claim = await inTransaction(client, () => this.claim(client, organizationId, deliveryId));
    if (!claim) return;
    const outcome = await this.attempt(claim);
    await inTransaction(client, () => this.record(client, claim, outcome));
  }

  /** Sends one attempt (vetting the target again first). */
  async attempt(claim: ClaimedAttempt): Promise<AttemptOutcome> {
    const url = new URL(claim.url);
    let pinned;
    try {
      pinned = await vetTarget(url, this.deps.resolve, this.deps.settings.allowedPrivateHosts);
    } catch (err) {
      if (!(err instanceof UnsafeTargetError)) throw err;
      return { status: null, body: null, durationMs: 0, error: `target refused: ${err.message}`, retryAfter: undefined };
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'x-webhook-event': claim.eventType,
      'x-webhook-id': claim.eventId,
      'x-webhook-timestamp': String(timestamp),
      'x-webhook-attempt': String(claim.attempt),
      'x-webhook-signature': signPayload(claim.secret, timestamp, claim.body),
    };
    return sendAttempt(url, pinned, headers, claim.body, this.deps.settings.timeoutMs);
  }

  private async claim(client: SqlClient, organizationId: number, deliveryId: number): Promise<ClaimedAttempt | null> {
    const { rows } = await client.query<DeliveryRow>(
      `select d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.event_data, d.event_at, d.status,
              d.attempts, d.max_attempts, coalesce(d.lease_until > now(), false) as leased,
              w.url, w.secret_ciphertext, w.status as endpoint_status, w.deleted_at
         from webhook_delivery d join webhook_endpoint w on w.id = d.webhook_id
        where d.id = $1 and d.organization_id = $2
          for update of d`,
      [deliveryId, organizationId],
    );
    const row = rows[0];
    if (!row || row.status === 'sent' || row.status === 'dead') return null;
    // Judged by the database's clock, the same clock that makes the watchdog job due.
    if (row.status === 'sending' && row.leased) return null;
    if (row.deleted_at || row.endpoint_status !== 1 || !row.secret_ciphertext) {
      await this.finishDead(client, row.id, row.deleted_at ? 'cancelled: the endpoint was deleted' : 'cancelled: the endpoint was paused');
      return null;
    }
    if (row.attempts >= row.max_attempts) {
      await this.finishDead(client, row.id, `attempt ${row.attempts} was interrupted and it was the last`);
      return null;
    }
    const lease = leaseMs(this.deps.settings.timeoutMs);
    await client.query(
      `update webhook_delivery
          set status = 'sending', attempts = attempts + 1, last_attempt_at = now(), next_attempt_at = null,
              lease_until = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
        where id = $1`,
      [row.id, lease],
    );
    // The watchdog: runs when the lease ends unless this attempt moves or removes it first.
    await this.schedule(client, row.organization_id, row.id, lease);
    return {
      deliveryId: row.id,
      organizationId: row.organization_id,
      webhookId: row.webhook_id,
      attempt: row.attempts + 1,
      maxAttempts: row.max_attempts,
      url: row.url,
      secret: this.deps.secrets.open(row.secret_ciphertext),
      body: envelope(row.event_id, row.event_type, row.event_at, row.organization_id, row.event_data),
      eventId: row.event_id,
      eventType: row.event_type,
    };
  }

  private async record(client: SqlClient, claim: ClaimedAttempt, outcome: AttemptOutcome): Promise<void> {
    const { rows } = await client.query<{ status: string; attempts: number }>(
      'select status, attempts from webhook_delivery where id = $1 for update',
      [claim.deliveryId],
    );
    // A worker that outlived its lease finds the delivery taken over (or finished): its result
    // belongs to no current attempt, so it changes nothing.
    if (rows[0]?.status !== 'sending' || rows[0].attempts !== claim.attempt) return;
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const retry = !delivered && isRetryable(outcome.status) && claim.attempt < claim.maxAttempts;
    const delayMs = retry
      ? retryDelayMs(claim.attempt, this.deps.settings, outcome.status === 429 ? parseRetryAfter(outcome.retryAfter) : null)
      : 0;
    const status = delivered ? 'sent' : retry ? 'pending' : 'dead';
    await client.query(
      `update webhook_delivery
          set status = $2::text, response_status = $3, response_body = $4, duration_ms = $5, last_error = $6,
              sent_at = case when $2::text = 'sent' then now() else sent_at end,
              next_attempt_at = case when $2::text = 'pending' then now() + make_interval(secs => $7::double precision / 1000) else null end,
              lease_until = null, updated_at = now()
        where id = $1`,
      [claim.deliveryId, status, outcome.status, outcome.body, outcome.durationMs, outcome.error, delayMs],
    );
    await client.query(
      `update webhook_endpoint
          set last_triggered_at = now(), failure_count = case when $2::boolean then 0 else failure_count + 1 end, updated_at = now()
        where id = $1`,
      [claim.webhookId, delivered],
    );
    if (status === 'pending') {
      await this.schedule(client, claim.organizationId, claim.deliveryId, delayMs);
    } else {
      await client.query('select graphile_worker.remove_job($1)', [deliveryJobKey(claim.deliveryId)]);
    }
  }

  /** Moves the delivery's one job (its key) to `delayMs` from now, creating it if needed. */
  private async schedule(client: SqlClient, organizationId: number, deliveryId: number, delayMs: number): Promise<void> {
    await client.query(
      `select graphile_worker.add_job('deliver_webhook', json_build_object('organizationId', $1::int, 'deliveryId', $2::int),
              run_at := now() + make_interval(secs => $3::double precision / 1000), job_key := $4)`,
      [organizationId, deliveryId, delayMs, deliveryJobKey(deliveryId)],
    );
  }

  private async finishDead(client: SqlClient, deliveryId: number, reason: string): Promise<void> {
    await client.query(
      `update webhook_delivery set status = 'dead', next_attempt_at = null, lease_until = null, last_error = $2, updated_at = now() where id = $1`,
      [deliveryId, reason],
    );
  }
}

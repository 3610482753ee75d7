import { enqueue } from '../../../jobs/enqueue';
import type { SqlClient, WithClient } from '../../db/sql-client';
import { isDelivered, isRetryable, parseRetryAfter, retryDelayMs, type RetrySettings } from './retry-policy';
import { sendAttempt, WEBHOOK_USER_AGENT, type AttemptOutcome } from './webhook-sender';
import { signPayload, type SecretBox } from './webhook-secret';
import { UnsafeTargetError, vetTarget, type HostResolver } from './target-guard';
import { claimAllAsRead, recordAttempts, type AttemptRecord, type ReadDelivery } from './delivery-statements';
import { StatementBatcher } from './statement-batcher';
import { deliveryJobKey } from './delivery-job';
import type { KeepAliveAgents } from './keep-alive-agents';

/** What delivering needs from its surroundings. */
export interface DeliveryDeps {
  settings: RetrySettings & { timeoutMs: number; allowedPrivateHosts: string[] };
  secrets: SecretBox;
  resolve: HostResolver;
  /** Keep-alive connections to endpoints, reused across attempts (see KeepAliveAgents). */
  agents: KeepAliveAgents;
}

/** What the log says of a delivery its endpoint's pause or deletion ended. */
export const cancelledReason = (deleted: boolean) => (deleted ? 'cancelled: the endpoint was deleted' : 'cancelled: the endpoint was paused');

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
  /** Whether a `pending` delivery's next attempt is not due yet (by the database's clock). */
  early: boolean;
  url: string;
  secret_ciphertext: string | null;
  endpoint_status: number;
  deleted_at: Date | null;
}

/** What one HTTP attempt sends, and where. */
export interface AttemptTarget {
  url: string;
  secret: string;
  body: string;
  eventId: string;
  eventType: string;
  /** 1-based. */
  attempt: number;
}

/** An attempt this worker now owns. */
export interface ClaimedAttempt extends AttemptTarget {
  deliveryId: number;
  organizationId: number;
  webhookId: number;
  maxAttempts: number;
}

/** The JSON body of every delivery of an event (the envelope of the interface). */
export function envelope(eventId: string, eventType: string, eventAt: Date, organizationId: number, data: object): string {
  return JSON.stringify({ id: eventId, event: eventType, timestamp: new Date(eventAt).toISOString(), organization_id: organizationId, data });
}

/** A delivery with its endpoint; `leased` and `early` judged by the database's clock. */
const SELECT_DELIVERY = `select d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.event_data, d.event_at, d.status,
              d.attempts, d.max_attempts, coalesce(d.lease_until > now(), false) as leased,
              coalesce(d.next_attempt_at > now(), false) as early,
              w.url, w.secret_ciphertext, w.status as endpoint_status, w.deleted_at
         from webhook_delivery d join webhook_endpoint w on w.id = d.webhook_id and w.organization_id = d.organization_id
        where d.organization_id = $2 and d.id = $1`;

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
  /** Quick claims of concurrent attempts, one statement per batch: whether each was claimed. */
  private readonly claims: StatementBatcher<ReadDelivery, boolean>;
  /** Records of concurrent attempts, one statement per batch. */
  private readonly records: StatementBatcher<AttemptRecord, void>;

  constructor(private readonly deps: DeliveryDeps) {
    const lease = leaseMs(deps.settings.timeoutMs);
    this.claims = new StatementBatcher(
      (read) => read.id,
      async (client, reads) => {
        const claimed = await claimAllAsRead(client, reads, lease);
        return reads.map((read) => claimed.has(read.id));
      },
    );
    const reasons = { paused: cancelledReason(false), deleted: cancelledReason(true) };
    this.records = new StatementBatcher(
      (record) => record.deliveryId,
      async (client, records) => {
        await recordAttempts(client, records, reasons);
        return records.map(() => undefined);
      },
    );
  }

  /**
   * Runs the next attempt of a delivery, if it is due and no other worker holds it. Claiming and
   * recording each borrow a connection; none is held while the HTTP attempt runs.
   */
  async run(withClient: WithClient, organizationId: number, deliveryId: number): Promise<void> {
    const claim =
      (await this.claimQuickly(withClient, organizationId, deliveryId)) ??
      (await withClient((client) => inTransaction(client, () => this.claim(client, organizationId, deliveryId))));
    if (!claim) return;
    const outcome = await this.attempt(claim);
    await this.records.run(withClient, this.recordOf(claim, outcome));
  }

  /** Closes the idle keep-alive connections to endpoints. */
  closeConnections(): void {
    this.deps.agents.close();
  }

  /** Sends one attempt (vetting the target again first). */
  async attempt(target: AttemptTarget): Promise<AttemptOutcome> {
    const url = new URL(target.url);
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
      'x-webhook-event': target.eventType,
      'x-webhook-id': target.eventId,
      'x-webhook-timestamp': String(timestamp),
      'x-webhook-attempt': String(target.attempt),
      'x-webhook-signature': signPayload(target.secret, timestamp, target.body),
    };
    return sendAttempt(url, pinned, headers, target.body, this.deps.settings.timeoutMs, this.deps.agents.agentFor(url, pinned));
  }

  /**
   * The common case without a lock or an explicit transaction: reads the delivery, and when it is
   * a plain due attempt on a live endpoint whose secret opens, claims it (batched with concurrent
   * claims, see StatementBatcher) if it is still as read. Null whenever that does not work out
   * (finished, not due, leased, cancelled, changed meanwhile): the locked claim then decides.
   * Kept for throughput: without it deliveries/s fell by 6–55% in every paired bench round
   * (about 40% in the medians; BENCHMARKS.md, "Webhook claim paths").
   */
  private async claimQuickly(withClient: WithClient, organizationId: number, deliveryId: number): Promise<ClaimedAttempt | null> {
    // The connection goes back before the claim: the batch borrows its own, and a pool of callers
    // each holding one while waiting for the batch could leave it none.
    const { rows } = await withClient((client) => client.query<DeliveryRow>(SELECT_DELIVERY, [deliveryId, organizationId]));
    const row = rows[0];
    if (!row || !row.secret_ciphertext || row.deleted_at || row.endpoint_status !== 1 || row.attempts >= row.max_attempts) return null;
    const due = (row.status === 'pending' && !row.early) || (row.status === 'sending' && !row.leased);
    if (!due) return null;
    let secret: string;
    try {
      secret = this.deps.secrets.open(row.secret_ciphertext);
    } catch {
      return null;
    }
    const read: ReadDelivery = { id: row.id, organizationId: row.organization_id, status: row.status as ReadDelivery['status'], attempts: row.attempts, url: row.url, secretCiphertext: row.secret_ciphertext };
    if (!(await this.claims.run(withClient, read))) return null;
    return this.claimed(row, secret);
  }

  /** The locked claim: finishes deliveries that cannot go on (dead, with the reason) and claims the rest. */
  private async claim(client: SqlClient, organizationId: number, deliveryId: number): Promise<ClaimedAttempt | null> {
    const { rows } = await client.query<DeliveryRow>(`${SELECT_DELIVERY} for update of d`, [deliveryId, organizationId]);
    const row = rows[0];
    if (!row || row.status === 'sent' || row.status === 'dead') return null;
    // Judged by the database's clock, the same clock that makes the watchdog job due.
    if (row.status === 'sending' && row.leased) return null;
    // A job that ran before the back-off ended (a retry scheduled while it was already running):
    // the retry's own job comes at the right time.
    if (row.status === 'pending' && row.early) return null;
    if (row.deleted_at || row.endpoint_status !== 1 || !row.secret_ciphertext) {
      await this.finishDead(client, row, cancelledReason(row.deleted_at !== null));
      return null;
    }
    if (row.attempts >= row.max_attempts) {
      await this.finishDead(client, row, `attempt ${row.attempts} was interrupted and it was the last`);
      return null;
    }
    let secret: string;
    try {
      secret = this.deps.secrets.open(row.secret_ciphertext);
    } catch {
      await this.finishDead(client, row, 'the signing secret cannot be decrypted (was JWT_SECRET changed?): rotate the secret, then redeliver');
      return null;
    }
    const lease = leaseMs(this.deps.settings.timeoutMs);
    await client.query(
      `update webhook_delivery
          set status = 'sending', attempts = attempts + 1, last_attempt_at = now(), next_attempt_at = null,
              lease_until = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
        where organization_id = $3 and id = $1`,
      [row.id, lease, row.organization_id],
    );
    // The watchdog: runs when the lease ends unless this attempt moves or removes it first.
    await this.schedule(client, row.organization_id, row.id, lease);
    return this.claimed(row, secret);
  }

  /** The attempt a claim of `row` (as read before the claim) now owns. */
  private claimed(row: DeliveryRow, secret: string): ClaimedAttempt {
    return {
      deliveryId: row.id,
      organizationId: row.organization_id,
      webhookId: row.webhook_id,
      attempt: row.attempts + 1,
      maxAttempts: row.max_attempts,
      url: row.url,
      secret,
      body: envelope(row.event_id, row.event_type, row.event_at, row.organization_id, row.event_data),
      eventId: row.event_id,
      eventType: row.event_type,
    };
  }

  /** What the record statement needs of an attempt's outcome. */
  private recordOf(claim: ClaimedAttempt, outcome: AttemptOutcome): AttemptRecord {
    const delivered = isDelivered(outcome.status);
    const wouldRetry = !delivered && isRetryable(outcome.status) && claim.attempt < claim.maxAttempts;
    return {
      deliveryId: claim.deliveryId,
      organizationId: claim.organizationId,
      attempt: claim.attempt,
      // With a retry due, the statement decides between it and cancellation (the endpoint paused or deleted during the attempt).
      finalStatus: delivered ? 'sent' : wouldRetry ? null : 'dead',
      delivered,
      responseStatus: outcome.status,
      responseBody: outcome.body,
      durationMs: outcome.durationMs,
      error: outcome.error,
      retryDelayMs: wouldRetry
        ? retryDelayMs(claim.attempt, this.deps.settings, outcome.status === 429 ? parseRetryAfter(outcome.retryAfter) : null)
        : 0,
    };
  }

  /** Moves the delivery's one job (its key) to `delayMs` from now, creating it if needed. */
  private async schedule(client: SqlClient, organizationId: number, deliveryId: number, delayMs: number): Promise<void> {
    await enqueue(client, 'deliver_webhook', { organizationId, deliveryId }, { delayMs, jobKey: deliveryJobKey(deliveryId) });
  }

  private async finishDead(client: SqlClient, delivery: { id: number; organization_id: number }, reason: string): Promise<void> {
    await client.query(
      `update webhook_delivery set status = 'dead', next_attempt_at = null, lease_until = null, last_error = $2, updated_at = now() where organization_id = $3 and id = $1`,
      [delivery.id, reason, delivery.organization_id],
    );
  }
}

import type { SqlClient } from './delivery-engine';

/*
 * The statements of the common delivery path. Each is a single statement in its own implicit
 * transaction (one round trip, one commit) where the locked path needs a transaction of five or
 * six. They decide nothing the locked path would decide differently: the claim only takes a
 * delivery still exactly as the caller read it, and anything else is left to the locked path.
 */

/** Statuses a delivery holds between attempts (`pending`) or during one (`sending`). */
export type OpenStatus = 'pending' | 'sending';

/** What the quick claim compares against: the delivery and endpoint as read just before. */
export interface ReadDelivery {
  id: number;
  status: OpenStatus;
  attempts: number;
  url: string;
  secretCiphertext: string;
}

/**
 * Claims a delivery in one statement: marks it `sending` under a lease and moves its job key to a
 * watchdog job due when the lease ends (add_job in a CTE, so both commit together). Takes it only
 * if it is still in the state read (same status, attempts, URL and secret), due by the database's
 * clock, not held under a running lease, and its endpoint is live. True if it was claimed.
 */
export async function claimAsRead(client: SqlClient, read: ReadDelivery, leaseMs: number, jobKey: string): Promise<boolean> {
  const { rows } = await client.query(
    `with claimed as (
       update webhook_delivery d
          set status = 'sending', attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = null,
              lease_until = now() + make_interval(secs => $4::double precision / 1000), updated_at = now()
         from webhook_endpoint w
        where d.id = $1 and d.status = $2::text and d.attempts = $3 and d.attempts < d.max_attempts
          and w.id = d.webhook_id and w.status = 1 and w.deleted_at is null
          and w.secret_ciphertext = $5 and w.url = $6
          and case d.status when 'pending' then coalesce(d.next_attempt_at <= now(), true)
                            else coalesce(d.lease_until <= now(), true) end
       returning d.id, d.organization_id)
     select j.id
       from claimed c,
            lateral graphile_worker.add_job('deliver_webhook', json_build_object('organizationId', c.organization_id, 'deliveryId', c.id),
                      run_at := now() + make_interval(secs => $4::double precision / 1000), job_key := $7::text) j`,
    [read.id, read.status, read.attempts, leaseMs, read.secretCiphertext, read.url, jobKey],
  );
  return rows.length === 1;
}

/** How an attempt ended, as the record statement needs it. */
export interface AttemptRecord {
  deliveryId: number;
  /** The attempt number the worker claimed: a delivery taken over since (another attempt) is left alone. */
  attempt: number;
  /** `sent` or `dead` when no retry is due whatever the endpoint's state; null when a retry is due if the endpoint is still live. */
  finalStatus: 'sent' | 'dead' | null;
  delivered: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
  /** Back-off before the retry (used only when one is scheduled). */
  retryDelayMs: number;
  /** last_error when a retry was due but the endpoint was paused or deleted meanwhile. */
  pausedReason: string;
  deletedReason: string;
  jobKey: string;
}

/**
 * Records an attempt in one statement: the delivery (retry scheduled only while its endpoint is
 * live, otherwise dead with the cancellation as the reason), the endpoint's counters, and the
 * delivery's job (moved to the retry, or removed). Nothing happens unless the delivery is still
 * `sending` the attempt this worker claimed: a worker that outlived its lease records nothing.
 */
export async function recordAttempt(client: SqlClient, r: AttemptRecord): Promise<void> {
  await client.query(
    `with decided as (
       select d.id, d.webhook_id, d.organization_id,
              case when $3::text is not null then $3::text
                   when w.status = 1 and w.deleted_at is null then 'pending'
                   else 'dead' end as status,
              case when $3::text is not null or (w.status = 1 and w.deleted_at is null) then $8::text
                   when w.deleted_at is not null then $11::text
                   else $10::text end as error
         from webhook_delivery d join webhook_endpoint w on w.id = d.webhook_id
        where d.id = $1 and d.status = 'sending' and d.attempts = $2
          for update of d),
     recorded as (
       update webhook_delivery d
          set status = x.status, response_status = $5, response_body = $6, duration_ms = $7, last_error = x.error,
              sent_at = case when x.status = 'sent' then now() else d.sent_at end,
              next_attempt_at = case when x.status = 'pending' then now() + make_interval(secs => $9::double precision / 1000) end,
              lease_until = null, updated_at = now()
         from decided x
        where d.id = x.id
       returning d.id, d.organization_id, d.webhook_id, d.status, d.next_attempt_at),
     counted as (
       update webhook_endpoint w
          set last_triggered_at = now(), failure_count = case when $4::boolean then 0 else w.failure_count + 1 end, updated_at = now()
         from recorded r
        where w.id = r.webhook_id
       returning w.id),
     moved as (
       select j.id from recorded r,
              lateral graphile_worker.add_job('deliver_webhook', json_build_object('organizationId', r.organization_id, 'deliveryId', r.id),
                        run_at := r.next_attempt_at, job_key := $12::text) j
        where r.status = 'pending'),
     removed as (
       select graphile_worker.remove_job($12::text) from recorded r where r.status <> 'pending')
     select (select count(*) from counted) + (select count(*) from moved) + (select count(*) from removed) as done`,
    [
      r.deliveryId,
      r.attempt,
      r.finalStatus,
      r.delivered,
      r.responseStatus,
      r.responseBody,
      r.durationMs,
      r.error,
      r.retryDelayMs,
      r.pausedReason,
      r.deletedReason,
      r.jobKey,
    ],
  );
}

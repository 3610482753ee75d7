import type { SqlClient } from '../../db/sql-client';
import { raw, sql, type Sql } from '../../db/tenant-sql';
import { DELIVERY_JOB_KEY_PREFIX, deliveryJobOf } from './delivery-job';
import { liveEndpoint } from './live-endpoint';

/*
 * The statements of the common delivery path. Each is a single statement in its own implicit
 * transaction (one round trip, one commit) where the locked path needs a transaction of five or
 * six. They decide nothing the locked path would decide differently: the claim only takes a
 * delivery still exactly as the caller read it, and anything else is left to the locked path.
 *
 * They serve deliveries of many workspaces in one batch, so they are not built by tenant-sql.ts
 * (which binds one organization): each delivery is named by its organization and id, and every
 * join matches organization_id by hand.
 */

/** Statuses a delivery holds between attempts (`pending`) or during one (`sending`). */
export type OpenStatus = 'pending' | 'sending';

/** What the quick claim compares against: the delivery and endpoint as read just before. */
export interface ReadDelivery {
  id: number;
  organizationId: number;
  status: OpenStatus;
  attempts: number;
  url: string;
  secretCiphertext: string;
}

/**
 * Claims deliveries in one statement: marks each `sending` under a lease and moves its job key to
 * a watchdog job due when the lease ends (add_job in the same statement, so both commit
 * together). Takes a delivery only if it is still in the state read (same status, attempts, URL
 * and secret), due by the database's clock, not held under a running lease, and its endpoint is
 * live. The ids of `reads` must be distinct. Returns the ids claimed.
 */
export async function claimAllAsRead(client: SqlClient, reads: ReadDelivery[], leaseMs: number): Promise<Set<number>> {
  const leaseEnd = sql`now() + make_interval(secs => ${leaseMs}::double precision / 1000)`;
  const { rows } = await run<{ id: number }>(
    client,
    sql`with wanted as (
       select * from unnest(${reads.map((r) => r.id)}::int[], ${reads.map((r) => r.status)}::text[], ${reads.map((r) => r.attempts)}::int[],
                            ${reads.map((r) => r.secretCiphertext)}::text[], ${reads.map((r) => r.url)}::text[], ${reads.map((r) => r.organizationId)}::int[])
              as t(id, status, attempts, secret_ciphertext, url, organization_id)),
     claimed as (
       update webhook_delivery d
          set status = 'sending', attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = null,
              lease_until = ${leaseEnd}, updated_at = now()
         from wanted t, webhook_endpoint w
        where d.organization_id = t.organization_id and d.id = t.id and d.status = t.status and d.attempts = t.attempts and d.attempts < d.max_attempts
          and w.organization_id = d.organization_id and w.id = d.webhook_id and ${liveEndpoint('w')}
          and w.secret_ciphertext = t.secret_ciphertext and w.url = t.url
          and case d.status when 'pending' then coalesce(d.next_attempt_at <= now(), true)
                            else coalesce(d.lease_until <= now(), true) end
       returning d.id, d.organization_id)
     select c.id from claimed c, lateral ${deliveryJobOf('c', leaseEnd)} j`,
  );
  return new Set(rows.map((r) => r.id));
}

/** How an attempt ended, as the record statement needs it. */
export interface AttemptRecord {
  deliveryId: number;
  organizationId: number;
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
}

/** last_error of a delivery whose retry was due but whose endpoint was paused or deleted meanwhile. */
export interface CancelReasons {
  paused: string;
  deleted: string;
}

/**
 * Records attempts in one statement: each delivery (retry scheduled only while its endpoint is
 * live, otherwise dead with the cancellation as the reason), its endpoint's counters, and its job
 * (moved to the retry, or removed). A delivery is recorded only if it is still `sending` the
 * attempt its worker claimed: a worker that outlived its lease records nothing. Rows are locked in
 * id order (no deadlock between two workers' batches). An endpoint with several attempts in the
 * batch ends as if they were recorded one by one in the given order: failure_count counts the
 * failures after the last success, or adds them all when none succeeded. Delivery ids must be distinct.
 *
 * A finished delivery's watchdog goes with `complete_jobs` (deletes it unless a worker has it
 * locked, as remove_job's delete does) rather than remove_job, which also sends a NOTIFY (see
 * StatementBatcher for what that costs). If a worker already holds the watchdog (the lease ran out
 * just before this record), it finds the delivery finished and does nothing.
 */
export async function recordAttempts(client: SqlClient, records: AttemptRecord[], reasons: CancelReasons): Promise<void> {
  const column = <K extends keyof AttemptRecord>(key: K) => records.map((r) => r[key]);
  await run(
    client,
    sql`with given as (
       select * from unnest(${column('deliveryId')}::int[], ${column('attempt')}::int[], ${column('finalStatus')}::text[], ${column('delivered')}::boolean[],
                            ${column('responseStatus')}::int[], ${column('responseBody')}::text[], ${column('durationMs')}::int[], ${column('error')}::text[],
                            ${column('retryDelayMs')}::double precision[], ${column('organizationId')}::int[])
              with ordinality as g(delivery_id, attempt, final_status, delivered, response_status, response_body, duration_ms, error, retry_delay_ms, organization_id, ord)),
     decided as (
       select d.organization_id, d.id, g.ord, g.delivered, g.response_status, g.response_body, g.duration_ms, g.retry_delay_ms,
              case when g.final_status is not null then g.final_status
                   when ${liveEndpoint('w')} then 'pending'
                   else 'dead' end as status,
              case when g.final_status is not null or (${liveEndpoint('w')}) then g.error
                   when w.deleted_at is not null then ${reasons.deleted}::text
                   else ${reasons.paused}::text end as error
         from given g
         join webhook_delivery d on d.organization_id = g.organization_id and d.id = g.delivery_id
         join webhook_endpoint w on w.organization_id = d.organization_id and w.id = d.webhook_id
        where d.status = 'sending' and d.attempts = g.attempt
        order by d.id
          for update of d),
     recorded as (
       update webhook_delivery d
          set status = x.status, response_status = x.response_status, response_body = x.response_body, duration_ms = x.duration_ms,
              last_error = x.error,
              sent_at = case when x.status = 'sent' then now() else d.sent_at end,
              next_attempt_at = case when x.status = 'pending' then now() + make_interval(secs => x.retry_delay_ms / 1000) end,
              lease_until = null, updated_at = now()
         from decided x
        where d.organization_id = x.organization_id and d.id = x.id
       returning d.id, d.organization_id, d.webhook_id, d.status, d.next_attempt_at, x.ord, x.delivered),
     per_endpoint as (
       select organization_id, webhook_id, count(*) as attempts, max(ord) filter (where delivered) as last_success,
              count(*) filter (where not delivered) as failures
         from recorded group by organization_id, webhook_id),
     counted as (
       update webhook_endpoint w
          set last_triggered_at = now(), updated_at = now(),
              failure_count = case when e.last_success is null then w.failure_count + e.failures
                                   else (select count(*) from recorded r
                                          where r.organization_id = e.organization_id and r.webhook_id = e.webhook_id and not r.delivered and r.ord > e.last_success) end
         from per_endpoint e
        where w.organization_id = e.organization_id and w.id = e.webhook_id
       returning w.id),
     moved as (
       select j.id from recorded r, lateral ${deliveryJobOf('r', raw('r.next_attempt_at'))} j
        where r.status = 'pending'),
     removed as (
       select graphile_worker.complete_jobs(array(
                select j.id from graphile_worker.jobs j join recorded r on j.key = ${DELIVERY_JOB_KEY_PREFIX}::text || r.id where r.status <> 'pending')))
     select (select count(*) from counted) + (select count(*) from moved) + (select count(*) from removed) as done`,
  );
}

/** Runs a statement built with sql\`…\` on a pg client. */
function run<R>(client: SqlClient, statement: Sql): Promise<{ rows: R[] }> {
  return client.query<R>(statement.pgText, [...statement.values]);
}

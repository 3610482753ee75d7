import { addJobFor } from '../../../jobs/enqueue';
import { raw, sql, type Sql } from '../../db/tenant-sql';

/*
 * The one deliver_webhook job of each delivery, shared by the producer (webhook-event-queue.ts),
 * the redelivery (webhook.service.ts) and the delivery engine's statements, none of which import
 * each other for it.
 */

/** Job keys of deliveries are this and the delivery id. */
export const DELIVERY_JOB_KEY_PREFIX = 'webhook-delivery-';

/** The graphile-worker job key of a delivery: at most one job per delivery is waiting. */
export const deliveryJobKey = (deliveryId: number) => `${DELIVERY_JOB_KEY_PREFIX}${deliveryId}`;

/**
 * The add_job call of the delivery job of each row of `alias` (its columns `organization_id` and
 * `id` are the delivery's), under the delivery's job key: it replaces the delivery's waiting job,
 * if any. Runs at `runAt` (at once when omitted).
 */
export function deliveryJobOf(alias: string, runAt?: Sql): Sql {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`not a table alias: ${alias}`);
  return addJobFor(
    'deliver_webhook',
    { organizationId: raw(`${alias}.organization_id`), deliveryId: raw(`${alias}.id`) },
    { runAt, jobKey: sql`${DELIVERY_JOB_KEY_PREFIX}::text || ${raw(alias)}.id` },
  );
}

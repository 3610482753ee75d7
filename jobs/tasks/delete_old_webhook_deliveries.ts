import type { Task } from 'graphile-worker';
import { defineTask } from '../define-task';

/** Finished deliveries (sent or dead) are kept this long in the delivery log. */
export const DELIVERY_RETENTION_DAYS = 30;

/** Daily clean-up of the delivery log: finished deliveries older than 30 days. Idempotent. */
export const delete_old_webhook_deliveries: Task = defineTask('delete_old_webhook_deliveries', async (_payload, helpers) => {
  const deleted = await helpers.query(
    `delete from webhook_delivery where status in ('sent', 'dead') and created_at < now() - make_interval(days => $1)`,
    [DELIVERY_RETENTION_DAYS],
  );
  helpers.logger.info(`Deleted ${deleted.rowCount ?? 0} webhook deliveries older than ${DELIVERY_RETENTION_DAYS} days`);
});

import type { Task } from 'graphile-worker';
import { defineTask } from '../define-task';

/** Positions one statement deletes: short transactions, so the day's inserts never wait long on them. */
export const POSITION_DELETE_BATCH = 5_000;

/**
 * Daily clean-up of live tracking: positions recorded before each workspace's retention
 * (workspace_config.position_retention_days, default 90 days) are deleted, in batches of 5,000.
 * Each batch finds its rows per user through the (organization_id, user_id, recorded_at) index
 * (a lateral probe per user, oldest first), so it reads what it deletes rather than the table.
 * Maintenance across all workspaces, so plain SQL without a tenant, every join matched on
 * organization_id; idempotent, so a repeated run changes nothing.
 */
export const delete_old_positions: Task = defineTask('delete_old_positions', async (_payload, helpers) => {
  let total = 0;
  for (;;) {
    const deleted = await helpers.query(
      `with old as (
         select p.organization_id, p.id
         from workspace_config c
         join app_user u on u.organization_id = c.organization_id
         cross join lateral (
           select p.organization_id, p.id from user_position p
           where p.organization_id = u.organization_id and p.user_id = u.id
             and p.recorded_at < now() - make_interval(days => c.position_retention_days)
           order by p.recorded_at
           limit $1
         ) p
         limit $1
       )
       delete from user_position d using old where d.organization_id = old.organization_id and d.id = old.id`,
      [POSITION_DELETE_BATCH],
    );
    const count = deleted.rowCount ?? 0;
    total += count;
    if (count < POSITION_DELETE_BATCH) break;
  }
  helpers.logger.info(`Deleted ${total} positions past their workspace's retention`);
});

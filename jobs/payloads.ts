import { z } from 'zod';

/*
 * Every task the worker runs and the payload it takes: the one table that producers (enqueue,
 * addJobFor) and tasks (defineTask) check against. Adding a task is a line here, its file in
 * tasks/ and its line in tasks/index.ts (the type of createTasks refuses a task missing from
 * either side).
 */

const id = z.number().int().positive();

/**
 * What graphile-worker gives a cron task (`_cron`: the slot's time, and whether it is a backfill);
 * the same tasks queued by hand (tests, an operator's add_job) come with `{}`.
 */
const cronPayload = z.object({ _cron: z.object({ ts: z.string(), backfilled: z.boolean().optional() }).optional() });

/** Task identifier → the schema of its payload. Tenant work carries its organization id. */
export const TASK_PAYLOADS = {
  /** One attempt of one webhook delivery. */
  deliver_webhook: z.object({ organizationId: id, deliveryId: id }),
  /** The push of one notification to its user's live device tokens (queued by notify, at the end of quiet hours). */
  send_push: z.object({ organizationId: id, notificationId: id }),
  /** Writes one export job's file. */
  run_export: z.object({ organizationId: id, exportJobId: id }),
  /** Checks and writes one queued import. */
  run_import: z.object({ organizationId: id, importJobId: id }),
  /** Cron (jobs/crontab.ts): maintenance across all workspaces, no tenant. */
  delete_expired_exports: cronPayload,
  delete_expired_sign_in_codes: cronPayload,
  delete_old_webhook_deliveries: cronPayload,
  delete_old_positions: cronPayload,
  /** Hourly: freezes today's beat plan day instances of every workspace whose local day has started. */
  materialise_beat_plan_days: cronPayload,
  /** Every 15 minutes: applies the price versions that came due (each workspace's local day) to their variants. */
  apply_due_prices: cronPayload,
  /** Every 15 minutes: warns the assignees of grievances within 4 hours of an SLA deadline, once per deadline. */
  warn_grievance_breaches: cronPayload,
  announce_started_schemes: cronPayload,
} as const satisfies Record<string, z.ZodType>;

/** The identifier of a task the worker runs. */
export type TaskName = keyof typeof TASK_PAYLOADS;

/** The payload of task `T`, as its schema parses it. */
export type PayloadOf<T extends TaskName> = z.infer<(typeof TASK_PAYLOADS)[T]>;

/** Whether `name` is a task of the table (for names that come from outside the type system, e.g. the crontab). */
export function isTaskName(name: string): name is TaskName {
  return Object.hasOwn(TASK_PAYLOADS, name);
}

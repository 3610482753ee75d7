import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task, TaskList } from 'graphile-worker';
import type { ExportJobService } from '../../src/domains/exports/export-jobs';
import type { DeliveryEngine } from '../../src/domains/webhooks/delivery-engine';
import type { Slots } from '../../src/concurrency/slots';
import type { TaskName } from '../payloads';
import { applyDuePrices } from './apply_due_prices';
import { delete_expired_sign_in_codes } from './delete_expired_sign_in_codes';
import { deleteExpiredExports } from './delete_expired_exports';
import { delete_old_positions } from './delete_old_positions';
import { delete_old_webhook_deliveries } from './delete_old_webhook_deliveries';
import { deliverWebhook } from './deliver_webhook';
import { materialiseBeatPlanDays } from './materialise_beat_plan_days';
import { runExport } from './run_export';
import { runImport } from './run_import';
import { warnGrievanceBreaches } from './warn_grievance_breaches';
import { announceStartedSchemesTask } from './announce_started_schemes';
import { sendPush } from './send_push';
import type { PushSender } from '../../src/domains/notifications/push-sender';
import type { ImportService } from '../../src/domains/imports/import.service';

/** What tasks need from the process that runs them. */
export interface TaskDeps {
  webhooks: DeliveryEngine;
  exportJobs: ExportJobService;
  /** Export jobs this process writes at once (each holds a pooled connection for its cursor). */
  exportSlots: Slots;
  imports: ImportService;
  /** Sends notifications' pushes through PUSH_TRANSPORT. */
  push: PushSender;
  orm: MikroORM;
}

/** Every task of the task table (payloads.ts), keyed by its identifier (= its file name in this folder). */
export function createTasks(deps: TaskDeps): TaskList {
  const tasks: Record<TaskName, Task> = {
    apply_due_prices: applyDuePrices(deps.orm),
    delete_expired_exports: deleteExpiredExports(deps.exportJobs, deps.orm),
    delete_expired_sign_in_codes,
    delete_old_positions,
    delete_old_webhook_deliveries,
    deliver_webhook: deliverWebhook(deps.webhooks),
    materialise_beat_plan_days: materialiseBeatPlanDays(deps.orm),
    run_export: runExport(deps.exportJobs, deps.exportSlots, deps.orm),
    run_import: runImport(deps.imports, deps.exportSlots, deps.orm),
    warn_grievance_breaches: warnGrievanceBreaches(deps.orm),
    announce_started_schemes: announceStartedSchemesTask(deps.orm),
    send_push: sendPush(deps.push),
  };
  return tasks;
}

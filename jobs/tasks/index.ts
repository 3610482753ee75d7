import type { TaskList } from 'graphile-worker';
import type { DeliveryEngine } from '../../src/domains/webhooks/delivery-engine';
import { delete_expired_sign_in_codes } from './delete_expired_sign_in_codes';
import { delete_old_webhook_deliveries } from './delete_old_webhook_deliveries';
import { deliverWebhook } from './deliver_webhook';

/** What tasks need from the process that runs them. */
export interface TaskDeps {
  webhooks: DeliveryEngine;
}

/** Every task the worker runs, keyed by its identifier (= its file name in this folder). */
export function createTasks(deps: TaskDeps): TaskList {
  return {
    delete_expired_sign_in_codes,
    delete_old_webhook_deliveries,
    deliver_webhook: deliverWebhook(deps.webhooks),
  };
}

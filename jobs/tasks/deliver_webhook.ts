import type { Task } from 'graphile-worker';
import type { DeliveryEngine } from '../../src/domains/webhooks/delivery-engine';
import { defineTask } from '../define-task';

/**
 * One attempt of one webhook delivery (payload `{organizationId, deliveryId}`). Idempotent: a
 * delivery that is finished, not yet due or held by another worker is left alone. Retries are
 * scheduled by the engine as new runs of this task, not by graphile-worker's own retry.
 */
export const deliverWebhook = (engine: DeliveryEngine): Task =>
  defineTask('deliver_webhook', (payload, helpers) => engine.run((work) => helpers.withPgClient(work), payload.organizationId, payload.deliveryId));

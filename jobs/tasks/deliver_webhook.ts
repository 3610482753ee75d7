import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { DeliveryEngine } from '../../src/domains/webhooks/delivery-engine';

const Payload = z.object({ organizationId: z.number().int().positive(), deliveryId: z.number().int().positive() });

/**
 * One attempt of one webhook delivery (payload `{organizationId, deliveryId}`). Idempotent: a
 * delivery that is finished, not yet due or held by another worker is left alone. Retries are
 * scheduled by the engine as new runs of this task, not by graphile-worker's own retry.
 */
export const deliverWebhook = (engine: DeliveryEngine): Task => async (payload, helpers) => {
  const parsed = Payload.safeParse(payload);
  if (!parsed.success) {
    helpers.logger.error(`deliver_webhook: malformed payload ${JSON.stringify(payload)}; dropped`);
    return;
  }
  await engine.run((work) => helpers.withPgClient(work), parsed.data.organizationId, parsed.data.deliveryId);
};

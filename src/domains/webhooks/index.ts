import { defineDomain } from '../domain-module';
import { DeliveryEngine } from './delivery-engine';
import { deliveryDepsOf } from './delivery-deps';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEventQueue } from './webhook-event-queue';
import { WebhookResolver } from './webhook.resolver';
import { WebhookService } from './webhook.service';

declare module '../domain-module' {
  interface Services {
    /** Where other domains emit their events, in the transaction of the change. */
    webhookEvents: WebhookEventQueue;
    webhooks: WebhookService;
  }
}

/** Webhook endpoints, their signed deliveries and the delivery log. */
export const webhooksDomain = defineDomain({
  name: 'webhooks',
  entities: [WebhookEndpoint, WebhookDelivery],
  services: ({ config, secrets, resolveHost, catalog }) => {
    const deliveryDeps = deliveryDepsOf(config, secrets, resolveHost);
    return {
      webhookEvents: new WebhookEventQueue(config.webhook.maxAttempts),
      webhooks: new WebhookService(deliveryDeps, new DeliveryEngine(deliveryDeps), catalog.webhookEvents),
    };
  },
  resolvers: [WebhookResolver],
  routeGroups: { developer: 'refused' },
  // Daily at 03:41 UTC.
  cron: [{ task: 'delete_old_webhook_deliveries', match: '41 3 * * *', identifier: 'delete_old_webhook_deliveries' }],
});

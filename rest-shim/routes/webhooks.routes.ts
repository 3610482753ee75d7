import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DELIVERY_LIMIT } from '../../src/domains/webhooks/webhook.service';
import { DELIVERY_STATUSES } from '../../src/domains/webhooks/webhook-delivery.entity';
import { changed, created, ok } from '../envelope';
import {
  CreatedWebhookBody,
  DeliveryBody,
  presentCreatedWebhook,
  presentDelivery,
  presentTestDelivery,
  presentUpdatedWebhook,
  presentWebhook,
  TestDeliveryBody,
  UpdatedWebhookBody,
  WebhookBody,
} from '../presenters/webhook.presenter';
import { changedResponse, createdResponse, ErrorBody, ServerErrorBody, IdParams, okResponse } from '../schemas';

/** A subscription, described with the events the domains emit; room for each named twice (a repeat is not an error). */
const eventsOf = (supported: readonly string[]) =>
  Type.Union([Type.Array(Type.String({ maxLength: 60 }), { maxItems: 2 * supported.length }), Type.String({ maxLength: 2 * (supported.join(', ').length + 1) })], {
    description: `Array or comma-separated string of: ${supported.join(', ')}`,
  });

const DeliveryQuery = Type.Object({
  webhook_id: Type.Optional(Type.Integer({ minimum: 1 })),
  status: Type.Optional(Type.String({ enum: [...DELIVERY_STATUSES] })),
  limit: Type.Optional(Type.Integer({ minimum: DELIVERY_LIMIT.min, maximum: DELIVERY_LIMIT.max, default: DELIVERY_LIMIT.default })),
});

/** /developer/webhooks and the delivery log: admin sessions only. */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Webhooks'];
  const Events = eventsOf(app.services.webhooks.supportedEvents);
  const CreateWebhookBody = Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'https:// URL resolving only to public addresses' }),
    events: Type.Optional(Events),
  });

  const UpdateWebhookBody = Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
      events: Type.Optional(Events),
      status: Type.Optional(Type.Integer({ enum: [0, 1], description: '1 delivers, 0 paused' })),
    },
    { minProperties: 1 },
  );

  app.get(
    '/developer/webhooks',
    {
      schema: {
        tags,
        summary: 'Webhook endpoints (no secrets) and the events they can subscribe to',
        response: {
          200: Type.Object({ response_code: Type.Integer(), data: Type.Array(WebhookBody), supported_events: Type.Array(Type.String()) }),
          '4xx': ErrorBody,
          '5xx': ServerErrorBody,
        },
      },
    },
    async (request) => ({
      ...ok((await app.services.webhooks.list(request.ctx)).map(presentWebhook)),
      supported_events: [...app.services.webhooks.supportedEvents],
    }),
  );

  app.post(
    '/developer/webhooks',
    { schema: { tags, summary: 'Register an endpoint; the signing secret is in this answer only', body: CreateWebhookBody, response: createdResponse(CreatedWebhookBody) } },
    async (request, reply) => {
      const { endpoint, secret } = await app.services.webhooks.create(request.ctx, request.body);
      return reply.code(201).send(created('Webhook created; store the secret now, it is not shown again', presentCreatedWebhook(endpoint, secret)));
    },
  );

  app.put(
    '/developer/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Change an endpoint; omitted fields stay. Status 0 pauses and cancels queued deliveries',
        params: IdParams,
        body: UpdateWebhookBody,
        response: changedResponse(UpdatedWebhookBody),
      },
    },
    async (request) => {
      const endpoint = await app.services.webhooks.update(request.ctx, request.params.id, request.body);
      return changed('Webhook updated', presentUpdatedWebhook(endpoint));
    },
  );

  app.delete(
    '/developer/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete an endpoint: queued deliveries are cancelled, the secret discarded, the log kept',
        params: IdParams,
        response: { 200: Type.Object({ response_code: Type.Integer(), message: Type.String() }), '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request) => {
      await app.services.webhooks.remove(request.ctx, request.params.id);
      return { response_code: 200, message: 'Webhook deleted' };
    },
  );

  app.post(
    '/developer/webhooks/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'A new signing secret, used from the next attempt on (no grace period)',
        params: IdParams,
        response: okResponse(Type.Object({ id: Type.Integer(), secret: Type.String() })),
      },
    },
    async (request) => {
      const { endpoint, secret } = await app.services.webhooks.rotateSecret(request.ctx, request.params.id);
      return ok({ id: endpoint.id, secret });
    },
  );

  app.post(
    '/developer/webhooks/:id/test',
    {
      schema: {
        tags,
        summary: 'Send a webhook.test event now, once; a failed delivery is reported in the body (200)',
        params: IdParams,
        response: okResponse(TestDeliveryBody),
      },
    },
    async (request) => ok(presentTestDelivery(await app.services.webhooks.test(request.ctx, request.params.id))),
  );

  app.get(
    '/developer/webhook-deliveries',
    { schema: { tags, summary: 'The delivery log, newest first', querystring: DeliveryQuery, response: okResponse(Type.Array(DeliveryBody)) } },
    async (request) => {
      const q = request.query;
      const deliveries = await app.services.webhooks.deliveries(request.ctx, { webhookId: q.webhook_id, status: q.status, limit: q.limit });
      return ok(deliveries.map(presentDelivery));
    },
  );

  app.post(
    '/developer/webhook-deliveries/:id/redeliver',
    {
      schema: {
        tags,
        summary: 'Queue a new delivery of a dead delivery’s event (same event_id, attempts from 1) (extension)',
        params: IdParams,
        response: createdResponse(DeliveryBody),
      },
    },
    async (request, reply) => {
      const delivery = await app.services.webhooks.redeliver(request.ctx, request.params.id);
      return reply.code(201).send(created('Redelivery queued', presentDelivery(delivery)));
    },
  );
};

import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { TestDeliveryResult } from '../../src/domains/webhooks/webhook.service';
import type { WebhookDelivery } from '../../src/domains/webhooks/webhook-delivery.entity';
import type { WebhookEndpoint } from '../../src/domains/webhooks/webhook-endpoint.entity';
import { Nullable, Timestamp } from '../schemas';

/** A webhook endpoint in lists (never the secret). */
export const WebhookBody = Type.Object({
  id: Type.Integer(),
  organization_id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  events: Type.String({ description: 'Comma-separated event names' }),
  status: Type.Integer({ description: '1 delivers, 0 paused' }),
  last_triggered_at: Nullable(Timestamp),
  failure_count: Type.Integer(),
  created_at: Timestamp,
});

/** A new endpoint: the only answer, with rotation, that carries the secret. */
export const CreatedWebhookBody = Type.Object({
  id: Type.Integer(),
  organization_id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  secret: Type.String({ description: 'whsec_ and 64 hex characters; the HMAC-SHA256 key. Shown only now.' }),
  events: Type.String(),
  status: Type.Integer(),
  failure_count: Type.Integer(),
});

export const UpdatedWebhookBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  events: Type.String(),
  status: Type.Integer(),
});

export const DeliveryBody = Type.Object({
  id: Type.Integer(),
  webhook_id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.String({ description: 'pending, sending, sent or dead' }),
  attempts: Type.Integer(),
  max_attempts: Type.Integer(),
  next_attempt_at: Nullable(Timestamp),
  last_attempt_at: Nullable(Timestamp),
  sent_at: Nullable(Timestamp),
  response_status: Nullable(Type.Integer()),
  response_body: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Timestamp,
});

export const TestDeliveryBody = Type.Object({
  delivered: Type.Boolean(),
  event_id: Type.String(),
  response_status: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String({ description: 'Why the delivery failed (extension)' })),
});

/** An endpoint in lists (never its secret). */
export function presentWebhook(w: Row<WebhookEndpoint>) {
  return {
    id: w.id,
    organization_id: w.organizationId,
    name: w.name,
    url: w.url,
    events: w.events,
    status: w.status,
    last_triggered_at: w.lastTriggeredAt,
    failure_count: w.failureCount,
    created_at: w.createdAt,
  };
}

/** A new endpoint, with its secret. */
export function presentCreatedWebhook(w: Row<WebhookEndpoint>, secret: string) {
  return { id: w.id, organization_id: w.organizationId, name: w.name, url: w.url, secret, events: w.events, status: w.status, failure_count: w.failureCount };
}

/** A changed endpoint. */
export function presentUpdatedWebhook(w: Row<WebhookEndpoint>) {
  return { id: w.id, name: w.name, url: w.url, events: w.events, status: w.status };
}

/** A delivery of the log. */
export function presentDelivery(d: Row<WebhookDelivery>) {
  return {
    id: d.id,
    webhook_id: d.webhookId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    max_attempts: d.maxAttempts,
    next_attempt_at: d.nextAttemptAt,
    last_attempt_at: d.lastAttemptAt,
    sent_at: d.sentAt,
    response_status: d.responseStatus,
    response_body: d.responseBody,
    duration_ms: d.durationMs,
    last_error: d.lastError,
    created_at: d.createdAt,
  };
}

/** The outcome of a test event. */
export function presentTestDelivery(r: TestDeliveryResult) {
  return { delivered: r.delivered, event_id: r.eventId, response_status: r.responseStatus, duration_ms: r.durationMs, error: r.error };
}

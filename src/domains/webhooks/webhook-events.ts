import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../errors/app-error';

/** Events an endpoint may subscribe to. */
export const WEBHOOK_EVENTS = ['order.created', 'order.delivered', 'user.created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** An id for a new event: `evt_` and 24 hex characters. */
export const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;

/** Sent by the test endpoint whatever the subscription; cannot be subscribed to, never retried. */
export const TEST_EVENT = 'webhook.test';

/** Subscription of an endpoint created without `events`. */
export const DEFAULT_EVENTS = 'order.created,order.delivered';

/**
 * Checks a subscription given as an array or a comma-separated string and returns its canonical
 * spelling (the supported order, no duplicates). Unknown events, `webhook.test` and an empty
 * list are a 400.
 */
export function normalizeEvents(field: string, value: string | string[]): string {
  const names = (Array.isArray(value) ? value : value.split(',')).map((e) => e.trim());
  if (names.every((e) => e === '')) throw new ValidationError(field, `must name at least one event: ${WEBHOOK_EVENTS.join(', ')}`);
  for (const name of names) {
    if (name === TEST_EVENT) throw new ValidationError(field, `cannot include ${TEST_EVENT}: it is sent by the test endpoint and cannot be subscribed to`);
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(name)) {
      const shown = name === '' ? 'an empty event name' : `unknown event "${name.slice(0, 60)}"`;
      throw new ValidationError(field, `has ${shown}; supported: ${WEBHOOK_EVENTS.join(', ')}`);
    }
  }
  return WEBHOOK_EVENTS.filter((e) => names.includes(e)).join(',');
}

import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../errors/app-error';

/** An id for a new event: `evt_` and 24 hex characters. */
export const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;

/** Sent by the test endpoint whatever the subscription; cannot be subscribed to, never retried. */
export const TEST_EVENT = 'webhook.test';

/** Subscription of an endpoint created without `events`. */
export const DEFAULT_EVENTS = 'order.created,order.delivered';

/**
 * Checks a subscription given as an array or a comma-separated string against the events the
 * domains emit (`supported`, see DomainModule.webhookEvents) and returns its canonical spelling
 * (the supported order, no duplicates). Unknown events, `webhook.test` and an empty list are a 400.
 */
export function normalizeEvents(field: string, value: string | string[], supported: readonly string[]): string {
  const names = (Array.isArray(value) ? value : value.split(',')).map((e) => e.trim());
  if (names.every((e) => e === '')) throw new ValidationError(field, `must name at least one event: ${supported.join(', ')}`);
  for (const name of names) {
    if (name === TEST_EVENT) throw new ValidationError(field, `cannot include ${TEST_EVENT}: it is sent by the test endpoint and cannot be subscribed to`);
    if (!supported.includes(name)) {
      const shown = name === '' ? 'an empty event name' : `unknown event "${name.slice(0, 60)}"`;
      throw new ValidationError(field, `has ${shown}; supported: ${supported.join(', ')}`);
    }
  }
  return supported.filter((e) => names.includes(e)).join(',');
}

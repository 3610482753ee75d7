import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql } from '../../db/tenant-sql';
import { deliveryJobOf } from './delivery-job';
import { liveEndpoint } from './live-endpoint';
import { newEventId } from './webhook-events';

/**
 * Records events for webhook delivery inside the caller's transaction: one delivery per endpoint
 * that is active and subscribed at that moment, each with its graphile-worker job, written by the
 * same statement as part of the same commit. A rolled-back change leaves no event behind; a
 * committed one always has its deliveries queued.
 */
export class WebhookEventQueue {
  constructor(private readonly maxAttempts: number) {}

  /** Call with the EntityManager of the open transaction, after the change is flushed. */
  async emit(tx: EntityManager, organizationId: number, type: string, data: object): Promise<void> {
    await executeSql(
      tx,
      sql`with queued as (
            insert into webhook_delivery (organization_id, webhook_id, event_id, event_type, event_data, event_at, status, attempts, max_attempts)
            select w.organization_id, w.id, ${newEventId()}, ${type}, ${JSON.stringify(data)}::json, now(), 'pending', 0, ${this.maxAttempts}
              from webhook_endpoint w
             where w.organization_id = ${organizationId} and ${liveEndpoint('w')} and ${type} = any(string_to_array(w.events, ','))
            returning id, organization_id)
          select ${deliveryJobOf('queued')} from queued`,
    );
  }
}

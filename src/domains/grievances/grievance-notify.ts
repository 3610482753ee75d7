import type { EntityManager } from '@mikro-orm/postgresql';
import type { Grievance } from './grievance.entity';

/**
 * The grievance's assignee is about to miss a deadline (`which`). Called once per deadline by the
 * warn_grievance_breaches cron task, in the transaction that stamps `ack_warned_at` /
 * `resolve_warned_at`. The stamp is the record of the warning; the notifications inbox (another
 * group of issue 25) hooks in here, in the same transaction, when it lands.
 */
export async function warnAssignee(_tx: EntityManager, _grievance: Grievance, _which: 'acknowledge' | 'resolve'): Promise<void> {
  // The stamp written by the caller is the whole effect until the notifications domain is merged.
}

/**
 * A grievance changed (`change`: created, assigned, a transition, a photo added), in the
 * transaction of the change. The notifications inbox's "grievance updated" events hook in here.
 */
export async function grievanceUpdated(_tx: EntityManager, _grievance: Grievance, _change: string): Promise<void> {
  // Nothing beyond the change itself is written until the notifications domain is merged.
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { notify } from '../notifications/notify';
import { GRIEVANCE_CATEGORY_LABELS, GRIEVANCE_STATUS_LABELS, type Grievance } from './grievance.entity';

/** What a change is called in the notification's title. */
const CHANGE_TEXT: Record<string, string> = {
  created: 'raised',
  assigned: 'assigned',
  photo_added: 'given a photo',
  acknowledge: 'acknowledged',
  start: 'in progress',
  hold: 'on hold',
  resolve: 'resolved',
  close: 'closed',
  reopen: 'reopened',
};

const entityOf = (g: Grievance) => ({ type: 'grievance', id: g.id });
const words = (code: string) => code.replace(/_/g, ' ');
const describe = (g: Grievance) => {
  const category = words(GRIEVANCE_CATEGORY_LABELS[g.category]);
  return `${category[0].toUpperCase()}${category.slice(1)} grievance #${g.id}`;
};
const statusOf = (g: Grievance) => words(GRIEVANCE_STATUS_LABELS[g.status]);

/**
 * The grievance's assignee is about to miss a deadline (`which`): a notification to them, in the
 * warn_grievance_breaches task's transaction that stamps `ack_warned_at` / `resolve_warned_at`,
 * so a warning is sent once.
 */
export async function warnAssignee(tx: EntityManager, grievance: Grievance, which: 'acknowledge' | 'resolve'): Promise<void> {
  const due = which === 'acknowledge' ? grievance.ackDueAt : grievance.resolveDueAt;
  await notify(tx, grievance.organizationId, [grievance.assignee?.id], {
    type: 'grievance_deadline',
    title: `${describe(grievance)}: ${which === 'acknowledge' ? 'acknowledge' : 'resolve'} by ${due.toISOString()}`,
    body: `${describe(grievance)} is ${statusOf(grievance)} and must be ${which === 'acknowledge' ? 'acknowledged' : 'resolved'} by ${due.toISOString()}.`,
    entity: entityOf(grievance),
  });
}

/**
 * A grievance changed (`change`: created, assigned, a transition, a photo added), in the
 * transaction of the change: its customer and its assignee are told, except whoever made the change.
 */
export async function grievanceUpdated(tx: EntityManager, grievance: Grievance, change: string, actorUserId: number | null): Promise<void> {
  const told = [grievance.customer.id, grievance.assignee?.id].filter((id) => id !== actorUserId);
  await notify(tx, grievance.organizationId, told, {
    type: 'grievance_updated',
    title: `${describe(grievance)} ${CHANGE_TEXT[change] ?? change}`,
    body: `${describe(grievance)} is now ${statusOf(grievance)}.${grievance.resolution ? ` Resolution: ${grievance.resolution}` : ''}`,
    entity: entityOf(grievance),
  });
}

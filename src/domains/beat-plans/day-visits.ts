import type { EntityManager } from '@mikro-orm/postgresql';
import type { VisitFact } from './day-view';

/** A visit fact with the employee who made it. */
export interface UserVisitFact extends VisitFact {
  userId: number;
}

/**
 * The visits of the given employees on a local day (YYYY-MM-DD), as the day view merges them.
 *
 * INTEGRATION: the visits domain (table `visit`: user_id, outlet_id, visit_date, status, outcome,
 * order_id) is built on another branch. After merging, replace this body with one tenant-scoped
 * statement through src/db/tenant-sql.ts, e.g.
 *   select v.id as "visitId", v.user_id as "userId", v.outlet_id as "outletId", v.status,
 *          v.outcome, v.order_id as "orderId"
 *   from visit v where v.organization_id = ? and v.user_id = any(?) and v.visit_date = ?
 * Until then no visits exist, so every planned outlet reads as not visited.
 */
export async function visitFactsOfDay(_em: EntityManager, _organizationId: number, _userIds: readonly number[], _date: string): Promise<UserVisitFact[]> {
  return [];
}

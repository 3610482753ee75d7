import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Approved leave of employees, per user and local date (fraction of the day: 1, or 0.5 for a
 * half day), between `from` and `to` inclusive; `userIds` null means every user.
 *
 * INTEGRATION: the leaves domain (built in parallel) provides
 * `approvedLeaveDays(em, organizationId, userIds, from, to)` in src/domains/leaves/leave-days.ts
 * with this exact shape; once merged, this function returns its answer. Until then no leave is
 * known, so pro-rating counts every working day as available.
 */
export async function leaveDaysOf(
  _em: EntityManager,
  _organizationId: number,
  _userIds: readonly number[] | null,
  _from: string,
  _to: string,
): Promise<Map<number, Map<string, number>>> {
  return new Map();
}

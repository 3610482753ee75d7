import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { scopeToOrganization } from '../../db/tenant-filter';
import { warnAssignee } from './grievance-notify';
import { BREACH_WARNING_MS } from './grievance-rules';
import { Grievance, GrievanceStatus } from './grievance.entity';

/**
 * The cron task's work, across workspaces: each unwarned grievance with an assignee whose
 * acknowledge-by (still open) or resolve-by (not yet resolved or closed) deadline falls before
 * `now` + 4 hours is stamped and its assignee warned (warnAssignee), once per deadline.
 * Answers how many warnings were given.
 */
export async function warnNearingBreaches(unscoped: EntityManager, now = new Date()): Promise<number> {
  const horizon = new Date(now.getTime() + BREACH_WARNING_MS);
  const due = await unscoped.execute<Array<{ id: number; organization_id: number }>>(
    `select g.id, g.organization_id
       from grievance g
      where g.assignee_user_id is not null
        and ((g.status = ? and g.ack_warned_at is null and g.ack_due_at <= ?)
          or (g.status not in (?, ?) and g.resolve_warned_at is null and g.resolve_due_at <= ?))
      order by g.organization_id, g.id`,
    [GrievanceStatus.OPEN, horizon, GrievanceStatus.RESOLVED, GrievanceStatus.CLOSED, horizon],
  );
  let warned = 0;
  for (const row of due) {
    const em = unscoped.fork();
    scopeToOrganization(em, row.organization_id);
    warned += await em.transactional(async (tx) => {
      const g = await tx.findOne(Grievance, { id: row.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!g || g.assignee === null) return 0;
      let n = 0;
      if (g.status === GrievanceStatus.OPEN && g.ackWarnedAt === null && g.ackDueAt <= horizon) {
        g.ackWarnedAt = now;
        await tx.flush();
        await warnAssignee(tx, g, 'acknowledge');
        n++;
      }
      if (g.status !== GrievanceStatus.RESOLVED && g.status !== GrievanceStatus.CLOSED && g.resolveWarnedAt === null && g.resolveDueAt <= horizon) {
        g.resolveWarnedAt = now;
        await tx.flush();
        await warnAssignee(tx, g, 'resolve');
        n++;
      }
      return n;
    });
  }
  return warned;
}

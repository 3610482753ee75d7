import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, raw, sql, tenantSql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { calendarDays } from './leave-rules';
import { LeaveStatus } from './leave.entity';

/** The longest range one read of approved leave days covers (a year and a day: a leap year's reports). */
export const MAX_LEAVE_DAYS_RANGE = 366;

/**
 * Approved leave per user and local day in [from, to] (YYYY-MM-DD, inclusive) of one workspace:
 * user id → date → the fraction of that day on leave (1, or 0.5 for a half day). Users and days
 * without approved leave are absent. `userIds` null: every user; empty: none. For other domains
 * (beat-productivity scoring, sales-plan pro-rating), which take these days out of their
 * denominators; open, rejected and cancelled leaves count for nothing.
 */
export async function approvedLeaveDays(
  em: EntityManager,
  organizationId: number,
  userIds: readonly number[] | null,
  from: string,
  to: string,
): Promise<Map<number, Map<string, number>>> {
  rules.calendarDate('from', from);
  rules.calendarDate('to', to);
  if (to < from) throw new ValidationError('to', 'must not be before from');
  if (calendarDays(from, to) > MAX_LEAVE_DAYS_RANGE) throw new ValidationError('to', `must be at most ${MAX_LEAVE_DAYS_RANGE} days from from`);
  const byUser = new Map<number, Map<string, number>>();
  if (userIds !== null && userIds.length === 0) return byUser;
  for (const id of userIds ?? []) if (!Number.isSafeInteger(id)) throw new ValidationError('userIds', 'must be integers');
  const t = tenantSql(organizationId, 'l');
  const users = userIds === null ? raw('') : sql` and l.user_id = any(${`{${userIds.join(',')}}`}::int[])`;
  // Approved leaves of one user never overlap (applications are checked under a lock); max() keeps
  // one fraction a day even so.
  const rows = await executeSql<{ user_id: number; day: string; fraction: string }>(
    em,
    sql`select l.user_id, to_char(d.day, 'YYYY-MM-DD') as day, max(case when l.half_day then 0.5 else 1 end) as fraction
          from leave_application l
         cross join lateral generate_series(greatest(l.from_date, ${from}::date), least(l.to_date, ${to}::date), interval '1 day') as d(day)
         where ${t.owns()} and l.status = ${LeaveStatus.APPROVED} and l.from_date <= ${to}::date and l.to_date >= ${from}::date${users}
         group by l.user_id, d.day
         order by l.user_id, d.day`,
  );
  for (const row of rows) {
    const userId = Number(row.user_id);
    let days = byUser.get(userId);
    if (!days) byUser.set(userId, (days = new Map()));
    days.set(row.day, Number(row.fraction));
  }
  return byUser;
}

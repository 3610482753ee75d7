import { expect } from 'vitest';
import type { Workspace } from './fixtures';
import type { TestApp } from './test-app';

/**
 * A time zone whose local time is about noon right now (Etc/GMT±N), so that moving a check-in a
 * few hours back, and positions within those hours, stay on the workspace's local day whenever
 * the suite runs.
 */
export function noonZone(now = new Date()): string {
  const offset = 12 - now.getUTCHours(); // -11 … +12
  if (offset === 0) return 'UTC';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/** Today (YYYY-MM-DD) in `zone`. */
export const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

/** Sets the workspace's time zone to a noon zone; returns it. */
export async function useNoonZone(t: TestApp, ws: Workspace): Promise<string> {
  const zone = noonZone();
  const res = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { time_zone: zone } });
  expect(res.statusCode, res.body).toBe(200);
  return zone;
}

/**
 * Checks the user in (REST) and moves the check-in `hoursAgo` back, so that positions of the
 * last hours lie within the open attendance span.
 */
export async function checkInHoursAgo(t: TestApp, ws: Workspace, user: { id: number; token: string }, hoursAgo = 3): Promise<void> {
  const res = await t.request({ method: 'POST', url: '/api/v1/attendance/check-in', token: user.token });
  expect(res.statusCode, res.body).toBe(201);
  await t.orm.em
    .fork()
    .getConnection()
    .execute(`update attendance set check_in_at = check_in_at - make_interval(hours => ?) where organization_id = ? and user_id = ?`, [hoursAgo, ws.organizationId, user.id]);
}

/** An ISO timestamp `seconds` from now (negative: earlier). */
export const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/** How many positions a workspace holds (straight from the table). */
export async function positionCount(t: TestApp, ws: Workspace): Promise<number> {
  const [row] = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from user_position where organization_id = ?', [ws.organizationId]);
  return row.n;
}

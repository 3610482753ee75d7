import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';

/**
 * Today's date (YYYY-MM-DD) in the workspace's time zone, by the database's clock: the one local
 * day "today" means in attendance, statistics and exports.
 */
export async function workspaceToday(em: EntityManager, organizationId: number): Promise<string> {
  const t = tenantSql(organizationId, 'c');
  const [row] = await executeSql<{ today: string }>(
    em,
    sql`select to_char((now() at time zone c.time_zone)::date, 'YYYY-MM-DD') as today from workspace_config c where ${t.owns()}`,
  );
  return row.today;
}

/** The instant a local day (YYYY-MM-DD) of the workspace begins: the lower bound of "on that day". */
export async function localDayStart(em: EntityManager, organizationId: number, day: string): Promise<Date> {
  const t = tenantSql(organizationId, 'c');
  const [row] = await executeSql<{ start: Date }>(
    em,
    sql`select (${day}::date::timestamp at time zone c.time_zone) as start from workspace_config c where ${t.owns()}`,
  );
  return new Date(row.start);
}

/** `day` (YYYY-MM-DD) moved by `days` (negative: earlier). */
export function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The workspace's IANA time zone. */
export async function workspaceTimeZone(em: EntityManager, organizationId: number): Promise<string> {
  const t = tenantSql(organizationId, 'c');
  const [row] = await executeSql<{ time_zone: string }>(em, sql`select c.time_zone from workspace_config c where ${t.owns()}`);
  return row.time_zone;
}

/** A formatter of instants as the wall-clock time of `timeZone`, 'YYYY-MM-DDTHH:MI:SS' (as the exports' SQL gives timestamps). */
export function wallClockOf(timeZone: string): (instant: Date) => string {
  const format = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  return (instant) => format.format(instant).replace(' ', 'T');
}

/** The workspace's local day (YYYY-MM-DD) of an instant. */
export async function localDayOf(em: EntityManager, organizationId: number, instant: Date): Promise<string> {
  const t = tenantSql(organizationId, 'c');
  const [row] = await executeSql<{ day: string }>(em, sql`select to_char((${instant}::timestamptz at time zone c.time_zone)::date, 'YYYY-MM-DD') as day from workspace_config c where ${t.owns()}`);
  return row.day;
}

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

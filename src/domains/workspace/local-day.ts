import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Today's date (YYYY-MM-DD) in the workspace's time zone, by the database's clock: the one local
 * day "today" means in attendance, statistics and exports.
 */
export async function workspaceToday(em: EntityManager, organizationId: number): Promise<string> {
  const [row] = await em.execute<{ today: string }[]>(
    `select to_char((now() at time zone c.time_zone)::date, 'YYYY-MM-DD') as today from workspace_config c where c.organization_id = ?`,
    [organizationId],
  );
  return row.today;
}

/** The instant a local day (YYYY-MM-DD) of the workspace begins: the lower bound of "on that day". */
export async function localDayStart(em: EntityManager, organizationId: number, day: string): Promise<Date> {
  const [row] = await em.execute<{ start: Date }[]>(
    `select (?::date::timestamp at time zone c.time_zone) as start from workspace_config c where c.organization_id = ?`,
    [day, organizationId],
  );
  return new Date(row.start);
}

/** `day` (YYYY-MM-DD) moved by `days` (negative: earlier). */
export function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

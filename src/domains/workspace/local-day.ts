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

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { scopeToOrganization } from '../../db/tenant-filter';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { notify } from '../notifications/notify';
import { UserType } from '../users/user.entity';
import { Scheme, SchemeScope, SchemeStatus } from './scheme.entity';

/** A scheme that started longer ago than this is old news: never announced. */
export const ANNOUNCE_WITHIN_DAYS = 7;

/**
 * The announce_started_schemes task's work, across workspaces: each active scheme whose first day
 * has come in its workspace's time zone (within the last ANNOUNCE_WITHIN_DAYS days) and that is not
 * over and not announced yet is announced to the active customers in its scope (the scope rules of
 * the engine's `inScope`, in SQL) with a `scheme_started` notification, and stamped
 * `announced_at` in the same transaction, so it is announced once. Answers how many schemes.
 */
export async function announceStartedSchemes(unscoped: EntityManager, now = new Date()): Promise<number> {
  const due = await unscoped.execute<Array<{ id: number; organization_id: number }>>(
    `select s.id, s.organization_id
       from scheme s join workspace_config c on c.organization_id = s.organization_id
      where s.status = ? and s.announced_at is null
        and s.valid_from <= (?::timestamptz at time zone c.time_zone)::date
        and s.valid_from > (?::timestamptz at time zone c.time_zone)::date - ?::int
        and (s.valid_to is null or s.valid_to >= (?::timestamptz at time zone c.time_zone)::date)
      order by s.organization_id, s.id`,
    [SchemeStatus.ACTIVE, now, now, ANNOUNCE_WITHIN_DAYS, now],
  );
  let announced = 0;
  for (const row of due) {
    const em = unscoped.fork();
    scopeToOrganization(em, row.organization_id);
    announced += await em.transactional(async (tx) => {
      const scheme = await tx.findOne(Scheme, { id: row.id, announcedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!scheme) return 0;
      const customers = await customersInScope(tx, row.organization_id, scheme);
      scheme.announcedAt = now;
      await tx.flush();
      await notify(tx, row.organization_id, customers, {
        type: 'scheme_started',
        title: `New scheme: ${scheme.name}`,
        body: `${scheme.name} (${scheme.code}) runs from ${scheme.validFrom}${scheme.validTo ? ` to ${scheme.validTo}` : ''}. See the products it applies to in your catalogue.`,
        entity: { type: 'scheme', id: scheme.id },
      });
      return 1;
    });
  }
  return announced;
}

/** The active distributors and retailers a scheme is for (its scope: all, towns, routes, customer types, named customers). */
async function customersInScope(tx: EntityManager, organizationId: number, scheme: Scheme): Promise<number[]> {
  const t = tenantSql(organizationId, 'u');
  const ids = `{${scheme.scopeIds.map((id) => Math.trunc(id)).join(',')}}`;
  const rows = await executeSql<{ id: number }>(
    tx,
    sql`select u.id from app_user u
         where ${t.owns()} and u.user_type in (${UserType.DISTRIBUTOR}, ${UserType.RETAILER}) and u.status = ${ActiveStatus.ACTIVE}
           and case ${scheme.scope}::int
                 when ${SchemeScope.ALL} then true
                 when ${SchemeScope.TOWN} then u.town_id = any(${ids}::int[])
                 when ${SchemeScope.ROUTE} then u.route_id = any(${ids}::int[])
                 when ${SchemeScope.USER_TYPE} then u.user_type = any(${ids}::int[])
                 when ${SchemeScope.CUSTOMERS} then u.id = any(${ids}::int[])
                 else false end
         order by u.id`,
  );
  return rows.map((r) => Number(r.id));
}

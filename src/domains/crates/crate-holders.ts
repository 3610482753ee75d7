import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';

/** How many customers of the workspace hold crates of a type (a balance above 0): what keeps the type from being deactivated. */
export async function customersHoldingCrates(em: EntityManager, organizationId: number, crateTypeId: number): Promise<number> {
  const t = tenantSql(organizationId, 'm');
  const [row] = await executeSql<{ holders: number }>(
    em,
    sql`select count(*)::int as holders from (
          select m.customer_id from crate_movement m where ${t.owns()} and m.crate_type_id = ${crateTypeId}
           group by m.customer_id having sum(m.quantity) > 0) held`,
  );
  return row.holders;
}

import { Entity, Property, Unique } from '@mikro-orm/core';
import { TenantEntity } from './tenant.entity';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Per-workspace sequences (e.g. order numbers), advanced atomically inside the caller's transaction. */
@Entity({ tableName: 'tenant_counter' })
@Unique({ properties: ['organizationId', 'name'] })
export class TenantCounter extends TenantEntity<'value'> {
  @Property({ length: 40 })
  name!: string;

  @Property({ type: 'bigint' })
  value: bigint = 0n;
}

/**
 * Returns the next value of a workspace's named sequence. Raw SQL on purpose (an atomic upsert);
 * the organization comes from the caller's tenant context, never from input.
 */
export async function nextCounterValue(em: EntityManager, organizationId: number, name: string): Promise<number> {
  const rows = await em.execute<{ value: string }[]>(
    `insert into tenant_counter (organization_id, name, value) values (?, ?, 1)
     on conflict (organization_id, name) do update set value = tenant_counter.value + 1, updated_at = now()
     returning value`,
    [organizationId, name],
  );
  return Number(rows[0].value);
}

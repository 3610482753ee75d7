import type { EntityManager } from '@mikro-orm/core';

/** Name of the default filter that confines every tenant-owned query to one organization. */
export const TENANT_FILTER = 'tenant';

/** Parameters the tenant filter needs; set once per request on the forked EntityManager. */
export interface TenantFilterParams {
  organizationId: number;
}

/**
 * Condition of the tenant filter. MikroORM itself throws when the filter has no parameters
 * (the callback declares one), and this throws when they carry no organization: both fail closed.
 */
export function tenantCondition(params: TenantFilterParams): { organizationId: number } {
  if (!params || !Number.isInteger(params.organizationId)) {
    throw new Error('Tenant filter used without an organization id');
  }
  return { organizationId: params.organizationId };
}

/** Scopes an EntityManager (a per-request fork) to one organization. */
export function scopeToOrganization(em: EntityManager, organizationId: number): void {
  em.setFilterParams(TENANT_FILTER, { organizationId } satisfies TenantFilterParams);
}

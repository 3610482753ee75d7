import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization, WorkspacePlan, WorkspaceStatus } from './organization.entity';

/**
 * Operator actions on workspaces (the CLI): they act across all workspaces by slug, so they use
 * the Organization table, which is the tenant itself and carries no tenant filter.
 */

/** One line of workspace:list. */
export interface WorkspaceSummary {
  slug: string;
  status: WorkspaceStatus;
  plan: WorkspacePlan;
  trialEndsAt: Date | null;
  userCount: number;
}

/** Status names of the CLI, by code. */
export const STATUS_NAMES: Record<WorkspaceStatus, string> = {
  [WorkspaceStatus.SUSPENDED]: 'suspended',
  [WorkspaceStatus.ACTIVE]: 'active',
  [WorkspaceStatus.TRIAL]: 'trial',
};

/** Every workspace by slug, with its user count (one grouped query, not one per workspace). */
export async function listWorkspaces(em: EntityManager): Promise<WorkspaceSummary[]> {
  const organizations = await em.find(Organization, {}, { orderBy: { slug: 'asc' } });
  // Counting across workspaces on purpose: this is the operator's view of all of them.
  const counts = await em.execute<{ organization_id: number; users: string }[]>(
    'select organization_id, count(*) as users from app_user group by organization_id',
  );
  const byOrganization = new Map(counts.map((c) => [Number(c.organization_id), Number(c.users)]));
  return organizations.map((o) => ({
    slug: o.slug,
    status: o.status,
    plan: o.plan,
    trialEndsAt: o.trialEndsAt,
    userCount: byOrganization.get(o.id) ?? 0,
  }));
}

/** A change to one field of a workspace: what it was and what it is now. */
export interface WorkspaceChange<T> {
  slug: string;
  before: T;
  after: T;
}

/** Applies `change` to the workspace with this slug and returns the field before and after; null when no such workspace. */
export async function changeWorkspace<T>(
  em: EntityManager,
  slug: string,
  read: (o: Organization) => T,
  change: (o: Organization) => void,
): Promise<WorkspaceChange<T> | null> {
  const organization = await em.findOne(Organization, { slug });
  if (!organization) return null;
  const before = read(organization);
  change(organization);
  await em.flush();
  return { slug, before, after: read(organization) };
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { ConflictError, ValidationError } from '../../errors/app-error';
import { Organization } from '../workspace/organization.entity';
import { User, UserType } from './user.entity';

/**
 * Rules over the workspace's active users as a whole: how many there are, and that one of them
 * administers it. Each is checked with the organization row locked (lockOrganization) until the
 * caller's transaction ends, so two concurrent requests (two creates, two deactivations) cannot
 * both pass on the same count. Lock the organization before any user row, always in that order.
 */

/** Locks the caller's organization row for the rest of the transaction `tx`. */
export function lockOrganization(tx: EntityManager, organizationId: number): Promise<Organization> {
  return tx.findOneOrFail(Organization, { id: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

/** Refuses one more active user (a create or a reactivation) once the workspace has max_users of them; needs the lock. */
export async function assertSeatAvailable(tx: EntityManager, organization: Organization): Promise<void> {
  const active = await tx.count(User, { status: ActiveStatus.ACTIVE });
  if (active >= organization.maxUsers) {
    throw new ValidationError(null, `This workspace has reached its limit of ${organization.maxUsers} active users`);
  }
}

/**
 * Refuses (409) a change by which `userId` stops being an active administrator (deactivated, or
 * given another type) when no other active administrator remains; needs the lock.
 */
export async function assertAnotherActiveAdmin(tx: EntityManager, userId: number, change: string): Promise<void> {
  const others = await tx.count(User, { userType: UserType.ADMIN, status: ActiveStatus.ACTIVE, id: { $ne: userId } });
  if (others === 0) {
    throw new ConflictError(`Cannot ${change} the workspace's last active administrator; make another user an administrator first`);
  }
}

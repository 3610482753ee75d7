import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { Role } from '../users/role.entity';
import { User, UserType } from '../users/user.entity';
import { ApprovalPolicy, ApprovalPolicyTier } from './approval.entity';

/** One tier of a policy: requests of at least `minAmount` need it; decided by a user, a role, or (neither) any administrator. */
export interface PolicyTier {
  minAmount: number;
  approverUserId: number | null;
  approverRoleId: number | null;
}

/** A kind's policy as the API shows it; `isDefault` when the workspace has not set one. */
export interface PolicyRead {
  kind: string;
  isDefault: boolean;
  tiers: PolicyTier[];
}

/** Most tiers a policy may have. */
export const MAX_POLICY_TIERS = 5;

/** Without a policy of its own, every request of a kind needs one tier: any administrator. */
export const DEFAULT_TIERS: readonly PolicyTier[] = [{ minAmount: 0, approverUserId: null, approverRoleId: null }];

/**
 * Checks a policy's tiers (400 naming `tiers[i].field`): at most five, amounts >= 0 with two
 * decimals and not decreasing, at most one of user and role each, an active staff user, a role of
 * the workspace.
 */
export async function checkPolicyTiers(em: EntityManager, tiers: readonly PolicyTier[]): Promise<PolicyTier[]> {
  if (tiers.length > MAX_POLICY_TIERS) throw new ValidationError('tiers', `must have at most ${MAX_POLICY_TIERS} tiers`);
  let previous = -1;
  const checked: PolicyTier[] = [];
  for (const [i, tier] of tiers.entries()) {
    const minAmount = rules.money(`tiers[${i}].minAmount`, tier.minAmount);
    if (minAmount < previous) throw new ValidationError(`tiers[${i}].minAmount`, `must not be below tiers[${i - 1}].minAmount: tiers apply in order of amount`);
    previous = minAmount;
    const userId = tier.approverUserId ?? null;
    const roleId = tier.approverRoleId ?? null;
    if (userId !== null && roleId !== null) throw new ValidationError(`tiers[${i}].approverRoleId`, 'must be left out when approverUserId is given: a tier has one approver');
    if (userId !== null) {
      const user = await em.findOne(User, { id: userId, userType: { $in: [UserType.ADMIN, UserType.EMPLOYEE] }, status: ActiveStatus.ACTIVE });
      if (!user) throw new ValidationError(`tiers[${i}].approverUserId`, 'must name an active employee or admin of this workspace');
    }
    if (roleId !== null && !(await em.findOne(Role, { id: roleId }))) {
      throw new ValidationError(`tiers[${i}].approverRoleId`, 'must name a role of this workspace');
    }
    checked.push({ minAmount, approverUserId: userId, approverRoleId: roleId });
  }
  return checked;
}

/** A kind's policy of the workspace, or the default. */
export async function readPolicy(em: EntityManager, kind: string): Promise<PolicyRead> {
  const policy = await em.findOne(ApprovalPolicy, { kind });
  if (!policy) return { kind, isDefault: true, tiers: [...DEFAULT_TIERS] };
  const tiers = await em.find(ApprovalPolicyTier, { policy }, { orderBy: { tier: 'asc' } });
  return {
    kind,
    isDefault: false,
    tiers: tiers.map((t) => ({ minAmount: t.minAmount, approverUserId: t.approverUser?.id ?? null, approverRoleId: t.approverRole?.id ?? null })),
  };
}

/** The tiers a request of `amount` needs: those whose minAmount it reaches (none: auto-approved). */
export function tiersFor(policy: PolicyRead, amount: number): PolicyTier[] {
  return policy.tiers.filter((t) => amount >= t.minAmount);
}

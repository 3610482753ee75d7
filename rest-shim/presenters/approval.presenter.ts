import { Type } from '@sinclair/typebox';
import type { ApprovalRead } from '../../src/domains/approvals/approval-read';
import type { DelegateRead } from '../../src/domains/approvals/approval.service';
import type { PolicyRead } from '../../src/domains/approvals/approval-policy';
import { Nullable, Timestamp } from '../schemas';

export const APPROVAL_STATUS_TEXT = '1 pending, 2 approved, 3 rejected, 4 cancelled';
export const APPROVAL_STEP_STATUS_TEXT = '1 waiting, 2 pending (its turn), 3 approved, 4 rejected, 5 skipped';

const StepBody = Type.Object({
  tier: Type.Integer(),
  approver_user_id: Nullable(Type.Integer()),
  approver_role_id: Nullable(Type.Integer({ description: 'Any active user of this role decides; neither user nor role: any administrator' })),
  status: Type.Integer({ description: APPROVAL_STEP_STATUS_TEXT }),
  acted_by_user_id: Nullable(Type.Integer()),
  delegated_from_user_id: Nullable(Type.Integer({ description: 'The approver on leave whose delegate decided' })),
  comment: Nullable(Type.String()),
  acted_at: Nullable(Timestamp),
});

/** An approval with its steps. */
export const ApprovalBody = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  entity_id: Type.Integer({ description: "The kind's record (a FOC request's id)" }),
  amount: Type.Number(),
  requested_by_user_id: Nullable(Type.Integer()),
  status: Type.Integer({ description: APPROVAL_STATUS_TEXT }),
  current_tier: Nullable(Type.Integer()),
  decided_at: Nullable(Timestamp),
  created_at: Timestamp,
  steps: Type.Array(StepBody),
});

/** An approval as REST shows it. */
export function presentApproval({ approval: a, steps }: ApprovalRead) {
  return {
    id: a.id,
    kind: a.kind,
    entity_id: a.entityId,
    amount: a.amount,
    requested_by_user_id: a.requestedBy,
    status: a.status,
    current_tier: a.currentTier,
    decided_at: a.decidedAt,
    created_at: a.createdAt,
    steps: steps.map((s) => ({
      tier: s.tier,
      approver_user_id: s.approverUser,
      approver_role_id: s.approverRole,
      status: s.status,
      acted_by_user_id: s.actedBy,
      delegated_from_user_id: s.delegatedFrom,
      comment: s.comment,
      acted_at: s.actedAt,
    })),
  };
}

export const PolicyTierBody = Type.Object({
  min_amount: Type.Number({ minimum: 0, description: 'Requests of at least this amount need the tier' }),
  approver_user_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  approver_role_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
});

export const PolicyBody = Type.Object({
  kind: Type.String(),
  is_default: Type.Boolean({ description: 'The workspace has not set one: one tier, any administrator, for every amount' }),
  tiers: Type.Array(PolicyTierBody),
});

export function presentPolicy(policy: PolicyRead) {
  return {
    kind: policy.kind,
    is_default: policy.isDefault,
    tiers: policy.tiers.map((t) => ({ min_amount: t.minAmount, approver_user_id: t.approverUserId, approver_role_id: t.approverRoleId })),
  };
}

export const DelegateBody = Type.Object({ user_id: Type.Integer(), delegate_user_id: Nullable(Type.Integer()) });

export function presentDelegate(d: DelegateRead) {
  return { user_id: d.userId, delegate_user_id: d.delegateUserId };
}

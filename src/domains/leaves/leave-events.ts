import type { Leave } from './leave.entity';

/** Webhook events of leaves: emitted in the transaction of the decision. */
export const LEAVE_EVENTS = ['leave.approved', 'leave.rejected'] as const;

/** `data` of leave.approved and leave.rejected: the leave as REST shows it, by ids. */
export function leaveDecidedData(leave: Leave) {
  return {
    id: leave.id,
    user_id: leave.user.id,
    leave_type: leave.leaveType,
    from_date: leave.fromDate,
    to_date: leave.toDate,
    half_day: leave.halfDay,
    days: leave.days,
    reason: leave.reason,
    status: leave.status,
    decided_by_user_id: leave.decidedBy?.id ?? null,
    decided_at: leave.decidedAt?.toISOString() ?? null,
    decision_note: leave.decisionNote,
    created_at: leave.createdAt.toISOString(),
  };
}

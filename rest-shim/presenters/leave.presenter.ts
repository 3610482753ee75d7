import { Type } from '@sinclair/typebox';
import type { LeaveRead } from '../../src/domains/leaves/leave-read';
import { LEAVE_STATUS_LABELS, LEAVE_STATUSES, LEAVE_TYPE_LABELS, LEAVE_TYPES } from '../../src/domains/leaves/leave.entity';
import { DateString, Nullable, Timestamp } from '../schemas';

/** `leave_type` codes with their labels, as descriptions list them. */
export const LEAVE_TYPE_TEXT = LEAVE_TYPES.map((t) => `${t} ${LEAVE_TYPE_LABELS[t]}`).join(', ');
/** `status` codes of a leave with their labels. */
export const LEAVE_STATUS_TEXT = LEAVE_STATUSES.map((s) => `${s} ${LEAVE_STATUS_LABELS[s]}`).join(', ');

/** A leave with its user's name. */
export const LeaveBody = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_name: Type.String(),
  leave_type: Type.Integer({ description: LEAVE_TYPE_TEXT }),
  from_date: DateString,
  to_date: DateString,
  half_day: Type.Boolean(),
  days: Type.Number({ description: 'Calendar days from from_date to to_date inclusive (weekends and holidays count); 0.5 for a half day' }),
  reason: Type.String(),
  status: Type.Integer({ description: LEAVE_STATUS_TEXT }),
  decided_by_user_id: Nullable(Type.Integer()),
  decided_at: Nullable(Timestamp),
  decision_note: Nullable(Type.String()),
  cancelled_at: Nullable(Timestamp),
  created_at: Timestamp,
});

/** A leave as REST shows it. */
export function presentLeave({ leave: l, user }: LeaveRead) {
  return {
    id: l.id,
    user_id: user.id,
    user_name: `${user.firstName} ${user.lastName}`,
    leave_type: l.leaveType,
    from_date: l.fromDate,
    to_date: l.toDate,
    half_day: l.halfDay,
    days: l.days,
    reason: l.reason,
    status: l.status,
    decided_by_user_id: l.decidedBy,
    decided_at: l.decidedAt,
    decision_note: l.decisionNote,
    cancelled_at: l.cancelledAt,
    created_at: l.createdAt,
  };
}

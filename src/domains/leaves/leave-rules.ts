import { ConflictError, ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { shiftDay } from '../workspace/local-day';
import { LEAVE_STATUS_LABELS, LEAVE_TYPES, LeaveStatus, type LeaveType } from './leave.entity';

/** The longest leave one application may span, in calendar days (from_date to to_date inclusive). */
export const MAX_LEAVE_SPAN_DAYS = 60;
/** How far before or after today (the workspace's) a leave may start. */
export const MAX_START_DISTANCE_DAYS = 365;
/** Longest reason and decision note. */
export const MAX_LEAVE_TEXT = 500;

/** What an application asks, before it is checked. */
export interface LeaveRequest {
  leaveType: number;
  fromDate: string;
  toDate: string;
  halfDay?: boolean | null;
  reason: string;
}

/** An application's fields once checked, with its days counted. */
export interface CheckedLeave {
  leaveType: LeaveType;
  fromDate: string;
  toDate: string;
  halfDay: boolean;
  days: number;
  reason: string;
}

/** Calendar days from `from` to `to` inclusive (both YYYY-MM-DD). */
export function calendarDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * Checks an application (400 naming the first bad field): a known type, real dates in order, at
 * most MAX_LEAVE_SPAN_DAYS, starting within a year of `today`, half a day only for one day, a reason.
 */
export function checkLeaveRequest(input: LeaveRequest, today: string): CheckedLeave {
  const leaveType = rules.oneOf('leaveType', input.leaveType, LEAVE_TYPES);
  const fromDate = rules.calendarDate('fromDate', input.fromDate);
  const toDate = rules.calendarDate('toDate', input.toDate);
  if (toDate < fromDate) throw new ValidationError('toDate', 'must not be before fromDate');
  const span = calendarDays(fromDate, toDate);
  if (span > MAX_LEAVE_SPAN_DAYS) throw new ValidationError('toDate', `must be at most ${MAX_LEAVE_SPAN_DAYS} days from fromDate (inclusive); apply for a longer leave in parts`);
  if (fromDate < shiftDay(today, -MAX_START_DISTANCE_DAYS) || fromDate > shiftDay(today, MAX_START_DISTANCE_DAYS)) {
    throw new ValidationError('fromDate', `must be within ${MAX_START_DISTANCE_DAYS} days of today (${today})`);
  }
  const halfDay = input.halfDay ?? false;
  if (halfDay && fromDate !== toDate) throw new ValidationError('halfDay', 'is only allowed for a one-day leave (fromDate = toDate)');
  const reason = rules.requiredText('reason', input.reason, MAX_LEAVE_TEXT);
  return { leaveType, fromDate, toDate, halfDay, days: halfDay ? 0.5 : span, reason };
}

/** A decision's note: trimmed, at most MAX_LEAVE_TEXT characters; empty is none. */
export function decisionNoteOf(note: string | null | undefined): string | null {
  return rules.optionalText('note', note, MAX_LEAVE_TEXT) || null;
}

/** What each status may move to. */
const NEXT: Record<LeaveStatus, readonly LeaveStatus[]> = {
  [LeaveStatus.OPEN]: [LeaveStatus.APPROVED, LeaveStatus.REJECTED, LeaveStatus.CANCELLED],
  [LeaveStatus.APPROVED]: [LeaveStatus.CANCELLED],
  [LeaveStatus.REJECTED]: [],
  [LeaveStatus.CANCELLED]: [],
};

const VERB: Record<LeaveStatus, string> = {
  [LeaveStatus.OPEN]: 'reopened',
  [LeaveStatus.APPROVED]: 'approved',
  [LeaveStatus.REJECTED]: 'rejected',
  [LeaveStatus.CANCELLED]: 'cancelled',
};

/** 409 unless a leave in `from` may move to `to`; the message names both. */
export function assertLeaveTransition(id: number, from: LeaveStatus, to: LeaveStatus): LeaveStatus {
  if (NEXT[from].includes(to)) return to;
  const allowed = (Object.keys(NEXT) as unknown as LeaveStatus[]).filter((s) => NEXT[s].includes(to)).map((s) => LEAVE_STATUS_LABELS[Number(s) as LeaveStatus]);
  throw new ConflictError(`Leave ${id} is ${LEAVE_STATUS_LABELS[from]}: only an ${allowed.join(' or ')} leave can be ${VERB[to]}`);
}

/**
 * Working-day pro-rating of a sales target, as pure functions of the calendar, today and the
 * employee's approved leave (see the README's "Sales plan" notes).
 *
 * - Working days are Monday to Saturday (WORKING_WEEKDAYS; a workspace setting is not built).
 * - "Elapsed" working days are those strictly before today: today is still being worked, so it
 *   counts as remaining. A period that ended before today is fully elapsed; one that starts
 *   after today has none elapsed.
 * - Leave: a fraction (1, or 0.5 for a half day) per local date; leave on a non-working day
 *   counts for nothing. Capacity of a day = 1 − its leave fraction.
 */

/** Day-of-week numbers (0 Sunday … 6 Saturday) that are working days: Monday to Saturday. */
export const WORKING_WEEKDAYS: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 6]);

/** One employee's approved leave: local date (YYYY-MM-DD) → fraction of the day (1 or 0.5). */
export type LeaveDays = ReadonlyMap<string, number>;

/** Calendar facts of one period for one employee. */
export interface WorkingDays {
  /** Working days in the period. */
  total: number;
  /** Working days before today (inside the period). */
  elapsed: number;
  /** Working days from today (or the period's start, if later) to its end. */
  remaining: number;
  /** Working days taken by approved leave, in the whole period (half days count 0.5). */
  leave: number;
  /** Working days net of leave: in the whole period, elapsed and remaining. */
  available: number;
  availableElapsed: number;
  availableRemaining: number;
}

function addDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** True when `day` (YYYY-MM-DD) is a working day. */
export function isWorkingDay(day: string): boolean {
  return WORKING_WEEKDAYS.has(new Date(`${day}T00:00:00Z`).getUTCDay());
}

/** Working days of the period [start, end] seen on `today`, net of `leave`. */
export function workingDays(start: string, end: string, today: string, leave: LeaveDays = new Map()): WorkingDays {
  const out: WorkingDays = { total: 0, elapsed: 0, remaining: 0, leave: 0, available: 0, availableElapsed: 0, availableRemaining: 0 };
  for (let day = start; day <= end; day = addDay(day)) {
    if (!isWorkingDay(day)) continue;
    const onLeave = Math.min(1, Math.max(0, leave.get(day) ?? 0));
    const capacity = 1 - onLeave;
    out.total += 1;
    out.leave += onLeave;
    out.available += capacity;
    if (day < today) {
      out.elapsed += 1;
      out.availableElapsed += capacity;
    } else {
      out.remaining += 1;
      out.availableRemaining += capacity;
    }
  }
  return out;
}

/** What should be achieved by today: target × available elapsed / available in the period; null without a target or capacity. */
export function expectedToDate(target: number | null, days: WorkingDays): number | null {
  if (target === null || days.available === 0) return null;
  return round2((target * days.availableElapsed) / days.available);
}

/**
 * What must be achieved per remaining working day (net of leave) to reach the target; 0 once it
 * is reached, null without a target or without a remaining working day.
 */
export function runRateNeeded(target: number | null, achieved: number, days: WorkingDays): number | null {
  if (target === null || days.availableRemaining === 0) return null;
  return round2(Math.max(0, target - achieved) / days.availableRemaining);
}

/** achieved / target in percent (two decimals); null when the target is absent or 0. */
export function achievementPct(target: number | null, achieved: number): number | null {
  if (target === null || target === 0) return null;
  return round2((achieved * 100) / target);
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

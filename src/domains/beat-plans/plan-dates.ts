import { BeatFrequency } from './beat-plan.entity';

/**
 * Which dates a template falls on (pure; dates are YYYY-MM-DD local days of the workspace).
 *
 * - weekday: ISO, 1 Monday … 7 Sunday.
 * - weekly: every <weekday> from effective_from to effective_to (inclusive; open when null).
 * - fortnightly: every second <weekday>, counted from the week (Monday–Sunday) of effective_from:
 *   the weeks 0, 2, 4, … after it.
 * - monthly: the n-th <weekday> of every month, where n (1–4) is the ordinal of the first <weekday>
 *   on or after effective_from within its month (a plan whose first <weekday> is a fifth one is
 *   refused when it is written: see monthlyOrdinalOf).
 */
export interface PlanDates {
  weekday: number;
  frequency: BeatFrequency;
  effectiveFrom: string;
  effectiveTo: string | null;
}

const DAY_MS = 86_400_000;

function utc(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** ISO weekday of a date: 1 Monday … 7 Sunday. */
export function isoWeekday(day: string): number {
  const d = utc(day).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The Monday of a date's week (YYYY-MM-DD). */
function mondayOf(day: string): number {
  return utc(day).getTime() - (isoWeekday(day) - 1) * DAY_MS;
}

/** The first date on or after `day` that is the ISO weekday `weekday`. */
export function firstWeekdayFrom(day: string, weekday: number): string {
  const shift = (weekday - isoWeekday(day) + 7) % 7;
  return new Date(utc(day).getTime() + shift * DAY_MS).toISOString().slice(0, 10);
}

/** Which occurrence (1–5) of its weekday a date is within its month. */
export function ordinalInMonth(day: string): number {
  return Math.ceil(utc(day).getUTCDate() / 7);
}

/** n of a monthly plan: the ordinal of its first <weekday>; 5 (a fifth occurrence) cannot recur monthly. */
export function monthlyOrdinalOf(plan: Pick<PlanDates, 'weekday' | 'effectiveFrom'>): number {
  return ordinalInMonth(firstWeekdayFrom(plan.effectiveFrom, plan.weekday));
}

/** Whether the template falls on `day`. */
export function fallsOn(plan: PlanDates, day: string): boolean {
  if (day < plan.effectiveFrom || (plan.effectiveTo !== null && day > plan.effectiveTo)) return false;
  if (isoWeekday(day) !== plan.weekday) return false;
  switch (plan.frequency) {
    case BeatFrequency.WEEKLY:
      return true;
    case BeatFrequency.FORTNIGHTLY: {
      const weeks = Math.round((mondayOf(day) - mondayOf(plan.effectiveFrom)) / (7 * DAY_MS));
      return weeks % 2 === 0;
    }
    case BeatFrequency.MONTHLY:
      return ordinalInMonth(day) === monthlyOrdinalOf(plan);
    default:
      return false;
  }
}

/** The dates from `from` to `to` (inclusive) the template falls on, in order. */
export function datesBetween(plan: PlanDates, from: string, to: string): string[] {
  const dates: string[] = [];
  const start = from < plan.effectiveFrom ? plan.effectiveFrom : from;
  for (let t = utc(firstWeekdayFrom(start, plan.weekday)).getTime(); t <= utc(to).getTime(); t += 7 * DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (fallsOn(plan, day)) dates.push(day);
  }
  return dates;
}

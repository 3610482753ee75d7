import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../../errors/app-error';
import { calendarDate } from '../../validation/rules';
import { workspaceToday } from '../workspace/local-day';

/** The longest range a report covers, in days (both ends included): a leap year. */
export const MAX_REPORT_DAYS = 366;

/** A report's range of the workspace's local days, YYYY-MM-DD, both inclusive. */
export interface ReportRange {
  dateFrom: string;
  dateTo: string;
}

const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/**
 * The range a report covers. `dateTo` defaults to today (the workspace's local day), `dateFrom` to
 * the 1st of `dateTo`'s month, so no dates at all is "this month to today". `dateFrom` after
 * `dateTo` is a 400 naming dateFrom; more than 366 days a 400 naming dateTo.
 */
export async function reportRange(em: EntityManager, organizationId: number, input: { dateFrom?: string | null; dateTo?: string | null }): Promise<ReportRange> {
  const from = input.dateFrom == null ? null : calendarDate('dateFrom', input.dateFrom);
  const given = input.dateTo == null ? null : calendarDate('dateTo', input.dateTo);
  const dateTo = given ?? (await workspaceToday(em, organizationId));
  const dateFrom = from ?? `${dateTo.slice(0, 7)}-01`;
  if (dateFrom > dateTo) throw new ValidationError('dateFrom', given === null ? 'must not be after today, where the range ends by default' : 'must not be after dateTo');
  if (daysBetween(dateFrom, dateTo) + 1 > MAX_REPORT_DAYS) {
    throw new ValidationError('dateTo', `must be at most ${MAX_REPORT_DAYS} days from dateFrom, both included (${dateFrom} to ${dateTo} is ${daysBetween(dateFrom, dateTo) + 1})`);
  }
  return { dateFrom, dateTo };
}

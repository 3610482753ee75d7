import { ValidationError } from '../../errors/app-error';
import { calendarDate } from '../../validation/rules';
import type { ExportFilter } from './export-source';

/** The filters of a date range, `dateFrom` and `dateTo`: real calendar dates, read trimmed. */
export type DateRange = { dateFrom?: string; dateTo?: string };

/** A filter of one calendar date (YYYY-MM-DD), read trimmed. */
export const dateFilter = (description: string): ExportFilter<string> => ({
  graphqlType: () => String,
  description,
  // As read (trimmed), not as sent: ' 2026-03-02' would sort before '2026-03-01'.
  check: (name, value) => ({ value: calendarDate(name, value) }),
});

/** `dateFrom` and `dateTo` on what `what` names ("order date"), both inclusive. */
export function dateRangeFilters(what: string): { dateFrom: ExportFilter<string>; dateTo: ExportFilter<string> } {
  return {
    dateFrom: dateFilter(`${what} from, YYYY-MM-DD (inclusive)`),
    dateTo: dateFilter(`${what} to, YYYY-MM-DD (inclusive)`),
  };
}

/** Refuses a range that ends before it starts (400 naming dateFrom). */
export function checkDateRange(range: DateRange): void {
  if (range.dateFrom && range.dateTo && range.dateFrom > range.dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
}

/** The title line of a date range ("Order date: 2026-01-01 to 2026-01-31"), or nothing. */
export function dateRangeLine(label: string, range: DateRange): string[] {
  if (range.dateFrom && range.dateTo) return [`${label}: ${range.dateFrom} to ${range.dateTo}`];
  if (range.dateFrom) return [`${label}: from ${range.dateFrom}`];
  if (range.dateTo) return [`${label}: up to ${range.dateTo}`];
  return [];
}

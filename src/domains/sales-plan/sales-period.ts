import { ValidationError } from '../../errors/app-error';
import { SalesPeriodType } from './sales-target.entity';

/** One month or quarter: its type, first and last day (YYYY-MM-DD). */
export interface SalesPeriod {
  type: SalesPeriodType;
  start: string;
  end: string;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const QUARTER = /^(\d{4})-Q([1-4])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD of a UTC calendar date. */
const isoDay = (year: number, monthIndex: number, day: number) => new Date(Date.UTC(year, monthIndex, day)).toISOString().slice(0, 10);

/** The period of `type` that starts on `start`; a 400 naming `field` unless it is the first day of a month (or quarter). */
export function periodStartingOn(field: string, type: SalesPeriodType, start: string): SalesPeriod {
  const m = DATE.exec(start);
  const year = m ? Number(m[1]) : NaN;
  const month = m ? Number(m[2]) : NaN;
  if (!m || m[3] !== '01' || month < 1 || month > 12 || year < 2000 || year > 2999) {
    throw new ValidationError(field, 'must be the first day of a month, YYYY-MM-01');
  }
  if (type === SalesPeriodType.QUARTER && (month - 1) % 3 !== 0) {
    throw new ValidationError(field, 'must be the first day of a quarter (January, April, July or October)');
  }
  const months = type === SalesPeriodType.QUARTER ? 3 : 1;
  return { type, start, end: isoDay(year, month - 1 + months, 0) };
}

/** `2026-11` (a month) or `2026-Q4` (a quarter); a 400 naming `field` otherwise. */
export function parsePeriod(field: string, text: string): SalesPeriod {
  const value = text.trim();
  const month = MONTH.exec(value);
  if (month && Number(month[1]) >= 2000) return periodStartingOn(field, SalesPeriodType.MONTH, `${month[1]}-${month[2]}-01`);
  const quarter = QUARTER.exec(value);
  if (quarter && Number(quarter[1]) >= 2000) {
    const firstMonth = (Number(quarter[2]) - 1) * 3 + 1;
    return periodStartingOn(field, SalesPeriodType.QUARTER, `${quarter[1]}-${String(firstMonth).padStart(2, '0')}-01`);
  }
  throw new ValidationError(field, 'must be a month YYYY-MM or a quarter YYYY-Qn');
}

/** The month containing a day (YYYY-MM-DD). */
export function monthOf(day: string): SalesPeriod {
  return periodStartingOn('period', SalesPeriodType.MONTH, `${day.slice(0, 7)}-01`);
}

/** A period's name as `period` takes it: `2026-11` or `2026-Q4`. */
export function periodName(period: Pick<SalesPeriod, 'type' | 'start'>): string {
  const month = Number(period.start.slice(5, 7));
  return period.type === SalesPeriodType.QUARTER ? `${period.start.slice(0, 4)}-Q${(month - 1) / 3 + 1}` : period.start.slice(0, 7);
}

import { shiftDay } from '../workspace/local-day';

/** The local days (YYYY-MM-DD) the monthly sales are counted over. */
export interface SalesPeriods {
  today: string;
  yesterday: string;
  /** The 1st of the current month. */
  monthStart: string;
  /** Days of the month elapsed, today included. */
  monthDays: number;
  /** Jan 1 of the current year. */
  yearStart: string;
  /** Jan 1 of last year. */
  prevYearStart: string;
  /** Today's month and day, last year (Feb 29 becomes Feb 28). */
  prevYearEnd: string;
  /** The seven days ending today, oldest first. */
  lastSevenDays: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The periods of the monthly sales for the local day `today` (YYYY-MM-DD). */
export function salesPeriods(today: string): SalesPeriods {
  const [year, month, day] = today.split('-').map(Number);
  const daysInMonthLastYear = new Date(Date.UTC(year - 1, month, 0)).getUTCDate();
  return {
    today,
    yesterday: shiftDay(today, -1),
    monthStart: `${year}-${pad(month)}-01`,
    monthDays: day,
    yearStart: `${year}-01-01`,
    prevYearStart: `${year - 1}-01-01`,
    prevYearEnd: `${year - 1}-${pad(month)}-${pad(Math.min(day, daysInMonthLastYear))}`,
    lastSevenDays: [6, 5, 4, 3, 2, 1, 0].map((back) => shiftDay(today, -back)),
  };
}

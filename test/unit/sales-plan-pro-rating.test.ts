import { describe, expect, it } from 'vitest';
import { achievementPct, expectedToDate, isWorkingDay, runRateNeeded, workingDays } from '../../src/domains/sales-plan/pro-rating';
import { monthOf, parsePeriod, periodName, periodStartingOn } from '../../src/domains/sales-plan/sales-period';
import { SalesPeriodType } from '../../src/domains/sales-plan/sales-target.entity';

/*
 * June 2025: 30 days, Sundays on the 1st, 8th, 15th, 22nd and 29th → 25 working days (Mon–Sat).
 * Wednesday 11 June 2025 as "today": working days before it are 2–7 (6) and 9–10 (2) = 8.
 */
const JUNE = ['2025-06-01', '2025-06-30'] as const;

describe('sales plan: working days', () => {
  it('counts Monday to Saturday', () => {
    expect(isWorkingDay('2025-06-01')).toBe(false); // Sunday
    expect(isWorkingDay('2025-06-02')).toBe(true); // Monday
    expect(isWorkingDay('2025-06-07')).toBe(true); // Saturday
    expect(workingDays(...JUNE, '2025-06-11')).toEqual({ total: 25, elapsed: 8, remaining: 17, leave: 0, available: 25, availableElapsed: 8, availableRemaining: 17 });
  });

  it('a period over before today is fully elapsed; one after today has nothing elapsed', () => {
    expect(workingDays(...JUNE, '2025-07-01')).toMatchObject({ total: 25, elapsed: 25, remaining: 0, availableRemaining: 0 });
    expect(workingDays(...JUNE, '2025-05-20')).toMatchObject({ total: 25, elapsed: 0, remaining: 25, availableElapsed: 0 });
    // Today is counted as remaining (still being worked), the last day included.
    expect(workingDays(...JUNE, '2025-06-30')).toMatchObject({ elapsed: 24, remaining: 1 });
  });

  it('takes approved leave off working days only, half days as 0.5', () => {
    const leave = new Map([
      ['2025-06-03', 1], // Tuesday, elapsed
      ['2025-06-08', 1], // Sunday: not a working day, ignored
      ['2025-06-10', 0.5], // Tuesday half day, elapsed
      ['2025-06-11', 0.5], // today, half day: remaining
      ['2025-06-20', 1], // Friday, remaining
      ['2025-07-01', 1], // outside the period
    ]);
    expect(workingDays(...JUNE, '2025-06-11', leave)).toEqual({
      total: 25,
      elapsed: 8,
      remaining: 17,
      leave: 3,
      available: 22,
      availableElapsed: 6.5,
      availableRemaining: 15.5,
    });
  });

  it('expected-to-date and run-rate follow the days net of leave', () => {
    const leave = new Map([
      ['2025-06-03', 1],
      ['2025-06-10', 0.5],
      ['2025-06-11', 0.5],
      ['2025-06-20', 1],
    ]);
    const days = workingDays(...JUNE, '2025-06-11', leave);
    // 22 available days, 6.5 of them elapsed: 10,000 × 6.5 / 22 = 2954.545… → 2954.55
    expect(expectedToDate(10_000, days)).toBe(2954.55);
    // (10,000 − 3,000) / 15.5 remaining = 451.6129… → 451.61
    expect(runRateNeeded(10_000, 3_000, days)).toBe(451.61);
    // Reached: nothing more is needed per day.
    expect(runRateNeeded(10_000, 12_000, days)).toBe(0);
    expect(expectedToDate(null, days)).toBeNull();
    expect(runRateNeeded(null, 5, days)).toBeNull();
  });

  it('a fully elapsed period expects the whole target and needs no run-rate; a future one expects nothing yet', () => {
    const past = workingDays(...JUNE, '2025-08-01');
    expect(expectedToDate(2_500, past)).toBe(2_500);
    expect(runRateNeeded(2_500, 100, past)).toBeNull();
    const future = workingDays(...JUNE, '2025-01-01');
    expect(expectedToDate(2_500, future)).toBe(0);
    expect(runRateNeeded(2_500, 0, future)).toBe(100); // 2,500 / 25
  });

  it('leave on every working day leaves no capacity: no expectation and no run-rate', () => {
    const all = new Map<string, number>();
    for (let d = 1; d <= 30; d++) all.set(`2025-06-${String(d).padStart(2, '0')}`, 1);
    const days = workingDays(...JUNE, '2025-06-11', all);
    expect(days).toMatchObject({ total: 25, leave: 25, available: 0 });
    expect(expectedToDate(1_000, days)).toBeNull();
    expect(runRateNeeded(1_000, 0, days)).toBeNull();
  });

  it('achievement % is null for an absent or zero target', () => {
    expect(achievementPct(1_000, 249)).toBe(24.9);
    expect(achievementPct(3, 1)).toBe(33.33);
    expect(achievementPct(0, 10)).toBeNull();
    expect(achievementPct(null, 10)).toBeNull();
  });
});

describe('sales plan: periods', () => {
  it('parses months and quarters and derives their last day', () => {
    expect(parsePeriod('period', '2026-11')).toEqual({ type: SalesPeriodType.MONTH, start: '2026-11-01', end: '2026-11-30' });
    expect(parsePeriod('period', '2028-02')).toEqual({ type: SalesPeriodType.MONTH, start: '2028-02-01', end: '2028-02-29' });
    expect(parsePeriod('period', '2026-Q4')).toEqual({ type: SalesPeriodType.QUARTER, start: '2026-10-01', end: '2026-12-31' });
    expect(parsePeriod('period', '2026-Q1')).toEqual({ type: SalesPeriodType.QUARTER, start: '2026-01-01', end: '2026-03-31' });
    expect(monthOf('2026-11-27')).toEqual({ type: SalesPeriodType.MONTH, start: '2026-11-01', end: '2026-11-30' });
    expect(periodName({ type: SalesPeriodType.QUARTER, start: '2026-07-01' })).toBe('2026-Q3');
    expect(periodName({ type: SalesPeriodType.MONTH, start: '2026-07-01' })).toBe('2026-07');
  });

  it('refuses anything else, naming the field', () => {
    for (const text of ['2026-13', '2026-Q5', '2026-11-01', 'Q4-2026', '26-11', '']) {
      expect(() => parsePeriod('period', text)).toThrow(/must be a month YYYY-MM or a quarter YYYY-Qn/);
    }
    expect(() => periodStartingOn('periodStart', SalesPeriodType.MONTH, '2026-11-02')).toThrow(/first day of a month/);
    expect(() => periodStartingOn('periodStart', SalesPeriodType.QUARTER, '2026-11-01')).toThrow(/first day of a quarter/);
    expect(periodStartingOn('periodStart', SalesPeriodType.QUARTER, '2026-04-01').end).toBe('2026-06-30');
  });
});

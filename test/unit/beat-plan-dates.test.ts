import { describe, expect, it } from 'vitest';
import { BeatFrequency } from '../../src/domains/beat-plans/beat-plan.entity';
import { mergeDayOutlets } from '../../src/domains/beat-plans/day-view';
import { datesBetween, fallsOn, isoWeekday, monthlyOrdinalOf } from '../../src/domains/beat-plans/plan-dates';

/** Which dates a beat plan template falls on, and the merge of a day's plan with its visits. */
describe('beat plan dates', () => {
  it('ISO weekdays: 2026-11-30 is a Monday (1), 2026-12-06 a Sunday (7)', () => {
    expect(isoWeekday('2026-11-30')).toBe(1);
    expect(isoWeekday('2026-12-06')).toBe(7);
  });

  it('weekly: every weekday inside the effective dates', () => {
    const plan = { weekday: 1, frequency: BeatFrequency.WEEKLY, effectiveFrom: '2026-12-02', effectiveTo: '2026-12-28' };
    expect(datesBetween(plan, '2026-11-01', '2027-01-31')).toEqual(['2026-12-07', '2026-12-14', '2026-12-21', '2026-12-28']);
    expect(fallsOn(plan, '2026-12-08')).toBe(false);
  });

  it('fortnightly: every second week counted from effective_from’s week', () => {
    // effective_from is a Wednesday; its week's Monday (2026-11-30) is before it, so the first date is the Friday of that week.
    const plan = { weekday: 5, frequency: BeatFrequency.FORTNIGHTLY, effectiveFrom: '2026-12-02', effectiveTo: null };
    expect(datesBetween(plan, '2026-12-01', '2027-01-10')).toEqual(['2026-12-04', '2026-12-18', '2027-01-01']);
    // A Monday plan from a Wednesday: its first Monday (12-07) is in week 1 (odd), so it starts on 12-14.
    const monday = { ...plan, weekday: 1 };
    expect(datesBetween(monday, '2026-12-01', '2027-01-10')).toEqual(['2026-12-14', '2026-12-28']);
  });

  it('monthly: the n-th weekday of every month, n from the first weekday on or after effective_from', () => {
    const plan = { weekday: 2, frequency: BeatFrequency.MONTHLY, effectiveFrom: '2026-12-08', effectiveTo: null }; // 2nd Tuesday
    expect(monthlyOrdinalOf(plan)).toBe(2);
    expect(datesBetween(plan, '2026-12-01', '2027-03-31')).toEqual(['2026-12-08', '2027-01-12', '2027-02-09', '2027-03-09']);
    expect(monthlyOrdinalOf({ weekday: 2, effectiveFrom: '2026-12-29' })).toBe(5); // refused when written
  });
});

describe('day view merge', () => {
  const planned = [
    { outletId: 11, outletName: 'B', sequence: 2 },
    { outletId: 10, outletName: 'A', sequence: 1 },
    { outletId: 12, outletName: 'C', sequence: 3 },
  ];

  it('visited = a completed visit; productive = a completed visit with an order; in visiting order', () => {
    const merged = mergeDayOutlets(planned, [
      { visitId: 1, outletId: 10, status: 3, outcome: 2, orderId: null }, // completed, no sale
      { visitId: 2, outletId: 11, status: 3, outcome: 1, orderId: 77 }, // completed with an order
      { visitId: 3, outletId: 12, status: 4, outcome: null, orderId: null }, // abandoned
      { visitId: 4, outletId: 99, status: 3, outcome: 1, orderId: 78 }, // not on the plan: ignored
    ]);
    expect(merged).toEqual([
      { outletId: 10, outletName: 'A', sequence: 1, visited: true, productive: false, visitId: 1 },
      { outletId: 11, outletName: 'B', sequence: 2, visited: true, productive: true, visitId: 2 },
      { outletId: 12, outletName: 'C', sequence: 3, visited: false, productive: false, visitId: 3 },
    ]);
  });

  it('an in-progress visit is not visited; a later productive visit wins over a no-sale one', () => {
    const merged = mergeDayOutlets(planned.slice(1, 2), [
      { visitId: 5, outletId: 10, status: 2, outcome: null, orderId: null },
      { visitId: 6, outletId: 10, status: 3, outcome: 2, orderId: null },
      { visitId: 7, outletId: 10, status: 3, outcome: 1, orderId: 9 },
    ]);
    expect(merged[0]).toMatchObject({ visited: true, productive: true, visitId: 7 });
    expect(mergeDayOutlets(planned.slice(1, 2), [{ visitId: 8, outletId: 10, status: 2, outcome: null, orderId: null }])[0]).toMatchObject({
      visited: false,
      productive: false,
      visitId: 8,
    });
    expect(mergeDayOutlets(planned.slice(1, 2), [])[0]).toMatchObject({ visited: false, productive: false, visitId: null });
  });
});

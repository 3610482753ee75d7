import { describe, expect, it } from 'vitest';
import { scoreDay } from '../../src/domains/reports/beat-productivity.score';

describe('scoreDay', () => {
  const perfect = { coveragePct: 100, strikeRatePct: 100, geoVerifiedPct: 100, linesPerCall: 3, timeInFieldMinutes: 360, leaveFraction: 0 };

  it('gives 100 at every target and caps each component at its weight', () => {
    expect(scoreDay(perfect)).toMatchObject({ score: 100, reasons: [] });
    expect(scoreDay({ ...perfect, strikeRatePct: 150, linesPerCall: 7, timeInFieldMinutes: 600 }).score).toBe(100);
  });

  it('explains every component under half its weight, and only those', () => {
    const day = scoreDay({ coveragePct: 40, strikeRatePct: 50, geoVerifiedPct: 0, linesPerCall: 1.4, timeInFieldMinutes: 90, leaveFraction: 0 });
    // 12 + 15 + 0 + 4.67 + 2.5
    expect(day.components.map((c) => c.points)).toEqual([12, 15, 0, 4.67, 2.5]);
    expect(day.score).toBe(34.2);
    expect(day.reasons).toEqual([
      'Coverage: 40% of the planned outlets were visited (target 100%). 12 of 30 points.',
      'Geo-verification: 0% of the visits made in person were verified at the outlet (target 100%). 0 of 20 points.',
      'Lines per call: 1.4 distinct variants per productive call (target 3). 4.67 of 10 points.',
      'Time in field: 90 minutes from first check-in to last check-out (target 360). 2.5 of 10 points.',
    ]);
  });

  it('halves the time-in-field target on a half day of leave', () => {
    const day = scoreDay({ ...perfect, timeInFieldMinutes: 180, leaveFraction: 0.5 });
    expect(day.components[4]).toEqual({ name: 'time_in_field', value: 180, target: 180, weight: 10, points: 10 });
    expect(day.score).toBe(100);
  });
});

import type { ScoreComponent } from './beat-productivity.types';

/** The score's components: weight (points) and the figure that earns all of it. */
export const SCORE_WEIGHTS = {
  coverage: { weight: 30, target: 100 },
  strike_rate: { weight: 30, target: 100 },
  geo_verification: { weight: 20, target: 100 },
  lines_per_call: { weight: 10, target: 3 },
  time_in_field: { weight: 10, target: 360 },
} as const;

/** The figures a day is scored on. */
export interface DayFigures {
  /** Percentages, 0–100 (or more for strike rate, capped by the target). */
  coveragePct: number;
  strikeRatePct: number;
  geoVerifiedPct: number;
  linesPerCall: number;
  timeInFieldMinutes: number;
  /** 0.5 halves the time-in-field target. */
  leaveFraction: number;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

const EXPLAIN: Record<keyof typeof SCORE_WEIGHTS, (c: ScoreComponent) => string> = {
  coverage: (c) => `Coverage: ${c.value}% of the planned outlets were visited (target ${c.target}%).`,
  strike_rate: (c) => `Strike rate: orders on ${c.value}% of the calls due (target ${c.target}%).`,
  geo_verification: (c) => `Geo-verification: ${c.value}% of the visits made in person were verified at the outlet (target ${c.target}%).`,
  lines_per_call: (c) => `Lines per call: ${c.value} distinct variants per productive call (target ${c.target}).`,
  time_in_field: (c) => `Time in field: ${c.value} minutes from first check-in to last check-out (target ${c.target}).`,
};

/**
 * The day's score, 0–100: each component gives weight × min(value ÷ target, 1) points; the score is
 * their sum to 1 decimal. `reasons` explains, in a sentence each, every component under half its weight.
 */
export function scoreDay(f: DayFigures): { score: number; components: ScoreComponent[]; reasons: string[] } {
  const values: Record<keyof typeof SCORE_WEIGHTS, number> = {
    coverage: f.coveragePct,
    strike_rate: f.strikeRatePct,
    geo_verification: f.geoVerifiedPct,
    lines_per_call: f.linesPerCall,
    time_in_field: f.timeInFieldMinutes,
  };
  const components = (Object.keys(SCORE_WEIGHTS) as Array<keyof typeof SCORE_WEIGHTS>).map((name) => {
    const { weight } = SCORE_WEIGHTS[name];
    const target = name === 'time_in_field' ? SCORE_WEIGHTS.time_in_field.target * (1 - f.leaveFraction) : SCORE_WEIGHTS[name].target;
    const value = values[name];
    const points = target <= 0 ? weight : weight * Math.min(value / target, 1);
    return { name, value, target, weight, points: round(points, 2) };
  });
  const score = round(components.reduce((sum, c) => sum + c.points, 0), 1);
  const reasons = components.filter((c) => c.points < c.weight / 2).map((c) => `${EXPLAIN[c.name as keyof typeof SCORE_WEIGHTS](c)} ${c.points} of ${c.weight} points.`);
  return { score, components, reasons };
}

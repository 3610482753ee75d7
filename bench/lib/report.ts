import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { shown } from './stats';

/** One measured figure: ours against its baseline from the same run. */
export interface Figure {
  name: string;
  unit: string;
  ours: number;
  baseline: number | null;
  /** ours / baseline. */
  ratio: number | null;
  goal: string;
  met: boolean;
}

/** What a goal checks, given a figure's values. */
export interface Goal {
  text: string;
  met(values: { ours: number; baseline: number | null; ratio: number | null }): boolean;
}

export function figure(name: string, unit: string, ours: number, baseline: number | null, goal: Goal): Figure {
  const ratio = baseline ? ours / baseline : null;
  return { name, unit, ours, baseline, ratio, goal: goal.text, met: goal.met({ ours, baseline, ratio }) };
}

/** Goal: ours / baseline at least `min` (throughput). */
export const ratioAtLeast = (min: number, of = 'the baseline'): Goal => ({
  text: `≥ ${min * 100}% of ${of}`,
  met: ({ ratio }) => ratio !== null && ratio >= min,
});

/** Goal: ours / baseline at most `max` (time, memory growth). */
export const ratioAtMost = (max: number, of = 'the baseline'): Goal => ({
  text: `≤ ${max}× ${of}`,
  met: ({ ratio }) => ratio !== null && ratio <= max,
});

/** Goal: ours at most `max` in the figure's unit. */
export const atMost = (max: number, unit: string): Goal => ({ text: `≤ ${max} ${unit}`, met: ({ ours }) => ours <= max });

/** Goal: ours at least `min` in the figure's unit. */
export const atLeast = (min: number, unit: string): Goal => ({ text: `≥ ${min} ${unit}`, met: ({ ours }) => ours >= min });

export interface Machine {
  cores: number;
  memory: string;
  cpu: string;
  node: string;
  postgres: string;
}

export function machineOf(postgresVersion: string): Machine {
  return {
    cores: os.cpus().length,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    postgres: postgresVersion,
  };
}

/** The figures as one plain-text table (also valid Markdown). */
export function table(figures: Figure[]): string {
  const rows = [
    ['figure', 'ours', 'baseline', 'ratio', 'goal', 'met'],
    ...figures.map((f) => [
      `${f.name} (${f.unit})`,
      shown(f.ours),
      shown(f.baseline),
      f.ratio === null ? '—' : `${shown(f.ratio)}×`,
      f.goal,
      f.met ? 'yes' : 'NO',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

export function writeResults(file: string, machine: Machine, figures: Figure[], extra: object): void {
  writeFileSync(file, `${JSON.stringify({ machine, ...extra, figures }, null, 2)}\n`);
}

/** Goal: every one of `goals` (their texts joined by "and"). */
export const allOf = (...goals: Goal[]): Goal => ({
  text: goals.map((g) => g.text).join(' and '),
  met: (values) => goals.every((g) => g.met(values)),
});

/** Goal: none; the figure is reported (`text` says what else to read beside it). */
export const reported = (text = 'reported'): Goal => ({ text, met: () => true });

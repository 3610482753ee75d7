import type { Ageing } from '../ledger/ledger-statement';
import { shiftDay } from '../workspace/local-day';

/*
 * The portal's "AI insight": a deterministic summary of the caller's own data, no language model.
 * Every item says what it found in words and carries the figures and the source rows (order ids,
 * the period, the statement's ageing, the crate balances) it was computed from, so a reader (or a
 * model that rephrases it) can check each number.
 */

/** Weeks of history a pattern is read from (before the current week). */
export const INSIGHT_WEEKS = 12;
/** A variant ordered on a weekday in at least this many of those weeks is a usual order. */
export const USUAL_MIN_WEEKS = 4;

const WEEKDAYS = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];

/** A paid order line of the caller (not cancelled), as the insight reads it. */
export interface InsightLine {
  orderId: number;
  day: string;
  variantId: number;
  quantity: number;
}

export interface InsightVariant {
  id: number;
  label: string;
  price: number;
  sellable: boolean;
}

export interface InsightCrate {
  crateTypeId: number;
  name: string;
  balance: number;
  ageDays: number | null;
  value: number;
}

export interface InsightItem {
  kind: 'due_to_reorder' | 'usual_order' | 'no_pattern' | 'balance' | 'crates' | 'due_to_buy';
  text: string;
  figures: Record<string, unknown>;
  source: Record<string, unknown>;
}

export interface Insight {
  date: string;
  /** The weeks patterns are read from: [from, to], before the current week. */
  period: { from: string; to: string; weeks: number };
  /** The current week: the 7 days ending today. */
  thisWeek: { from: string; to: string };
  items: InsightItem[];
}

const DAY_MS = 86_400_000;
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** 0 Monday … 6 Sunday. */
const weekdayOf = (day: string) => (new Date(ms(day)).getUTCDay() + 6) % 7;
const money = (n: number) => `₹${n.toFixed(2)}`;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The window of `today`: the current week (today and the 6 days before) and the 12 weeks before it. */
export function insightWindow(today: string) {
  return {
    period: { from: shiftDay(today, -7 * (INSIGHT_WEEKS + 1) + 1), to: shiftDay(today, -7), weeks: INSIGHT_WEEKS },
    thisWeek: { from: shiftDay(today, -6), to: today },
  };
}

/** Computes the insight from the caller's lines, variants, statement and crates. Pure and deterministic. */
export function insightOf(input: {
  today: string;
  lines: InsightLine[];
  variants: Map<number, InsightVariant>;
  balance: { closing: number; ageing: Ageing };
  crates: InsightCrate[];
}): Insight {
  const { today } = input;
  const { period, thisWeek } = insightWindow(today);
  const items: InsightItem[] = [];
  const history = input.lines.filter((l) => l.day >= period.from && l.day <= period.to);
  const current = input.lines.filter((l) => l.day >= thisWeek.from && l.day <= thisWeek.to);

  // Usual orders: (variant, weekday) → the weeks it was ordered in, its quantity and its orders.
  const patterns = new Map<string, { variantId: number; weekday: number; weeks: Set<number>; quantity: number; orders: Set<number> }>();
  for (const l of history) {
    const weekday = weekdayOf(l.day);
    const key = `${l.variantId}:${weekday}`;
    const p = patterns.get(key) ?? { variantId: l.variantId, weekday, weeks: new Set<number>(), quantity: 0, orders: new Set<number>() };
    p.weeks.add(Math.floor((ms(today) - ms(l.day)) / DAY_MS / 7));
    p.quantity += l.quantity;
    p.orders.add(l.orderId);
    patterns.set(key, p);
  }
  const usual = [...patterns.values()]
    .filter((p) => p.weeks.size >= USUAL_MIN_WEEKS && input.variants.get(p.variantId)?.sellable)
    .sort((a, b) => b.weeks.size - a.weeks.size || a.weekday - b.weekday || a.variantId - b.variantId);
  let dueValue = 0;
  const dueVariants: number[] = [];
  for (const p of usual) {
    const variant = input.variants.get(p.variantId)!;
    const average = Math.round(p.quantity / p.weeks.size);
    const thisWeekLines = current.filter((l) => l.variantId === p.variantId);
    const orderedThisWeek = thisWeekLines.reduce((sum, l) => sum + l.quantity, 0);
    const due = orderedThisWeek === 0;
    const value = round2(average * variant.price);
    if (due) {
      dueValue += value;
      dueVariants.push(p.variantId);
    }
    items.push({
      kind: due ? 'due_to_reorder' : 'usual_order',
      text:
        `You usually order ${average} × ${variant.label} on ${WEEKDAYS[p.weekday]} (${p.weeks.size} of the last ${INSIGHT_WEEKS} weeks); ` +
        (due ? `none this week (about ${money(value)} at today's price).` : `${orderedThisWeek} ordered this week.`),
      figures: {
        productVariantId: p.variantId, weekday: WEEKDAYS[p.weekday].slice(0, -1), averageQuantity: average, totalQuantity: p.quantity,
        weeksOrdered: p.weeks.size, weeksInPeriod: INSIGHT_WEEKS, orderedThisWeek, todaysPrice: variant.price, dueValue: due ? value : 0,
      },
      source: { orders: [...p.orders].sort((a, b) => a - b), period, thisWeek: { ...thisWeek, orders: [...new Set(thisWeekLines.map((l) => l.orderId))].sort((a, b) => a - b) } },
    });
  }
  if (usual.length === 0) {
    items.push({
      kind: 'no_pattern',
      text: `No product was ordered on the same weekday in ${USUAL_MIN_WEEKS} or more of the last ${INSIGHT_WEEKS} weeks, so nothing is due by habit.`,
      figures: { ordersInPeriod: new Set(history.map((l) => l.orderId)).size, linesInPeriod: history.length, minWeeks: USUAL_MIN_WEEKS },
      source: { orders: [...new Set(history.map((l) => l.orderId))].sort((a, b) => a - b), period },
    });
  }
  if (dueVariants.length > 0) {
    items.push({
      kind: 'due_to_buy',
      text: `Due to buy this week: ${dueVariants.length} usual item${dueVariants.length === 1 ? '' : 's'} worth about ${money(round2(dueValue))} at today's prices.`,
      figures: { items: dueVariants.length, value: round2(dueValue) },
      source: { productVariantIds: dueVariants, period, thisWeek },
    });
  }

  const { closing, ageing } = input.balance;
  const buckets: Array<[keyof Ageing, string]> = [['over30Days', 'over 30 days'], ['days16To30', '16-30 days'], ['days8To15', '8-15 days'], ['days0To7', '0-7 days']];
  const oldest = buckets.find(([k]) => ageing[k] > 0);
  items.push({
    kind: 'balance',
    text:
      closing > 0
        ? `You owe ${money(closing)}${oldest ? `; the oldest ${money(ageing[oldest[0]])} is ${oldest[1]} old` : ''}.`
        : closing < 0
          ? `You have ${money(-closing)} paid in advance.`
          : 'Nothing is outstanding on your account.',
    figures: { outstanding: closing, oldestBucket: oldest?.[1] ?? null, oldestBucketAmount: oldest ? ageing[oldest[0]] : 0, advance: ageing.advance },
    source: { ledgerStatement: { to: today, closingBalance: closing, ageing } },
  });

  const held = input.crates.filter((c) => c.balance > 0);
  if (held.length > 0) {
    const count = held.reduce((sum, c) => sum + c.balance, 0);
    const ages = held.map((c) => c.ageDays ?? 0);
    const oldestAge = Math.max(...ages);
    const value = round2(held.reduce((sum, c) => sum + c.value, 0));
    items.push({
      kind: 'crates',
      text: `You hold ${count} crate${count === 1 ? '' : 's'} (${money(value)} deposit) to return; the oldest has been with you ${oldestAge} day${oldestAge === 1 ? '' : 's'}.`,
      figures: { held: count, depositValue: value, oldestAgeDays: oldestAge },
      source: { crateBalances: held.map((c) => ({ crateTypeId: c.crateTypeId, name: c.name, balance: c.balance, ageDays: c.ageDays })) },
    });
  }
  return { date: today, period, thisWeek, items };
}

import { VisitOutcome, VisitStatus } from '../visits/visit.entity';
import type { VisitFact as Visit } from '../visits/visit-facts';

/** What the day view needs of one visit of the day (the visits domain's `visitFacts`). */
export type VisitFact = Pick<Visit, 'visitId' | 'outletId' | 'status' | 'outcome' | 'orderId'>;

/** A planned outlet of a day. */
export interface PlannedOutlet {
  outletId: number;
  outletName: string;
  sequence: number;
}

/** A planned outlet with what happened there that day. */
export interface DayOutletView extends PlannedOutlet {
  /** A completed visit exists. */
  visited: boolean;
  /** A completed visit ended with an order. */
  productive: boolean;
  /** The visit shown: the productive one, else a completed one, else the latest other one; null without visits. */
  visitId: number | null;
}

/**
 * Merges a day's planned outlets (in visiting order) with that day's visits of the employee.
 * Visits of outlets not on the plan are ignored (they are not planned calls).
 */
export function mergeDayOutlets(planned: readonly PlannedOutlet[], visits: readonly VisitFact[]): DayOutletView[] {
  const byOutlet = new Map<number, VisitFact[]>();
  for (const v of visits) byOutlet.set(v.outletId, [...(byOutlet.get(v.outletId) ?? []), v]);
  return [...planned]
    .sort((a, b) => a.sequence - b.sequence)
    .map((outlet) => {
      const own = byOutlet.get(outlet.outletId) ?? [];
      const completed = own.filter((v) => v.status === VisitStatus.COMPLETED);
      const productive = completed.filter((v) => v.outcome === VisitOutcome.ORDER);
      const shown = productive[0] ?? completed[0] ?? [...own].sort((a, b) => b.visitId - a.visitId)[0] ?? null;
      return { ...outlet, visited: completed.length > 0, productive: productive.length > 0, visitId: shown?.visitId ?? null };
    });
}

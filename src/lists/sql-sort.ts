import type { ResolvedSort } from './sort';

/**
 * A resolved order of SQL columns, for the lists read by raw statements, which find a page's ids
 * in a `picked` CTE and then build its rows: the CTE carries each key as `sort_<n>`, orders and
 * cuts by the columns, and the rows are aggregated in the same order by those copies. The
 * columns come from the list's `Sortable` (constants), never from the request.
 */
export function pickedOrder(sort: ResolvedSort<string>): { keys: string; orderBy: string; pickedOrderBy: string } {
  return {
    keys: sort.map(({ by }, n) => `${by} as sort_${n}`).join(', '),
    orderBy: sort.map(({ by, direction }) => `${by} ${direction}`).join(', '),
    pickedOrderBy: sort.map(({ direction }, n) => `picked.sort_${n} ${direction}`).join(', '),
  };
}

import type { ExportColumn } from '../export-columns';
import type { ExportFilterName, ExportFilters } from '../export-kinds';

/** Names of the records filters point at, for the title lines. */
export interface FilterNames {
  productionUnit?: string;
}

/** FROM … WHERE … of an export's rows, with its bound values (`?` placeholders). */
export interface RowsQuery {
  select: string;
  from: string;
  orderBy: string;
  params: unknown[];
}

/** One kind of export: its columns, the filters it takes and the SQL of its rows. */
export interface ExportSource {
  title: string;
  filters: readonly ExportFilterName[];
  orientation: 'portrait' | 'landscape';
  columns: readonly ExportColumn[];
  /**
   * The rows of one workspace. Raw SQL bypasses the ORM's tenant filter, so every table is
   * bound to `organizationId` here. Select aliases are the columns' keys; timestamps are
   * formatted as the workspace's wall-clock time (`workspace_config` joined as `wc`).
   */
  rows(organizationId: number, filters: ExportFilters): RowsQuery;
  /** One line per filter applied, e.g. "Status: Approved". */
  describe(filters: ExportFilters, names: FilterNames): string[];
}

/** `to_char` of a timestamp column as the workspace's wall-clock time, 'YYYY-MM-DDTHH:MI:SS'. */
export const localTimestamp = (column: string) => `to_char(${column} at time zone wc.time_zone, 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** `to_char` of a date column, 'YYYY-MM-DD'. */
export const isoDate = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

/** The "Order date" line of a date range, or nothing. */
export function dateRangeLine(label: string, f: ExportFilters): string[] {
  if (f.dateFrom && f.dateTo) return [`${label}: ${f.dateFrom} to ${f.dateTo}`];
  if (f.dateFrom) return [`${label}: from ${f.dateFrom}`];
  if (f.dateTo) return [`${label}: up to ${f.dateTo}`];
  return [];
}

/** Conditions on `sales_order o`'s order_date for a date range. */
export function orderDateConditions(f: ExportFilters, where: string[], params: unknown[]): void {
  if (f.dateFrom) {
    where.push('o.order_date >= ?');
    params.push(f.dateFrom);
  }
  if (f.dateTo) {
    where.push('o.order_date <= ?');
    params.push(f.dateTo);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tenant-sql';
import type { ExportColumn } from './export-columns';

/** An export's filters by name, as given and as a job keeps them (JSON). */
export type ExportFilters = { readonly [name: string]: string | number | undefined };

/** Where a filter's value is checked: the caller's workspace. */
export interface FilterScope {
  em: EntityManager;
  organizationId: number;
}

/** A value as checked, and the name of the record it points at, for the title lines. */
export interface CheckedValue<T> {
  value: T;
  label?: string;
}

/** A filter an export kind takes: its GraphQL input type, what it selects, and how a value is checked. */
export interface ExportFilter<T extends string | number = string | number> {
  /** Its GraphQL input type: String, Int or a registered enum. */
  readonly graphqlType: () => unknown;
  /** What it selects, for GraphQL's ExportFiltersInput. */
  readonly description: string;
  /** Checks a given value for the workspace (400 naming the filter) and returns it as the rows' SQL takes it. */
  check?(name: string, value: T, scope: FilterScope): CheckedValue<T> | Promise<CheckedValue<T>>;
}

/** The select list, FROM … WHERE … (with its bound values) and ORDER BY of an export's rows. */
export interface RowsQuery {
  select: string;
  from: Sql;
  orderBy: string;
  /**
   * A FROM … WHERE … with exactly as many rows as `from`: the root table, the filters, and only
   * the joins the filters need. Each join it leaves out finds exactly one row (a composite foreign
   * key on a NOT NULL column, one configuration per workspace) or is a left join on a unique key
   * (figures in BENCHMARKS.md, "Figures behind the code").
   */
  count: Sql;
}

/** One row of an export by its columns' keys: SQL's raw values (numerics as text) or a computed row's. */
export type ExportRow = Record<string, unknown>;

/** Rows read from the database through a cursor, `rows` at a time: any number of them. */
export interface QueriedRows<F extends ExportFilters = ExportFilters> {
  /**
   * The rows of one workspace. Raw SQL bypasses the ORM's tenant filter, so the root table is
   * bound to `organizationId` and every joined table matched on organization_id (tenant-sql.ts).
   * Select aliases are the columns' keys; timestamps are formatted as the workspace's wall-clock
   * time (`workspace_config` joined as `wc`).
   */
  rows(organizationId: number, filters: F): RowsQuery;
}

/**
 * Rows a domain computes (a report's figures, scored in TypeScript), held in memory while the file is
 * written: for kinds whose filters bound them (one day's employees). Values as SQL would give them:
 * numbers, text, dates 'YYYY-MM-DD', timestamps as the workspace's wall-clock 'YYYY-MM-DDTHH:MI:SS'.
 */
export interface ComputedRows<F extends ExportFilters = ExportFilters> {
  computedRows(scope: FilterScope, filters: F): Promise<ComputedExport>;
}

/** A computed kind's rows, and lines for under the title that only the computation knows (a statement's balances). */
export interface ComputedExport {
  rows: ExportRow[];
  lines?: string[];
}

/**
 * One kind of export, declared by the domain whose records it lists (its module's `exports`): its
 * name, columns, filters and its rows (queried or computed). The exports domain checks, counts and writes it.
 */
export interface ExportKind<F extends ExportFilters = ExportFilters> {
  /** Its name: the GraphQL ExportKind value (upper-cased), a job's `kind` and the file name's start. */
  readonly kind: string;
  /** What one row is, for GraphQL's ExportKind. */
  readonly description: string;
  /** The title printed on a PDF and named in an XLSX. */
  readonly title: string;
  readonly filters: { readonly [K in keyof F]-?: ExportFilter<NonNullable<F[K]>> };
  /** Checks the filters together, once each is checked (a date range that ends before it starts). */
  checkTogether?(filters: F): void;
  /**
   * The values of filters left out that the file depends on (a report's day, "today"): fixed when the
   * export is asked for and kept by its job, so a job run after midnight still writes the day asked.
   */
  defaults?(scope: FilterScope, filters: F): Promise<Partial<F>>;
  readonly orientation: 'portrait' | 'landscape';
  readonly columns: readonly ExportColumn[];
  /** One line per filter applied, e.g. "Status: Approved"; `labels` names the records filters point at. */
  describe(filters: F, labels: { readonly [K in keyof F]?: string }): string[];
}

/** An export kind and where its rows come from. */
export type ExportSource<F extends ExportFilters = ExportFilters> = ExportKind<F> & (QueriedRows<F> | ComputedRows<F>);

/** Declares a domain's export kind; only for the type check of its filters. */
export function defineExport<F extends ExportFilters>(source: ExportKind<F> & QueriedRows<F>): ExportKind & QueriedRows;
export function defineExport<F extends ExportFilters>(source: ExportKind<F> & ComputedRows<F>): ExportKind & ComputedRows;
export function defineExport<F extends ExportFilters>(source: ExportSource<F>): ExportSource {
  return source as unknown as ExportSource;
}

/** `to_char` of a timestamp column as the workspace's wall-clock time, 'YYYY-MM-DDTHH:MI:SS'. */
export const localTimestamp = (column: string) => `to_char(${column} at time zone wc.time_zone, 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** `to_char` of a date column, 'YYYY-MM-DD'. */
export const isoDate = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

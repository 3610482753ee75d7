import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, ValidationError } from '../../errors/app-error';

/*
 * What one kind of import declares (product variants, schemes, the rate list, …). The imports
 * service does everything around it: it reads the file (CSV or XLSX), maps its header row to the
 * kind's columns, calls `parse` on every row, `check` on the rows that parsed, and then, only when
 * no row failed, `write` in one transaction (a dry run calls `write` too, in a transaction that is
 * rolled back, so its insert/update/unchanged figures are the real ones). A kind is registered by
 * one line in import-kinds.ts.
 */

/** One column of a kind's file: its header (matched without regard to case or surrounding spaces). */
export interface ImportColumn {
  header: string;
  /** A row without a value here fails (the service checks it before `parse`). */
  required: boolean;
  /** The template's example row. */
  example: string | number;
  /** What the value is, for the template's notes and the API docs. */
  description: string;
  /** Template column width in characters (default 16). */
  width?: number;
}

/** A row's values by header (as the kind's columns name them), trimmed; '' when empty or absent. */
export type RowValues = Readonly<Record<string, string>>;

/** Why a row failed: the column (one of the kind's headers, or '' for the row as a whole) and a message. */
export interface RowError {
  field: string;
  message: string;
}

/** A row that parsed, with its spreadsheet row number (the header is row 1). */
export interface NumberedRow<T> {
  rowNumber: number;
  row: T;
}

/** A failure found by `check`, on one row. */
export interface RowFailure extends RowError {
  rowNumber: number;
}

/** What `write` did (or, in a dry run, would do). */
export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Who runs the import, for kinds that record it. */
export interface ImportRunContext {
  organizationId: number;
  userId: number | null;
  apiKeyId: number | null;
  /** The import job the rows come from (kinds that record it on what they write: the rate list's price versions). */
  importJobId?: number | null;
}

/** A kind of import: its columns, how a row is read and checked, and how the rows are written. */
export interface ImportKind<T = unknown> {
  /** The path segment: POST /imports/{kind}, GET /imports/templates/{kind}; lower case and dashes. */
  kind: string;
  /** What it loads, in words (template title, docs). */
  title: string;
  /** The columns, in template order. */
  columns: readonly ImportColumn[];
  /** What a row is keyed by (idempotence), in words: "item_sku_code". */
  keyDescription: string;
  /**
   * One row's values → a typed row, or its errors (each naming a column). Pure: no database.
   * Required columns are already known to be non-empty.
   */
  parse(values: RowValues): T | RowError[];
  /**
   * Checks the rows that parsed against the database and each other (an unknown SKU, a key
   * repeated within the file, …), with `em` scoped to the workspace; answers the failures (a row
   * may fail more than once). Reads only.
   */
  check(em: EntityManager, ctx: ImportRunContext, rows: ReadonlyArray<NumberedRow<T>>): Promise<RowFailure[]>;
  /**
   * Writes every row (all passed `check`) in the caller's transaction `tx`, set-based: a row whose
   * key exists is updated when something differs, else counted unchanged, so writing the same rows
   * twice changes nothing the second time. Throws to roll back.
   */
  write(tx: EntityManager, ctx: ImportRunContext, rows: ReadonlyArray<NumberedRow<T>>): Promise<WriteCounts>;
}

/** Declares a kind (types `parse`, `check` and `write` over the same row type). */
export function defineImportKind<T>(kind: ImportKind<T>): ImportKind<T> {
  if (!/^[a-z][a-z0-9-]*$/.test(kind.kind)) throw new Error(`import kind ${kind.kind}: lower case letters, digits and dashes`);
  return kind;
}

/**
 * Failures for every row whose key repeats an earlier row's (`field` names the key column): a file
 * says one thing per key.
 */
export function repeatedKeys<T>(rows: ReadonlyArray<NumberedRow<T>>, key: (row: T) => string, field: string): RowFailure[] {
  const first = new Map<string, number>();
  const failures: RowFailure[] = [];
  for (const { rowNumber, row } of rows) {
    const k = key(row);
    const seen = first.get(k);
    if (seen === undefined) first.set(k, rowNumber);
    else failures.push({ rowNumber, field, message: `repeats ${k} of row ${seen}` });
  }
  return failures;
}

/**
 * Runs a check that throws ValidationError (the domains' rules) and answers its error as a row
 * error, renaming the rule's field to the file's column (`fields`: rule field → column).
 */
export function ruleErrors(run: () => void, fields: Readonly<Record<string, string>>): RowError[] {
  try {
    run();
    return [];
  } catch (err) {
    return [ruleError(err, fields)];
  }
}

/** A thrown ValidationError (or any AppError) as a row error on the column its field maps to. */
export function ruleError(err: unknown, fields: Readonly<Record<string, string>>): RowError {
  if (err instanceof ValidationError) {
    const field = err.field ?? '';
    return { field: fields[field] ?? fields[field.replace(/^.*\./, '')] ?? field, message: err.problem };
  }
  if (err instanceof AppError) return { field: '', message: err.message };
  throw err;
}

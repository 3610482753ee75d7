import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../../errors/app-error';
import { readImportFile, type ReadFile } from './import-file';
import type { ImportKind, ImportRunContext, NumberedRow, RowFailure, WriteCounts } from './import-kind';
import type { ImportFormat } from './import-job.entity';

/** How the rows are written. */
export interface RunOptions {
  /** Check and count only: `write` runs in a transaction that is rolled back. */
  dryRun: boolean;
  /** Write the valid rows even when some fail (default: all or nothing). */
  partial: boolean;
}

/** A failed row: its failure and its values as uploaded (by the file's headers). */
export interface FailedRow extends RowFailure {
  values: Record<string, string>;
}

/** What a run found and did. */
export interface RunResult {
  headers: string[];
  totalRows: number;
  validRows: number;
  failed: FailedRow[];
  /** Rows with at least one failure. */
  failedRowCount: number;
  counts: WriteCounts;
  written: boolean;
}

/** The first key of the advisory lock an import's write holds (the second is the workspace). */
const IMPORT_WRITE_LOCK = 24_001;

const NONE: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };

class DryRunRollback extends Error {
  constructor(readonly counts: WriteCounts) {
    super('dry run');
  }
}

const columnKey = (header: string) => header.trim().toLowerCase();

/**
 * Reads a file of `kind` and checks its header row: every required column must be there (a 400
 * naming `file` otherwise). Columns the kind does not know are kept in failed rows, not read.
 */
export async function readKindFile(kind: ImportKind<unknown>, data: Buffer, format: ImportFormat, onRows?: (read: number) => void): Promise<ReadFile> {
  const file = await readImportFile(data, format, onRows);
  const given = new Set(file.headers.map(columnKey));
  const missing = kind.columns.filter((c) => c.required && !given.has(c.header));
  if (missing.length > 0) {
    throw new ValidationError('file', `misses the column${missing.length > 1 ? 's' : ''} ${missing.map((c) => c.header).join(', ')} (GET /imports/templates/${kind.kind} has every column)`);
  }
  if (file.rows.length === 0) throw new ValidationError('file', 'has no data rows under its header row');
  return file;
}

/**
 * Checks every row of a read file (required cells, `parse`, then `check` over the rows that
 * parsed) and writes the valid rows in one transaction when none failed (or `partial`); a dry run
 * writes in a transaction it rolls back. `progress` hears of the rows checked.
 */
export async function runImport(
  em: EntityManager,
  kind: ImportKind<unknown>,
  file: ReadFile,
  ctx: ImportRunContext,
  options: RunOptions,
  progress: (processed: number) => Promise<void>,
): Promise<RunResult> {
  const position = new Map<string, number>();
  file.headers.forEach((h, i) => {
    if (!position.has(columnKey(h))) position.set(columnKey(h), i);
  });
  const columns = kind.columns.map((c) => ({ ...c, at: position.get(c.header) }));
  const failures: RowFailure[] = [];
  const parsed: Array<NumberedRow<unknown>> = [];
  let processed = 0;
  for (const { rowNumber, cells } of file.rows) {
    const values: Record<string, string> = {};
    for (const c of columns) values[c.header] = c.at === undefined ? '' : (cells[c.at] ?? '');
    const missing = columns.filter((c) => c.required && values[c.header] === '');
    if (missing.length > 0) {
      for (const c of missing) failures.push({ rowNumber, field: c.header, message: 'is required' });
    } else {
      const out = kind.parse(values);
      if (Array.isArray(out)) for (const e of out) failures.push({ rowNumber, ...e });
      else parsed.push({ rowNumber, row: out });
    }
    if (++processed % 5000 === 0) await progress(processed);
  }
  failures.push(...(await kind.check(em, ctx, parsed)));
  await progress(processed);
  const failedNumbers = new Set(failures.map((f) => f.rowNumber));
  const valid = parsed.filter((r) => !failedNumbers.has(r.rowNumber));
  let counts = NONE;
  let written = false;
  if (valid.length > 0 && (options.dryRun || options.partial || failures.length === 0)) {
    try {
      counts = await em.transactional(async (tx) => {
        // One import writes at a time in a workspace: two uploads creating the same new product
        // (by name) at once would otherwise make two.
        await tx.execute('select pg_advisory_xact_lock(?, ?)', [IMPORT_WRITE_LOCK, ctx.organizationId]);
        const c = await kind.write(tx, ctx, valid);
        if (options.dryRun) throw new DryRunRollback(c);
        return c;
      });
      written = true;
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
      counts = err.counts;
    }
  }
  const cellsOf = new Map(file.rows.map((r) => [r.rowNumber, r.cells]));
  const failed = failures
    .sort((a, b) => a.rowNumber - b.rowNumber)
    .map((f) => {
      const cells = cellsOf.get(f.rowNumber) ?? [];
      return { ...f, values: Object.fromEntries(file.headers.map((h, i) => [h, cells[i] ?? ''])) };
    });
  return { headers: file.headers, totalRows: file.rows.length, validRows: valid.length, failed, failedRowCount: failedNumbers.size, counts, written };
}

import type { Writable } from 'node:stream';
import type { CellType, ExportColumn } from './export-columns';
import { doneOrClosed, settledBy } from './output-flow';

/** Excel reads a CSV as UTF-8 only when it starts with the byte order mark. */
const BOM = '\uFEFF';
const CRLF = '\r\n';
/** A field is quoted when it holds one of these (RFC 4180 §2.6). */
const NEEDS_QUOTES = /[",\r\n]/;
/** What a spreadsheet may take for the start of a formula (OWASP's list: =, +, -, @, tab, CR). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A signed number or phone number (`+91 98765 43210`, `-12.5`): data, not a formula, left as it is. */
const PLAIN_NUMBER = /^[+-][\d\s().-]*$/;

/** One RFC 4180 field: quoted (quotes inside doubled) when it holds a comma, a quote, CR or LF. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A text cell, made inert for spreadsheets: one starting as a formula would (`=HYPERLINK(...)`,
 * `@SUM(...)`) gets a leading apostrophe, as GitLab's and OWASP's CSV exports do, so Excel and
 * LibreOffice show it as text instead of running it. Numbers and phone numbers are left alone.
 */
export function inertText(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * A raw SQL value as CSV text, for tools more than for eyes: numbers as PostgreSQL gives them
 * (no thousands separators, a dot for decimals), dates as YYYY-MM-DD, times as the workspace's
 * wall clock YYYY-MM-DD HH:MI:SS, empty for null.
 */
export function csvValue(type: CellType, raw: unknown): string {
  if (raw === null || raw === undefined) return '';
  switch (type) {
    case 'text':
      return inertText(String(raw));
    case 'datetime':
      return String(raw).replace('T', ' ');
    default:
      return String(raw);
  }
}

/**
 * Writes an export as CSV into `output`, a batch at a time, waiting while the output is backed
 * up: RFC 4180 (CRLF line ends, fields quoted as needed), UTF-8 with a BOM, the header row then
 * one line per row; no totals row or "About" sheet, so that tools load it as plain data.
 */
export class CsvWriter {
  private text: string;
  private rowCount = 0;
  /** An output error, thrown by the next call (an unheard 'error' event would end the process). */
  private failure: Error | null = null;

  constructor(
    private readonly output: Writable,
    private readonly columns: readonly ExportColumn[],
  ) {
    output.on('error', (err: Error) => {
      this.failure ??= err;
    });
    this.text = BOM + columns.map((c) => csvField(c.header)).join(',') + CRLF;
  }

  /** Rows written so far. */
  get rows(): number {
    return this.rowCount;
  }

  /** Adds a row of raw SQL values to the batch (nothing is written until `flush`). */
  addRow(raw: Record<string, unknown>): void {
    let line = '';
    for (let i = 0; i < this.columns.length; i++) {
      const c = this.columns[i];
      line += (i > 0 ? ',' : '') + csvField(csvValue(c.type, raw[c.key]));
    }
    this.text += line + CRLF;
    this.rowCount += 1;
  }

  /** Writes the batch; waits while the output is backed up, and gives up (throws) once it is closed. */
  async flush(): Promise<void> {
    this.throwIfStopped();
    const chunk = Buffer.from(this.text, 'utf8');
    this.text = '';
    if (!this.output.write(chunk)) await doneOrClosed(settledBy(this.output, 'drain', [this.output]), this.output);
    this.throwIfStopped();
  }

  /** Writes what is left and ends the output; resolves once the output has taken it all. */
  async finish(): Promise<void> {
    await this.flush();
    const finished = this.output.writableFinished ? Promise.resolve() : settledBy(this.output, 'finish', [this.output]);
    this.output.end();
    await doneOrClosed(finished, this.output);
    this.throwIfStopped();
  }

  private throwIfStopped(): void {
    if (this.failure) throw this.failure;
    if (this.output.destroyed && !this.output.writableFinished) throw new Error('The export output was closed before the export was written');
  }
}

import type { Writable } from 'node:stream';
import { NUMBER_FORMATS, type CellValue, type ExportColumn } from './export-columns';
import { cellXml, columnLetters, formulaXml, numberText, SHEET_END_XML, sheetStartXml } from './xlsx/sheet-xml';
import { packageParts, StyleSheet } from './xlsx/workbook-parts';
import { ZipWriter, type ZipEntryStream } from './xlsx/zip-writer';

/** What the workbook says about itself on its "About" sheet. */
export interface WorkbookAbout {
  title: string;
  workspace: string;
  filterLines: string[];
  generated: string;
}

/** A client that reads nothing for this long is given up on (its cursor and transaction released). */
export const STALLED_OUTPUT_MS = 60_000;

/** Waits for `step`, unless `output` closes first (the next write then fails); rejects after STALLED_OUTPUT_MS. */
function doneOrClosed(step: Promise<void>, output: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`The export output took no data for ${STALLED_OUTPUT_MS / 1000} s`)), STALLED_OUTPUT_MS);
    const closed = () => settle();
    const settle = (err?: Error) => {
      clearTimeout(timer);
      output.off('close', closed);
      if (err) reject(err);
      else resolve();
    };
    output.on('close', closed);
    step.then(() => settle(), settle);
  });
}

/** Room for a batch's XML at first; the buffer grows (and is kept) when a batch needs more. */
const INITIAL_BATCH_BYTES = 256 * 1024;
/** The most bytes UTF-8 takes per UTF-16 code unit. */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Writes an export as XLSX straight into `output`: the sheet's XML is made a batch at a time and
 * deflated into the ZIP as it comes, the next batch waiting until the deflater (and, behind it,
 * the output) has taken the last. Memory holds one batch whatever the row count, and little of it
 * lives long enough to leave V8's young generation. (exceljs's streaming WorkbookWriter, used
 * before, made ~48 KB of short-lived objects per row and queued uncompressed XML without waiting
 * for the compressor; V8 promoted both to the old generation, where they piled up until a full
 * collection: 100,000 orders took the service from 175 to 334 MB RSS; now to about 172, and
 * 500,000 as well.) Typed cells (numbers as numbers, dates as date serials with date formats), a
 * bold frozen header row, column widths, a totals row (SUM formulas with their values) when a
 * column is summed, and an "About" sheet with the title and filters.
 */
export class XlsxWriter {
  private readonly zip: ZipWriter;
  private readonly styles = new StyleSheet();
  private readonly sheet: ZipEntryStream;
  private readonly letters: string[];
  private readonly cellStyles: number[];
  private rowCount = 0;
  /**
   * The batch's XML as it is made, row by row: one buffer reused for every batch, so a row's
   * strings are garbage as soon as they are copied in and nothing of a batch's text is left on
   * the JavaScript heap long enough to be promoted to the old generation.
   */
  private batch = Buffer.allocUnsafe(INITIAL_BATCH_BYTES);
  private batchBytes = 0;

  constructor(
    private readonly output: Writable,
    private readonly columns: readonly ExportColumn[],
    private readonly about: WorkbookAbout,
  ) {
    const created = new Date();
    this.zip = new ZipWriter(output, created);
    const parts = packageParts([about.title, 'About'], { title: about.title, creator: about.workspace, created });
    for (const [name, text] of Object.entries(parts)) this.zip.addFile(name, text);
    this.letters = columns.map((_, i) => columnLetters(i + 1));
    this.cellStyles = columns.map((c) => this.styles.styleOf(NUMBER_FORMATS[c.type], false));
    this.sheet = this.zip.openEntry('xl/worksheets/sheet1.xml');
    const bold = this.styles.styleOf(undefined, true);
    const header = columns.map((c, i) => cellXml(`${this.letters[i]}1`, c.header, bold)).join('');
    const layout = columns.map((c, i) => ({ width: c.width, style: this.cellStyles[i] }));
    this.append(`${sheetStartXml(layout, true)}<row r="1">${header}</row>`);
  }

  /** Adds a row to the batch being made (nothing is written until `flush`). */
  addRow(row: Record<string, CellValue>): void {
    const number = numberText(this.rowCount + 2);
    let xml = `<row r="${number}">`;
    for (let i = 0; i < this.columns.length; i++) xml += cellXml(this.letters[i] + number, row[this.columns[i].key], this.cellStyles[i]);
    this.append(`${xml}</row>`);
    this.rowCount += 1;
  }

  /**
   * Hands the batch to the deflater and waits until it has been taken (and the output is not
   * backed up); gives up (throws) once the output is closed, e.g. when the client went away.
   */
  async flush(): Promise<void> {
    if (this.output.destroyed) throw new Error('The export output was closed before the export was written');
    await doneOrClosed(this.sheet.write(this.batch.subarray(0, this.batchBytes)), this.output);
    // Closed meanwhile, the deflater may still read the buffer: it must not be refilled.
    if (this.output.destroyed) throw new Error('The export output was closed before the export was written');
    this.batchBytes = 0;
  }

  private append(xml: string): void {
    const room = xml.length * MAX_UTF8_PER_UNIT;
    if (this.batchBytes + room > this.batch.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.batch.length * 2, this.batchBytes + room));
      this.batch.copy(bigger, 0, 0, this.batchBytes);
      this.batch = bigger;
    }
    this.batchBytes += this.batch.write(xml, this.batchBytes, 'utf8');
  }

  /** The totals row (when given), the About sheet, then the end of the file. */
  async finish(totals: Record<string, CellValue> | null): Promise<void> {
    if (totals) {
      const number = this.rowCount + 2;
      let xml = `<row r="${number}">`;
      this.columns.forEach((c, i) => {
        const ref = `${this.letters[i]}${number}`;
        const value = totals[c.key];
        const style = this.styles.styleOf(NUMBER_FORMATS[c.type], true);
        xml +=
          i > 0 && typeof value === 'number' && this.rowCount > 0
            ? formulaXml(ref, `SUM(${this.letters[i]}2:${this.letters[i]}${number - 1})`, value, style)
            : cellXml(ref, value ?? null, style);
      });
      this.append(`${xml}</row>`);
    }
    this.append(SHEET_END_XML);
    await this.flush();
    await this.sheet.end();
    this.zip.addFile('xl/worksheets/sheet2.xml', this.aboutSheetXml());
    this.zip.addFile('xl/styles.xml', this.styles.xml());
    await this.zip.finish();
  }

  private aboutSheetXml(): string {
    const lines: [string, string][] = [
      ['Export', this.about.title],
      ['Workspace', this.about.workspace],
      ['Generated', this.about.generated],
      ['Rows', String(this.rowCount)],
      ...this.about.filterLines.map((line): [string, string] => ['Filter', line]),
    ];
    const rows = lines.map(([label, text], i) => `<row r="${i + 1}">${cellXml(`A${i + 1}`, label, 0)}${cellXml(`B${i + 1}`, text, 0)}</row>`);
    return `${sheetStartXml([{ width: 18, style: 0 }, { width: 60, style: 0 }], false)}${rows.join('')}${SHEET_END_XML}`;
  }
}

import { PassThrough, type Writable } from 'node:stream';
import { ZipFile } from 'yazl';
import { NUMBER_FORMATS, type CellValue, type ExportColumn } from './export-columns';
import { cellXml, columnLetters, formulaXml, numberText, SHEET_END_XML, sheetStartXml } from './xlsx/sheet-xml';
import { packageParts, StyleSheet } from './xlsx/workbook-parts';
import { doneOrClosed, settledBy } from './output-flow';

/** What the workbook says about itself on its "About" sheet. */
export interface WorkbookAbout {
  title: string;
  workspace: string;
  filterLines: string[];
  generated: string;
}

/** Room for a batch's XML at first; the buffer grows (and is kept) when a batch needs more. */
const INITIAL_BATCH_BYTES = 256 * 1024;
/** The most bytes UTF-8 takes per UTF-16 code unit. */
const MAX_UTF8_PER_UNIT = 3;
/** The size of the copies the sheet's XML goes to yazl in (bench: 16 KiB took longer, for the same memory). */
const SLICE_BYTES = 64 * 1024;
const CLOSED_OUTPUT = 'The export output was closed before the export was written';

/**
 * Writes an export as XLSX straight into `output`: the sheet's XML is made a batch at a time and
 * handed to yazl, which deflates it into the ZIP as it comes (with ZIP64 records when a part or
 * the file passes 4 GiB); the next batch waits until yazl's streams have taken the last, and
 * they wait, through pipe(), while the output is backed up. Memory holds a batch and a few
 * slices of it whatever the row count, and little of it lives long enough to leave V8's young
 * generation. (exceljs's streaming WorkbookWriter, used before, made many short-lived objects per
 * row and queued uncompressed XML without waiting for the compressor; V8 promoted both to the old
 * generation, where they piled up until a full collection (BENCHMARKS.md, "Figures behind the code").) Typed cells
 * (numbers as numbers, dates as date serials with date formats), a bold frozen header row,
 * column widths, a totals row (SUM formulas with their values) when a column is summed, and an
 * "About" sheet with the title and filters.
 */
export class XlsxWriter {
  private readonly zip = new ZipFile();
  /** The sheet's XML on its way into the ZIP (yazl pipes it through its CRC and its deflater). */
  private readonly sheet = new PassThrough();
  private readonly modified = new Date();
  private readonly styles = new StyleSheet();
  private readonly letters: string[];
  private readonly cellStyles: number[];
  private rowCount = 0;
  /** A ZIP or output error, thrown by the next call (an unheard 'error' event would end the process). */
  private failure: Error | null = null;
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
    const fail = (err: Error) => {
      this.failure ??= err;
    };
    this.zip.on('error', fail);
    output.on('error', fail);
    const parts = packageParts([about.title, 'About'], { title: about.title, creator: about.workspace, created: this.modified });
    for (const [name, text] of Object.entries(parts)) this.addPart(name, text);
    this.zip.addReadStream(this.sheet, 'xl/worksheets/sheet1.xml', { mtime: this.modified });
    this.zip.outputStream.pipe(output);
    this.letters = columns.map((_, i) => columnLetters(i + 1));
    this.cellStyles = columns.map((c) => this.styles.styleOf(NUMBER_FORMATS[c.type], false));
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
   * Hands the batch to yazl and waits until its streams have taken it (and the output is not
   * backed up); gives up (throws) once the output is closed, e.g. when the client went away.
   */
  async flush(): Promise<void> {
    this.throwIfStopped();
    await doneOrClosed(this.handOver(this.batch.subarray(0, this.batchBytes)), this.output);
    // Closed meanwhile, the copying may not be over: the buffer must not be refilled.
    this.throwIfStopped();
    this.batchBytes = 0;
  }

  /**
   * Copies `xml` into the sheet's stream a slice at a time, waiting while it is backed up. yazl's
   * streams pass a chunk on by reference until the deflater reads it, so they get copies (and the
   * batch buffer can be refilled once this resolves); small ones, which are read and dropped
   * before V8 moves them out of the young generation (one fresh buffer per batch instead was
   * promoted, and stayed until a full collection freed it (BENCHMARKS.md, "Figures behind the code")).
   */
  private async handOver(xml: Buffer): Promise<void> {
    for (let at = 0; at < xml.length; at += SLICE_BYTES) {
      if (!this.sheet.write(Buffer.from(xml.subarray(at, at + SLICE_BYTES)))) await this.sheetDrained();
    }
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

  /** The totals row (when given), the About sheet, then the end of the file; resolves once the output has taken it all. */
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
    this.sheet.end();
    this.addPart('xl/worksheets/sheet2.xml', this.aboutSheetXml());
    this.addPart('xl/styles.xml', this.styles.xml());
    // yazl ends the output (through pipe()) after the central directory.
    this.zip.end();
    await doneOrClosed(this.outputFinished(), this.output);
    this.throwIfStopped();
  }

  private addPart(name: string, text: string): void {
    this.zip.addBuffer(Buffer.from(text, 'utf8'), name, { mtime: this.modified });
  }

  private throwIfStopped(): void {
    if (this.failure) throw this.failure;
    if (this.output.destroyed && !this.output.writableFinished) throw new Error(CLOSED_OUTPUT);
  }

  /** Resolves when the sheet's stream has passed its data on to yazl; rejects on a ZIP error. */
  private sheetDrained(): Promise<void> {
    return settledBy(this.sheet, 'drain', [this.zip]);
  }

  /** Resolves once the output has taken the whole archive; rejects on a ZIP or output error. */
  private outputFinished(): Promise<void> {
    if (this.output.writableFinished) return Promise.resolve();
    return settledBy(this.output, 'finish', [this.output, this.zip]);
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

import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { NUMBER_FORMATS, type CellValue, type ExportColumn } from './export-columns';

/** What the workbook says about itself on its "About" sheet. */
export interface WorkbookAbout {
  title: string;
  workspace: string;
  filterLines: string[];
  generated: string;
}

/** A client that reads nothing for this long is given up on (its cursor and transaction released). */
export const STALLED_OUTPUT_MS = 60_000;

function drainedOrClosed(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    const timer = setTimeout(() => {
      stream.off('drain', done);
      stream.off('close', done);
      reject(new Error(`The export output took no data for ${STALLED_OUTPUT_MS / 1000} s`));
    }, STALLED_OUTPUT_MS);
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** 'A' for 1, 'AA' for 27: a column's letters in formulas. */
function columnLetters(n: number): string {
  let letters = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) letters = String.fromCharCode(65 + ((i - 1) % 26)) + letters;
  return letters;
}

/**
 * Writes an export as XLSX straight into `output` with exceljs's streaming WorkbookWriter: each
 * row is committed as it is added, so memory stays flat whatever the row count. Typed cells
 * (numbers as numbers, dates as dates), a bold frozen header row, column widths, a totals row
 * (SUM formulas with their values) when a column is summed, and an "About" sheet with the title
 * and filters.
 */
export class XlsxWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private rowCount = 0;

  /** A writer on `output`; exceljs is loaded by the first XLSX export, not at start-up (about 0.4 s). */
  static async open(output: Writable, columns: readonly ExportColumn[], about: WorkbookAbout): Promise<XlsxWriter> {
    const { default: excel } = await import('exceljs');
    return new XlsxWriter(excel, output, columns, about);
  }

  private constructor(
    excel: typeof ExcelJS,
    private readonly output: Writable,
    private readonly columns: readonly ExportColumn[],
    private readonly about: WorkbookAbout,
  ) {
    this.workbook = new excel.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
    this.workbook.creator = about.workspace;
    this.workbook.title = about.title;
    this.workbook.created = new Date();
    this.sheet = this.workbook.addWorksheet(about.title, { views: [{ state: 'frozen', ySplit: 1 }] });
    this.sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width, style: { numFmt: NUMBER_FORMATS[c.type] } }));
    this.sheet.getRow(1).font = { bold: true };
  }

  /**
   * Adds and commits rows; waits while the output is backed up, and gives up (throws) once the
   * output is closed, e.g. when the client went away.
   */
  async write(rows: Record<string, CellValue>[]): Promise<void> {
    if (this.output.destroyed) throw new Error('The export output was closed before the export was written');
    for (const row of rows) this.sheet.addRow(row).commit();
    this.rowCount += rows.length;
    if (this.output.writableNeedDrain) await drainedOrClosed(this.output);
  }

  /** The totals row (when given), the About sheet, then the end of the file. */
  async finish(totals: Record<string, CellValue> | null): Promise<void> {
    if (totals) {
      const lastRow = this.rowCount + 1;
      const row = this.sheet.addRow(totals);
      row.font = { bold: true };
      this.columns.forEach((c, i) => {
        const value = totals[c.key];
        if (i > 0 && typeof value === 'number' && this.rowCount > 0) {
          const letters = columnLetters(i + 1);
          row.getCell(i + 1).value = { formula: `SUM(${letters}2:${letters}${lastRow})`, result: value };
        }
      });
      row.commit();
    }
    this.sheet.commit();
    const about = this.workbook.addWorksheet('About');
    about.columns = [{ width: 18 }, { width: 60 }];
    const lines: [string, string][] = [
      ['Export', this.about.title],
      ['Workspace', this.about.workspace],
      ['Generated', this.about.generated],
      ['Rows', String(this.rowCount)],
      ...this.about.filterLines.map((line): [string, string] => ['Filter', line]),
    ];
    for (const line of lines) about.addRow(line).commit();
    about.commit();
    await this.workbook.commit();
  }
}

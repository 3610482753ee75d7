import { Readable } from 'node:stream';
import { parse as parseCsvSync } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { ValidationError } from '../../errors/app-error';
import { ImportFormat } from './import-job.entity';

/** Largest upload (bytes). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** Most data rows in one file. */
export const MAX_IMPORT_ROWS = 50_000;

/** One data row of a file: its spreadsheet row number (the header is row 1) and its cells by column position. */
export interface FileRow {
  rowNumber: number;
  cells: string[];
}

/** A file read: its header row and its data rows (rows with no value at all are skipped). */
export interface ReadFile {
  headers: string[];
  rows: FileRow[];
}

/** The format of an upload by its name (or its content type): .csv or .xlsx, else a 400 naming `file`. */
export function formatOf(fileName: string, contentType?: string): ImportFormat {
  const name = fileName.toLowerCase();
  if (name.endsWith('.xlsx') || contentType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') return ImportFormat.XLSX;
  if (name.endsWith('.csv') || contentType === 'text/csv') return ImportFormat.CSV;
  throw new ValidationError('file', 'must be a .csv or .xlsx file');
}

/**
 * Reads an uploaded file: the first row is the header, every later non-empty row a data row.
 * CSV: UTF-8 (a BOM is skipped), comma-separated, RFC 4180 quoting. XLSX: the first worksheet;
 * numbers as written by JavaScript, dates as YYYY-MM-DD, formulas by their value. More than
 * MAX_IMPORT_ROWS data rows, or a file that cannot be read, is a 400 naming `file`.
 */
export async function readImportFile(data: Buffer, format: ImportFormat, onRows?: (read: number) => void): Promise<ReadFile> {
  const rows: FileRow[] = [];
  let headers: string[] | null = null;
  const take = (rowNumber: number, cells: string[]) => {
    if (headers === null) {
      headers = cells;
      return;
    }
    if (cells.every((c) => c === '')) return;
    if (rows.length >= MAX_IMPORT_ROWS) throw new ValidationError('file', `has more than ${MAX_IMPORT_ROWS} data rows: split it into files of at most ${MAX_IMPORT_ROWS}`);
    rows.push({ rowNumber, cells });
    if (onRows && rows.length % 5000 === 0) onRows(rows.length);
  };
  try {
    if (format === ImportFormat.CSV) await readCsv(data, take);
    else await readXlsx(data, take);
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new ValidationError('file', `could not be read as ${format.toUpperCase()}: ${(err as Error).message.slice(0, 200)}`);
  }
  const header: string[] = headers ?? [];
  while (header.length > 0 && header[header.length - 1] === '') header.pop();
  if (header.length === 0) throw new ValidationError('file', 'has no header row');
  return { headers: header, rows };
}

async function readCsv(data: Buffer, take: (rowNumber: number, cells: string[]) => void): Promise<void> {
  // In one call: the file is in memory already (10 MB at most), and awaiting each of 50,000 records took longer than parsing them.
  const records = parseCsvSync(data, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
  records.forEach((record, i) => take(i + 1, record.map((cell) => cell.trim())));
}

async function readXlsx(data: Buffer, take: (rowNumber: number, cells: string[]) => void): Promise<void> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'emit',
  });
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      const values = row.values as unknown[];
      const cells: string[] = [];
      for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
      take(row.number, cells);
    }
    return; // the first worksheet only
  }
}

/** A cell's value as text. */
function cellText(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: string };
    if (v.richText) return v.richText.map((r) => r.text).join('').trim();
    if (v.result !== undefined) return cellText(v.result);
    if (v.text !== undefined) return cellText(v.text);
    if (v.error) return '';
  }
  return String(value).trim();
}

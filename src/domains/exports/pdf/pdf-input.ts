/** The workspace's branding printed on its PDFs. */
export interface Branding {
  /** The workspace's name (or its footer name when set). */
  name: string;
  address: string;
  contactNumber: string;
  gstin: string;
  fssai: string;
  footerName: string;
  /** #RRGGBB. */
  primaryColor: string;
  /** The logo as a data: URL (PNG or JPEG), when it could be fetched. */
  logo: string | null;
}

/** Everything a PDF is laid out from: plain data, so it crosses to the rendering thread. */
export interface PdfInput {
  title: string;
  /** One line per filter applied. */
  filterLines: string[];
  /** When it was made and how many rows it holds. */
  summaryLine: string;
  orientation: 'portrait' | 'landscape';
  columns: { header: string; width: number; alignment: 'left' | 'right' }[];
  /** Cells as printed text, packed into one string by PrintedRows (see unpackRows). */
  rows: string;
  totals: string[] | null;
  branding: Branding;
}

/*
 * Rows cross to the rendering thread as one string, each row led by the ASCII record separator
 * and its cells joined by the unit separator: a single string is copied in one go, where an array
 * of 65,000 strings costs the event loop tens of milliseconds of structured cloning. Both are
 * control characters that never print, so a cell holding one has it replaced by a space.
 */
const CELL = '\u001f';
const ROW = '\u001e';
const SEPARATORS = /[\u001e\u001f]/g;
const SEPARATOR = /[\u001e\u001f]/;

/** Printed rows gathered one at a time (as batches are read), packed for the rendering thread. */
export class PrintedRows {
  private readonly packed: string[] = [];

  get count(): number {
    return this.packed.length;
  }

  add(cells: readonly string[]): void {
    // Cells are checked before any is copied: almost none holds a separator.
    const clean = cells.some((cell) => SEPARATOR.test(cell)) ? cells.map((cell) => cell.replace(SEPARATORS, ' ')) : cells;
    this.packed.push(ROW + clean.join(CELL));
  }

  /** The rows as PdfInput.rows. */
  pack(): string {
    return this.packed.join('');
  }
}

/** PdfInput.rows as cells, row by row. */
export function unpackRows(rows: string): string[][] {
  return rows
    .split(ROW)
    .slice(1)
    .map((row) => row.split(CELL));
}

/** How a column's values are typed in a spreadsheet and printed in a PDF. */
export type CellType = 'text' | 'integer' | 'money' | 'quantity' | 'date' | 'datetime';

/** One column of an export: `key` is the SQL column alias of its value. */
export interface ExportColumn {
  key: string;
  header: string;
  type: CellType;
  /** Width in characters (spreadsheet) and relative width (PDF). */
  width: number;
  /** Summed in the totals row. */
  total?: boolean;
  /** false: left out of the PDF (a page has room for some 20 columns); XLSX and CSV keep it. */
  printed?: false;
}

/** A typed cell value: numbers as numbers, dates as Date (UTC-based, as spreadsheets keep wall-clock time). */
export type CellValue = string | number | Date | null;

/**
 * The typed value of a raw SQL value. Dates arrive as 'YYYY-MM-DD' text and timestamps as the
 * workspace's wall-clock time 'YYYY-MM-DDTHH:MI:SS' (the SQL formats both), numerics as text.
 */
export function cellValue(type: CellType, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case 'text':
      return String(raw);
    case 'integer':
    case 'money':
    case 'quantity':
      return Number(raw);
    case 'date':
      return new Date(`${String(raw)}T00:00:00Z`);
    case 'datetime':
      return new Date(`${String(raw)}Z`);
  }
}

const MONEY = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const QUANTITY = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 3 });

/** A cell value as printed text (PDF). */
export function displayValue(type: CellType, value: CellValue): string {
  if (value === null) return '';
  if (value instanceof Date) return type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString().slice(0, 16).replace('T', ' ');
  if (typeof value === 'number') return type === 'money' ? MONEY.format(value) : QUANTITY.format(value);
  return value;
}

/**
 * `displayValue(type, cellValue(type, raw))`, printed straight from the raw SQL text: the dates
 * are already the printed text (a timestamp less its seconds), so no Date is made and read back
 * (a PDF's rows are printed on the request thread, and that round trip was half its work there).
 */
export function printedValue(type: CellType, raw: unknown): string {
  if (raw === null || raw === undefined) return '';
  switch (type) {
    case 'text':
    case 'date':
      return String(raw);
    case 'datetime':
      return String(raw).slice(0, 16).replace('T', ' ');
    default:
      return displayValue(type, Number(raw));
  }
}

/** Spreadsheet number formats per type. */
export const NUMBER_FORMATS: Partial<Record<CellType, string>> = {
  integer: '#,##0',
  money: '#,##0.00',
  quantity: '#,##0.###',
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
};

/** Running sums of the columns marked `total`. */
export class ColumnTotals {
  private readonly sums = new Map<string, number>();

  constructor(private readonly columns: readonly ExportColumn[]) {
    for (const c of columns) if (c.total) this.sums.set(c.key, 0);
  }

  get any(): boolean {
    return this.sums.size > 0;
  }

  /** Adds a row's summed columns: typed cells, or the raw SQL values (numerics as text). */
  add(row: Record<string, unknown>): void {
    for (const [key, sum] of this.sums) {
      const value = row[key];
      if (value === null || value === undefined) continue;
      // Sums in thousandths so money and quantities add up without binary drift.
      const n = Number(value);
      if (Number.isFinite(n)) this.sums.set(key, sum + Math.round(n * 1000));
    }
  }

  /** The total of a summed column, else null. */
  of(key: string): number | null {
    const sum = this.sums.get(key);
    return sum === undefined ? null : sum / 1000;
  }

  /** The totals row: the label in the first column, sums under the summed columns. */
  row(label: string): Record<string, CellValue> {
    const row: Record<string, CellValue> = {};
    this.columns.forEach((c, i) => {
      row[c.key] = i === 0 ? label : this.of(c.key);
    });
    return row;
  }
}

import type { RowError, RowValues } from './import-kind';

/*
 * Reading typed values out of a row's text cells, each failure a row error naming the column.
 * An empty cell is `undefined` (the rules then apply their defaults or say it is required).
 */

/** Collects a row's errors while its cells are read. */
export class CellReader {
  readonly errors: RowError[] = [];

  constructor(readonly values: RowValues) {}

  text(column: string): string | undefined {
    const v = this.values[column] ?? '';
    return v === '' ? undefined : v;
  }

  number(column: string): number | undefined {
    const v = this.text(column);
    if (v === undefined) return undefined;
    const n = Number(v.replace(/,/g, ''));
    if (!Number.isFinite(n)) return this.fail(column, 'must be a number');
    return n;
  }

  integer(column: string): number | undefined {
    const n = this.number(column);
    if (n === undefined) return undefined;
    if (!Number.isInteger(n)) return this.fail(column, 'must be a whole number');
    return n;
  }

  boolean(column: string): boolean | undefined {
    const v = this.text(column)?.toLowerCase();
    if (v === undefined) return undefined;
    if (['true', 'yes', 'y', '1'].includes(v)) return true;
    if (['false', 'no', 'n', '0'].includes(v)) return false;
    return this.fail(column, 'must be true or false (yes/no, 1/0)');
  }

  /** A code given by its number or its name (case-insensitive; spaces and dashes as underscores). */
  code(column: string, names: Readonly<Record<string, number>>): number | undefined {
    const v = this.text(column);
    if (v === undefined) return undefined;
    const key = v.toLowerCase().replace(/[\s-]+/g, '_');
    if (Object.hasOwn(names, key)) return names[key];
    const n = Number(v);
    if (Number.isInteger(n) && Object.values(names).includes(n)) return n;
    const listed = Object.entries(names).map(([name, code]) => `${code} (${name})`).join(', ');
    return this.fail(column, `must be one of ${listed}`);
  }

  /** Whole numbers separated by commas, semicolons or spaces. */
  integers(column: string): number[] | undefined {
    const v = this.text(column);
    if (v === undefined) return undefined;
    const parts = v.split(/[\s,;]+/).filter((p) => p !== '');
    const out = parts.map(Number);
    if (out.some((n) => !Number.isInteger(n))) return this.fail(column, 'must be whole numbers separated by commas, semicolons or spaces');
    return out;
  }

  fail(column: string, message: string): undefined {
    this.errors.push({ field: column, message });
    return undefined;
  }
}

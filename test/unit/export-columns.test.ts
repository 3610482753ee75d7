import { describe, expect, it } from 'vitest';
import { cellValue, ColumnTotals, displayValue, printedValue, type CellType, type ExportColumn } from '../../src/domains/exports/export-columns';

/**
 * A PDF prints its cells from the raw SQL values (printedValue); a spreadsheet types them first
 * (cellValue). Both must print alike, and the totals add up either way.
 */

/** Raw values as the export queries return them: dates and timestamps as text, numerics as text. */
const RAW: Record<CellType, unknown[]> = {
  text: ['Asha Traders', '', '  spaced  ', 'line\nbreak', 'नमस्ते'],
  integer: ['0', '7', '1234567', 12, '-3'],
  money: ['0.00', '137.25', '99999999.99', '1234567.5', '-42.10', 8.5],
  quantity: ['0', '1.5', '2.125', '1000000', '0.001'],
  date: ['2026-01-05', '1999-12-31', '2024-02-29'],
  datetime: ['2026-01-05T09:07:59', '2026-12-31T23:59:00', '2024-02-29T00:00:01'],
};

describe('printedValue', () => {
  for (const [type, values] of Object.entries(RAW) as [CellType, unknown[]][]) {
    it(`prints a ${type} as the typed cell prints`, () => {
      for (const raw of [...values, null, undefined]) expect(printedValue(type, raw)).toBe(displayValue(type, cellValue(type, raw)));
    });
  }

  it('prints Indian grouping, two decimals for money, minutes for timestamps', () => {
    expect(printedValue('money', '1234567.5')).toBe('12,34,567.50');
    expect(printedValue('quantity', '2.125')).toBe('2.125');
    expect(printedValue('datetime', '2026-01-05T09:07:59')).toBe('2026-01-05 09:07');
    expect(printedValue('date', null)).toBe('');
  });
});

describe('ColumnTotals', () => {
  const columns: ExportColumn[] = [
    { key: 'label', header: 'Label', type: 'text', width: 10 },
    { key: 'items', header: 'Items', type: 'integer', width: 10, total: true },
    { key: 'amount', header: 'Amount', type: 'money', width: 10, total: true },
    { key: 'note', header: 'Note', type: 'text', width: 10 },
  ];

  it('adds raw SQL values and typed cells alike, skipping nulls, without binary drift', () => {
    const raw = new ColumnTotals(columns);
    const typed = new ColumnTotals(columns);
    const rows = [
      { label: 'a', items: '2', amount: '0.10', note: 'x' },
      { label: 'b', items: '3', amount: '0.20', note: null },
      { label: 'c', items: null, amount: '0.70', note: 'y' },
    ];
    for (const row of rows) {
      raw.add(row);
      typed.add(Object.fromEntries(columns.map((c) => [c.key, cellValue(c.type, row[c.key as keyof typeof row])])));
    }
    expect(raw.row('Total')).toEqual({ label: 'Total', items: 5, amount: 1, note: null });
    expect(typed.row('Total')).toEqual(raw.row('Total'));
  });
});

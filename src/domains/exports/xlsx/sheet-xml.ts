import type { CellValue } from '../export-columns';

/** Characters XML 1.0 does not allow at all (a spreadsheet with one would not open). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text made safe for XML content and attribute values. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => ESCAPES[c]);
}

/** 'A' for 1, 'AA' for 27: a column's letters in references and formulas. */
export function columnLetters(n: number): string {
  let letters = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) letters = String.fromCharCode(65 + ((i - 1) % 26)) + letters;
  return letters;
}

const MS_PER_DAY = 86_400_000;
/** Days from the spreadsheet epoch (1899-12-30) to 1970-01-01. */
const UNIX_EPOCH_SERIAL = 25_569;

/**
 * A number as cell text. Not `${n}`: V8 keeps recent number-to-string results in a cache that
 * lives in the old generation, so every such string (a few per row) outlives young-generation
 * collections and is promoted; JSON.stringify writes the same shortest form without the cache.
 */
export function numberText(n: number): string {
  return JSON.stringify(n);
}

/** A cell's XML; `style` is its index in the style sheet's cellXfs. Empty cells are left out. */
export function cellXml(ref: string, value: CellValue, style: number): string {
  if (value === null) return '';
  const s = style > 0 ? ` s="${style}"` : '';
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}"${s}><v>${numberText(value)}</v></c>` : '';
  if (value instanceof Date) return `<c r="${ref}"${s}><v>${numberText(value.getTime() / MS_PER_DAY + UNIX_EPOCH_SERIAL)}</v></c>`;
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
}

/** A formula cell with its computed result. */
export function formulaXml(ref: string, formula: string, result: number, style: number): string {
  return `<c r="${ref}"${style > 0 ? ` s="${style}"` : ''}><f>${xmlText(formula)}</f><v>${result}</v></c>`;
}

/** A column's width and default cell format (which empty cells show in). */
export interface ColumnLayout {
  width: number;
  style: number;
}

/** The start of a worksheet up to its open sheetData: optional frozen header row, column widths and formats. */
export function sheetStartXml(columns: readonly ColumnLayout[], frozenHeader: boolean): string {
  const pane = frozenHeader
    ? '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/>'
    : '';
  const cols = columns
    .map(({ width, style }, i) => `<col min="${i + 1}" max="${i + 1}" width="${width}"${style > 0 ? ` style="${style}"` : ''} customWidth="1"/>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    `<sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews>` +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    `<cols>${cols}</cols><sheetData>`
  );
}

/** The end of a worksheet after its rows. */
export const SHEET_END_XML = '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

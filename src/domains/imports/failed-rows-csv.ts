import { csvField } from '../exports/csv-writer';

/** One CSV line (RFC 4180, CRLF): the values exactly as uploaded, so that the fixed file imports as it stands. */
export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { TestApp } from './test-app';

/** A multipart/form-data body with one file part (field `file` unless told). */
export function multipart(fileName: string, content: Buffer | string, field = 'file'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----imports${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    typeof content === 'string' ? Buffer.from(content) : content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A CSV from a header and rows (fields quoted when needed). */
export function csv(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const field = (v: string | number) => (/[",\r\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));
  return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** An XLSX with one sheet of the given rows (built with exceljs, as a spreadsheet program would). */
export async function xlsx(rows: ReadonlyArray<ReadonlyArray<string | number | Date | null>>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow([...r]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Uploads a file to POST /imports/{kind}. */
export function upload(t: TestApp, kind: string, fileName: string, content: Buffer | string, options: { token?: string; apiKey?: string; query?: string; field?: string } = {}) {
  const body = multipart(fileName, content, options.field);
  return t.request({
    method: 'POST',
    url: `/api/v1/imports/${kind}${options.query ? `?${options.query}` : ''}`,
    token: options.token,
    apiKey: options.apiKey,
    headers: body.headers,
    payload: body.payload,
  });
}

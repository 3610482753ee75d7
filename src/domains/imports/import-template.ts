import { PassThrough } from 'node:stream';
import type { ExportColumn } from '../exports/export-columns';
import { XlsxWriter } from '../exports/xlsx-writer';
import type { ImportKind } from './import-kind';

/**
 * A kind's template: an XLSX (the exports' own writer) whose first sheet has the kind's columns
 * and one example row, and whose "About" sheet lists each column, whether it is required and what
 * it holds. Uploading it unchanged imports the example.
 */
export async function templateOf(kind: ImportKind<unknown>): Promise<Buffer> {
  const output = new PassThrough();
  const parts: Buffer[] = [];
  output.on('data', (b: Buffer) => parts.push(b));
  const ended = new Promise<void>((resolve, reject) => {
    output.on('end', resolve);
    output.on('error', reject);
  });
  const columns: ExportColumn[] = kind.columns.map((c) => ({ key: c.header, header: c.header, type: typeof c.example === 'number' ? 'quantity' : 'text', width: c.width ?? 16 }));
  const writer = new XlsxWriter(output, columns, {
    title: `${kind.title} import`,
    workspace: 'Import template',
    filterLines: [
      `Upload as POST /imports/${kind.kind} (CSV or XLSX, first sheet; header row first). Key: ${kind.keyDescription}.`,
      ...kind.columns.map((c) => `${c.header}${c.required ? ' (required)' : ''}: ${c.description}`),
    ],
    generated: 'template',
  });
  writer.addRow(Object.fromEntries(kind.columns.map((c) => [c.header, c.example])));
  await writer.flush();
  await writer.finish(null);
  await ended;
  return Buffer.concat(parts);
}

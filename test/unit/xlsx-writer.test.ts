import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ExportColumn } from '../../src/domains/exports/export-columns';
import { XlsxWriter } from '../../src/domains/exports/xlsx-writer';

const COLUMNS: ExportColumn[] = [
  { key: 'name', header: 'Name', type: 'text', width: 20 },
  { key: 'day', header: 'Day', type: 'date', width: 12 },
  { key: 'amount', header: 'Amount', type: 'money', width: 14, total: true },
];
const ABOUT = { title: 'Orders', workspace: 'Tom & "Jerry" <Dairy>', filterLines: ['Status: Delivered'], generated: '2026-11-25 10:00 (UTC)' };

/** A writer into memory, and the bytes it wrote once it has finished. */
function writerInMemory(): { writer: XlsxWriter; output: PassThrough; bytes: () => Promise<Buffer> } {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => output.on('end', resolve));
  return { writer: new XlsxWriter(output, COLUMNS, ABOUT), output, bytes: () => ended.then(() => Buffer.concat(chunks)) };
}

async function readBack(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe('XlsxWriter', () => {
  it('keeps markup, spaces and non-Latin text, drops characters XML forbids, and holds batches larger than its first buffer', async () => {
    const { writer, bytes } = writerInMemory();
    const long = 'ऋ'.repeat(400);
    const names = [' <b>&amp;</b> ', 'bell\u0007 here', long];
    // 3 × 1,000 rows of ~1,200 UTF-8 bytes each: well past the 256 KiB the batch buffer starts with.
    for (let batch = 0; batch < 3; batch++) {
      for (let i = 0; i < 1000; i++) writer.addRow({ name: names[i % 3], day: new Date('2026-11-0' + ((i % 9) + 1) + 'T00:00:00Z'), amount: i + 0.25 });
      await writer.flush();
    }
    await writer.finish({ name: 'Total', day: null, amount: 1_499_250 });
    const workbook = await readBack(await bytes());
    expect(workbook.creator).toBe(ABOUT.workspace);
    const sheet = workbook.getWorksheet('Orders')!;
    expect(sheet.rowCount).toBe(3002);
    expect([2, 3, 4].map((r) => sheet.getRow(r).getCell(1).value)).toEqual([' <b>&amp;</b> ', 'bell here', long]);
    expect(sheet.getRow(3001).getCell(2).value).toEqual(new Date('2026-11-01T00:00:00Z'));
    expect(sheet.getRow(3001).getCell(3).value).toBe(999.25);
    expect(sheet.getRow(3002).getCell(3).value).toEqual({ formula: 'SUM(C2:C3001)', result: 1_499_250 });
    expect(workbook.getWorksheet('About')!.getRow(2).values).toEqual([undefined, 'Workspace', ABOUT.workspace]);
  });

  it('waits while the output is backed up, and goes on once it is read', async () => {
    const output = new PassThrough();
    const writer = new XlsxWriter(output, COLUMNS, ABOUT);
    // Random text, so the deflated batch (~1 MB) is far more than the streams between may hold.
    const names = Array.from({ length: 1000 }, () => randomBytes(700).toString('hex'));
    names.forEach((name, i) => writer.addRow({ name, day: null, amount: i }));
    let flushed = false;
    const flushing = writer.flush().then(() => (flushed = true));
    await sleep(200);
    expect(flushed).toBe(false);
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve) => output.on('end', resolve));
    await flushing;
    await writer.finish(null);
    await ended;
    const sheet = (await readBack(Buffer.concat(chunks))).getWorksheet('Orders')!;
    expect(sheet.rowCount).toBe(1001);
    expect([2, 1001].map((r) => sheet.getRow(r).getCell(1).value)).toEqual([names[0], names[999]]);
  });

  it('gives up on an output that was closed (the client went away) instead of writing on', async () => {
    const { writer, output } = writerInMemory();
    writer.addRow({ name: 'a', day: null, amount: 1 });
    output.destroy();
    writer.addRow({ name: 'b', day: null, amount: 2 });
    await expect(writer.flush()).rejects.toThrow('The export output was closed before the export was written');
  });

  it('gives up on an output closed while the writer waits for it to be read', async () => {
    const output = new PassThrough();
    const writer = new XlsxWriter(output, COLUMNS, ABOUT);
    for (let i = 0; i < 1000; i++) writer.addRow({ name: randomBytes(700).toString('hex'), day: null, amount: i });
    const flushing = writer.flush();
    await sleep(100);
    output.destroy();
    await expect(flushing).rejects.toThrow('The export output was closed before the export was written');
  });
});

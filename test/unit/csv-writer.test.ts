import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ExportColumn } from '../../src/domains/exports/export-columns';
import { csvField, CsvWriter, inertText } from '../../src/domains/exports/csv-writer';

const COLUMNS: ExportColumn[] = [
  { key: 'name', header: 'Name, "full"', type: 'text', width: 20 },
  { key: 'day', header: 'Day', type: 'date', width: 12 },
  { key: 'at', header: 'Placed at', type: 'datetime', width: 17 },
  { key: 'amount', header: 'Amount', type: 'money', width: 14, total: true },
];

function writerInMemory(): { writer: CsvWriter; output: PassThrough; bytes: () => Promise<Buffer> } {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => output.on('end', resolve));
  return { writer: new CsvWriter(output, COLUMNS), output, bytes: () => ended.then(() => Buffer.concat(chunks)) };
}

describe('CsvWriter', () => {
  it('writes RFC 4180 with a BOM and CRLF, quoting what needs it, read back by csv-parse', async () => {
    const { writer, bytes } = writerInMemory();
    const names = ['plain', 'a, b', 'say "hi"', 'two\nlines', 'cr\rhere', 'ऋषि दूध', '', null];
    names.forEach((name, i) => writer.addRow({ name, day: '2026-11-03', at: '2026-11-03T09:05:07', amount: i === 7 ? null : `${i}.50` }));
    await writer.finish();
    const file = await bytes();
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = file.toString('utf8').slice(1);
    expect(text.startsWith('"Name, ""full""",Day,Placed at,Amount\r\nplain,2026-11-03,2026-11-03 09:05:07,0.50\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // Every line break outside quotes is CRLF.
    expect(text.replace(/"[^"]*"/g, '').match(/\n/g)!.length).toBe(text.replace(/"[^"]*"/g, '').match(/\r\n/g)!.length);
    const records = parse(file, { bom: true, relax_quotes: false }) as string[][];
    expect(records[0]).toEqual(['Name, "full"', 'Day', 'Placed at', 'Amount']);
    expect(records.slice(1).map((r) => r[0])).toEqual(names.map((n) => n ?? ''));
    expect(records[8]).toEqual(['', '2026-11-03', '2026-11-03 09:05:07', '']);
    expect(records).toHaveLength(9);
  });

  it('makes formula-like text inert, leaving signed numbers and phone numbers alone', () => {
    expect(['=1+2', '+cmd|x', '-2+3*A1', '@SUM(A1)', '\tx', '=HYPERLINK("http://x","y")'].map(inertText)).toEqual([
      "'=1+2",
      "'+cmd|x",
      "'-2+3*A1",
      "'@SUM(A1)",
      "'\tx",
      `'=HYPERLINK("http://x","y")`,
    ]);
    expect(['+91 98765 43210', '-12.5', '+1 (555) 010-0000', 'a=b', 'Ramesh'].map(inertText)).toEqual(['+91 98765 43210', '-12.5', '+1 (555) 010-0000', 'a=b', 'Ramesh']);
    expect(csvField(inertText('=HYPERLINK("x")'))).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('waits while the output is backed up, and goes on once it is read', async () => {
    const output = new PassThrough({ highWaterMark: 16 * 1024 });
    const writer = new CsvWriter(output, COLUMNS);
    for (let i = 0; i < 5000; i++) writer.addRow({ name: `row ${i}`.padEnd(200, 'x'), day: null, at: null, amount: i });
    let flushed = false;
    const flushing = writer.flush().then(() => (flushed = true));
    await sleep(50);
    expect(flushed).toBe(false);
    const chunks: Buffer[] = [];
    output.on('data', (c: Buffer) => chunks.push(c));
    await flushing;
    const ended = new Promise((resolve) => output.on('end', resolve));
    await writer.finish();
    await ended;
    expect(writer.rows).toBe(5000);
    expect(parse(Buffer.concat(chunks), { bom: true })).toHaveLength(5001);
  });

  it('gives up once the output is closed', async () => {
    const output = new PassThrough({ highWaterMark: 1024 });
    const writer = new CsvWriter(output, COLUMNS);
    for (let i = 0; i < 1000; i++) writer.addRow({ name: 'x'.repeat(100), day: null, at: null, amount: i });
    const flushing = writer.flush();
    output.destroy();
    await expect(flushing).rejects.toThrow(/closed/);
    await expect(writer.finish()).rejects.toThrow(/closed/);
  });
});

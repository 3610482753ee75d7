/**
 * The XLSX baseline: the same rows as the orders export (its SQL), read through a bare pg-cursor and
 * written by exceljs's streaming WorkbookWriter into a sink, with nothing else — no HTTP, no
 * typed cells, formats, totals or About sheet. Prints {rows, seconds, peakRssMb} as JSON.
 *
 *   node dist/bench/baselines/xlsx-bare.js <database url> <organization id>
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { Client } from 'pg';
import Cursor from 'pg-cursor';
import { ordersExport } from '../../src/domains/orders/orders.export';
import { raw, sql } from '../../src/db/tenant-sql';

async function main(): Promise<void> {
  const [url, organizationId] = process.argv.slice(2);
  const started = performance.now();
  const query = ordersExport.rows(Number(organizationId), {});
  const statement = sql`select ${raw(query.select)} from ${query.from} order by ${raw(query.orderBy)}`;
  const client = new Client({ connectionString: url });
  await client.connect();
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Orders');
  sheet.columns = ordersExport.columns.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  await client.query('begin isolation level repeatable read read only');
  const cursor = client.query(new Cursor(statement.pgText, [...statement.values]));
  let rows = 0;
  for (let batch = await cursor.read(1000); batch.length > 0; batch = await cursor.read(1000)) {
    for (const row of batch) sheet.addRow(row).commit();
    rows += batch.length;
  }
  await cursor.close();
  await client.query('commit');
  sheet.commit();
  await workbook.commit();
  await client.end();
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ rows, bytes, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, placeOrder, unique, type Workspace } from '../helpers/fixtures';
import { ORDER_HEADERS } from '../helpers/export-files';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * GET /api/v1/exports/<kind>?format=csv, read back with csv-parse and compared with the XLSX of the
 * same request (read with exceljs): the same columns, the same rows and the same filters. Each
 * download uses a fresh exports-scoped API key (the exports budget is 5 a minute per caller).
 */

const CSV_TYPE = 'text/csv; charset=utf-8';
type Kind = 'orders' | 'users' | 'sales';

let t: TestApp;
let ws: Workspace;
const TRICKY = {
  formula: '=HYPERLINK("http://evil.test","click")',
  comma: 'Ravi, "Junior"',
  lines: 'Shop\r\nNo. 4',
  unicode: 'ऋषि डेयरी',
};
let codes: string[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  ws = await createWorkspace(t, 'CSV Dairy');
  const n = unique();
  const cls = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: `Milk ${n}`, unit: 'litre' } });
  const product = await createProduct(t, ws, {
    product_name: 'Milk, "full cream"',
    product_class_id: cls.json().data.id,
    variants: [{ variant_name: '500 ml', item_sku_code: `FC-${n}`, mrp: 30, sp: 28.5 }],
  });
  const dev = await createUser(t, ws, UserType.DISTRIBUTOR, { first_name: TRICKY.formula, last_name: TRICKY.comma, store_name: TRICKY.lines });
  const rita = await createUser(t, ws, UserType.RETAILER, { first_name: TRICKY.unicode, store_name: '@store' });
  const order = (user: number, day: string, quantity: number) =>
    placeOrder(t, ws.token, { user_id: user, order_date: day, items: [{ product_variant_id: product.variantIds[0], quantity }] });
  const placed = [await order(dev.id, '2026-11-02', 3), await order(rita.id, '2026-11-05', 1), await order(dev.id, '2026-11-09', 2)];
  codes = placed.map((o) => String(o.order_code));
  const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${placed[2].id}/status`, token: ws.token, payload: { order_status: 2 } });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

async function download(kind: Kind, query: string): Promise<LightMyRequestResponse> {
  const { key } = await createApiKey(t, ws, { scopes: 'exports' });
  return t.request({ method: 'GET', url: `/api/v1/exports/${kind}?${query}`, apiKey: key });
}

/** The CSV answer's rows, after checking its headers, streaming and BOM. */
async function csvOf(kind: Kind, filters: string): Promise<string[][]> {
  const res = await download(kind, `format=csv${filters ? `&${filters}` : ''}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe(CSV_TYPE);
  expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${kind}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.headers['content-length']).toBeUndefined(); // streamed
  expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(res.rawPayload, { bom: true }) as string[][];
}

/** The XLSX of the same request as CSV text: dates as YYYY-MM-DD [HH:MM:SS], numbers plain, no totals row. */
async function xlsxAsCsv(kind: Kind, filters: string): Promise<string[][]> {
  const res = await download(kind, `format=xlsx${filters ? `&${filters}` : ''}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  const width = sheet.getRow(1).cellCount;
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    rows.push(
      Array.from({ length: width }, (_, i) => {
        const v = row.getCell(i + 1).value as unknown;
        if (v === null || v === undefined) return '';
        if (v instanceof Date) return v.getUTCHours() || v.getUTCMinutes() || v.getUTCSeconds() ? v.toISOString().slice(0, 19).replace('T', ' ') : v.toISOString().slice(0, 10);
        if (typeof v === 'object') return 'formula';
        return String(v);
      }),
    );
  });
  return rows.at(-1)![0] === 'Total' ? rows.slice(0, -1) : rows;
}

/**
 * CSV text as the XLSX holds it: numbers as numbers, the apostrophe that made a formula inert
 * dropped, CRLF inside a cell as LF (XML reads CRLF in text as LF; the CSV keeps the value as stored).
 */
const comparable = (rows: string[][]) =>
  rows.map((r) => r.map((c) => (c !== '' && /^-?\d+(\.\d+)?$/.test(c) ? String(Number(c)) : c.replace(/^'(?=[=+\-@])/, '').replaceAll('\r\n', '\n'))));

describe('GET /exports/<kind>?format=csv', () => {
  it.each<[Kind, string]>([
    ['orders', ''],
    ['orders', 'status=1&date_from=2026-11-03&date_to=2026-11-30'],
    ['users', 'type=distributor&status=1'],
    ['sales', 'date_from=2026-11-05'],
  ])('%s?%s: the same columns and rows as the XLSX', async (kind, filters) => {
    const csv = await csvOf(kind, filters);
    expect(comparable(csv)).toEqual(await xlsxAsCsv(kind, filters));
  });

  it('orders: header row, filters applied, text quoted and made inert', async () => {
    const all = await csvOf('orders', '');
    expect(all[0]).toEqual(ORDER_HEADERS);
    expect(all.slice(1).map((r) => r[0])).toEqual(codes);
    const customer = all[1][ORDER_HEADERS.indexOf('Customer')];
    expect(customer).toBe(`'${TRICKY.formula} ${TRICKY.comma}`);
    expect(all[1][ORDER_HEADERS.indexOf('Store')]).toBe(TRICKY.lines);
    expect(all[1][ORDER_HEADERS.indexOf('Total amount')]).toBe('85.50');
    expect(all[2][ORDER_HEADERS.indexOf('Store')]).toBe("'@store");
    expect(all[2][ORDER_HEADERS.indexOf('Customer')]).toContain(TRICKY.unicode);
    // Placed at: the workspace's wall clock, to the second.
    expect(all[1][ORDER_HEADERS.indexOf('Placed at')]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const filtered = await csvOf('orders', 'status=1&date_from=2026-11-03');
    expect(filtered.slice(1).map((r) => r[0])).toEqual([codes[1]]);
  });

  it('refuses an unknown format naming csv among the choices', async () => {
    const res = await download('users', 'format=tsv');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('format must be one of: xlsx, pdf, csv');
  });

  it('streams a large export past the PDF cap, every row', async () => {
    const big = await createWorkspace(t, 'Big CSV Dairy');
    const seed = await createUser(t, big, UserType.RETAILER);
    const em = t.orm.em.fork();
    const columns = (await em.getConnection().execute<{ column_name: string }[]>(`select column_name from information_schema.columns where table_name = 'app_user' and column_name <> 'id' and is_generated = 'NEVER'`)).map((c) => c.column_name);
    const copied = columns.map((c) => (c === 'official_email' ? `'bulk' || g || '@example.test'` : c === 'primary_contact_number' ? `'9' || lpad(g::text, 9, '0')` : `"${c}"`));
    await em.getConnection().execute(`insert into app_user (${columns.map((c) => `"${c}"`).join(', ')}) select ${copied.join(', ')} from app_user, generate_series(1, 12000) g where id = ? and organization_id = ?`, [seed.id, big.organizationId]);
    const { key } = await createApiKey(t, big, { scopes: 'exports' });
    const pdf = await t.request({ method: 'GET', url: '/api/v1/exports/users?format=pdf&type=retailer', apiKey: key });
    expect(pdf.statusCode).toBe(400);
    const res = await t.request({ method: 'GET', url: '/api/v1/exports/users?format=csv&type=retailer', apiKey: key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    const rows = parse(res.rawPayload, { bom: true }) as string[][];
    expect(rows).toHaveLength(12_002);
    expect(new Set(rows.slice(1).map((r) => r[4])).size).toBe(12_001);
  });
});

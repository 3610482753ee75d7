import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/domains/webhooks/target-guard';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, uniquePhone, unique, type Workspace } from '../helpers/fixtures';
import { startHttpsReceiver, type HttpsReceiver } from '../helpers/https-receiver';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { ORDER_HEADERS } from '../helpers/export-files';
import { errorEnvelope } from '../helpers/envelope';

/**
 * REST downloads GET /api/v1/exports/orders|users|sales (XLSX and PDF), read back with real
 * parsers: exceljs for the workbooks, poppler's pdfinfo / pdftotext / pdfimages / pdftoppm for the
 * PDFs (temporary files, removed afterwards). Every expected value below is computed by hand from
 * the fixtures.
 *
 * The exports budget is 5 requests a minute per caller, so each workspace hands out callers from a
 * pool: its admin's session first, then fresh API keys scoped to `exports` (keys add no users, so
 * the users exports stay exact).
 */

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PDF_TYPE = 'application/pdf';
const ADMINS_ONLY = 'Only workspace administrators may do this';
const NO_CREDENTIAL = 'Authentication required: send a session token or an API key';
const TOO_MANY = 'Too many requests, please try again later';

/** The orders header row as pdftotext lays it out: "Payment mode" wraps in its column. */
const ORDER_PDF_HEADER = new RegExp(
  `^\\s*${['Order code', 'Order date', 'Status', 'Customer', 'Store', 'Town', 'Route', 'Production unit', 'Items', 'Total amount', 'Payment', 'Delivery date', 'Placed at'].join('\\s+')}\\n\\s+mode\\n`,
  'm',
);
const ORDER_WIDTHS = [18, 12, 11, 20, 20, 16, 16, 18, 10, 18, 14, 13, 17];
const USER_HEADERS = ['ID', 'Name', 'Type', 'Phone', 'E-mail', 'Store', 'Town', 'Route', 'Role', 'Status', 'Added at'];
const USER_WIDTHS = [8, 24, 12, 16, 28, 22, 16, 16, 16, 10, 17];
const SALES_HEADERS = [
  'Order date',
  'Order code',
  'Customer',
  'Town',
  'Class',
  'Product',
  'Variant',
  'SKU',
  'Quantity',
  'In class unit',
  'Unit',
  'Unit price',
  'Amount',
];
const SALES_WIDTHS = [12, 18, 22, 14, 14, 22, 16, 14, 10, 13, 8, 12, 14];

type Cell = string | number | Date | null | { formula: string; result: number };
type Credential = { token: string } | { apiKey: string };

// ---------------------------------------------------------------------------------------------
// Small helpers

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
/** A workspace wall-clock time as the spreadsheet keeps it (UTC-based). */
const wall = (local: string) => new Date(`${local}:00Z`);
/** The local day of a time zone now, YYYY-MM-DD. */
const localDay = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One line holding these texts in this order (blank cells skipped), with only spaces between them. */
const lineOf = (cells: readonly string[]) => new RegExp(`(^| )${cells.filter((c) => c !== '').map(escape).join(' +')}( |$)`, 'm');
/** The wall-clock time of a time zone now, as a UTC-based Date (like the spreadsheet's timestamps). */
function wallNow(timeZone: string): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value]),
  );
  return new Date(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`);
}
/** "YYYY-MM-DD HH:MM (zone)" of the moment the file was made: the workspace's wall clock, within two minutes of now. */
function expectGeneratedNow(text: string, timeZone: string): void {
  const match = new RegExp(`(\\d{4}-\\d{2}-\\d{2}) (\\d{2}:\\d{2}) \\(${escape(timeZone)}\\)`).exec(text);
  expect(match, text.slice(0, 300)).not.toBeNull();
  const printed = new Date(`${match![1]}T${match![2]}:00Z`).getTime();
  expect(Math.abs(printed - wallNow(timeZone).getTime())).toBeLessThan(120_000);
}
const money = (n: number) => new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);

/** The exports budget's headers of an answer. */
function expectExportBudget(res: LightMyRequestResponse, remaining?: number): void {
  expect(res.headers['x-ratelimit-limit'], res.body.slice(0, 200)).toBe('5');
  if (remaining !== undefined) expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
}

// ----- PNG (a real image for the logo) -----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
/** A solid-colour RGB PNG of width × height. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set([r, g, b], y * (width * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ----- PDFs through poppler -----

const run = promisify(execFile);

interface PdfImage {
  page: number;
  width: number;
  height: number;
}

interface PdfFacts {
  pages: number;
  info: Record<string, string>;
  /** pdftotext -layout, one entry per page. */
  text: string[];
  images: PdfImage[];
  /** Pixels of page 1 (rendered at 50 dpi) of the given #RRGGBB colours. */
  pixels: Record<string, number>;
}

async function readPdf(bytes: Buffer, colours: string[] = []): Promise<PdfFacts> {
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sd-exports-test-'));
  try {
    const file = path.join(dir, 'export.pdf');
    await writeFile(file, bytes);
    const [info, text, images] = await Promise.all([
      run('pdfinfo', [file]),
      run('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 }),
      run('pdfimages', ['-list', file]),
    ]);
    const fields = Object.fromEntries(
      info.stdout
        .split('\n')
        .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1].trim(), m[2].trim()]),
    );
    const pages = Number(fields.Pages);
    // Page texts end with a form feed each.
    const texts = text.stdout.split('\f').slice(0, pages);
    const listed = images.stdout
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [page, , , width, height] = line.trim().split(/\s+/);
        return { page: Number(page), width: Number(width), height: Number(height) };
      });
    const pixels: Record<string, number> = {};
    if (colours.length > 0) {
      await run('pdftoppm', ['-r', '50', '-f', '1', '-l', '1', '-singlefile', file, path.join(dir, 'page')]);
      const ppm = await readFile(path.join(dir, 'page.ppm'));
      // P6 <width> <height> 255, then RGB bytes.
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
      const data = ppm.subarray(header[0].length);
      for (const colour of colours) {
        const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
        let count = 0;
        for (let i = 0; i + 2 < data.length; i += 3) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) count++;
        pixels[colour] = count;
      }
    }
    return { pages, info: fields, text: texts, images: listed, pixels };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ----- Workbooks through exceljs -----

async function readXlsx(bytes: Buffer): Promise<ExcelJS.Workbook> {
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** A row's first `n` cell values, empty cells as null. */
function rowValues(sheet: ExcelJS.Worksheet, rowNumber: number, n: number): Cell[] {
  const row = sheet.getRow(rowNumber);
  return Array.from({ length: n }, (_, i) => (row.getCell(i + 1).value ?? null) as Cell);
}

/** Every row of the sheet, from row 2 on. */
function dataRows(sheet: ExcelJS.Worksheet, n: number): Cell[][] {
  return Array.from({ length: sheet.rowCount - 1 }, (_, i) => rowValues(sheet, i + 2, n));
}

/** The About sheet as [label, value] pairs. */
function aboutOf(workbook: ExcelJS.Workbook): string[][] {
  const about = workbook.getWorksheet('About')!;
  expect(about).toBeDefined();
  return Array.from({ length: about.rowCount }, (_, i) => rowValues(about, i + 1, 2) as string[]);
}

/** Sheet 1's name, headers (bold), frozen header row and column widths. */
function expectSheetLayout(workbook: ExcelJS.Workbook, title: string, headers: string[], widths: number[]): ExcelJS.Worksheet {
  expect(workbook.worksheets.map((s) => s.name)).toEqual([title, 'About']);
  const sheet = workbook.worksheets[0];
  expect(rowValues(sheet, 1, headers.length + 1)).toEqual([...headers, null]);
  headers.forEach((_, i) => expect(sheet.getRow(1).getCell(i + 1).font?.bold, `header ${headers[i]} bold`).toBe(true));
  expect(sheet.views).toHaveLength(1);
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  expect(widths.map((_, i) => sheet.getColumn(i + 1).width)).toEqual(widths);
  return sheet;
}

/** The totals row: "Total" in column A, SUM formulas (with results) under the summed columns, bold. */
function expectTotals(sheet: ExcelJS.Worksheet, width: number, sums: Record<number, number>, dataRowCount: number): void {
  const rowNumber = dataRowCount + 2;
  expect(sheet.rowCount).toBe(rowNumber);
  const expected: Cell[] = Array.from({ length: width }, (_, i) => {
    if (i === 0) return 'Total';
    const sum = sums[i + 1];
    if (sum === undefined) return null;
    const letter = String.fromCharCode(64 + i + 1);
    return dataRowCount > 0 ? { formula: `SUM(${letter}2:${letter}${dataRowCount + 1})`, result: sum } : sum;
  });
  expect(rowValues(sheet, rowNumber, width)).toEqual(expected);
  expect(sheet.getRow(rowNumber).getCell(1).font?.bold).toBe(true);
}

// ---------------------------------------------------------------------------------------------
// The app, a fake DNS and the logo server

const dns = new Map<string, string>();
const resolveHost: HostResolver = async (host) => {
  const address = dns.get(host);
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};
dns.set('logo.hooks.test', '127.0.0.1');
dns.set('private.hooks.test', '127.0.0.1');

let t: TestApp;
let receiver: HttpsReceiver;
const LOGO = png(16, 12, [0x2e, 0x86, 0xc1]);

/** Credentials of a workspace, each spent at most five times (the exports budget of a minute). */
class Callers {
  private current: Credential;
  private uses = 0;

  constructor(private readonly ws: Workspace) {
    this.current = { token: ws.token };
  }

  async next(): Promise<Credential> {
    if (this.uses === 5) {
      this.current = { apiKey: (await createApiKey(t, this.ws, { scopes: 'exports' })).key };
      this.uses = 0;
    }
    this.uses += 1;
    return this.current;
  }
}
const pools = new Map<number, Callers>();
const callersOf = (ws: Workspace) => {
  if (!pools.has(ws.organizationId)) pools.set(ws.organizationId, new Callers(ws));
  return pools.get(ws.organizationId)!;
};

/** GET /api/v1/exports/{kind}?{query} as the next caller of the workspace. */
async function exportOf(ws: Workspace, kind: 'orders' | 'users' | 'sales', query = ''): Promise<LightMyRequestResponse> {
  return t.request({ method: 'GET', url: `/api/v1/exports/${kind}${query ? `?${query}` : ''}`, ...(await callersOf(ws).next()) });
}

/** A 200 file answer with the exact headers of its format; returns the bytes. */
function expectFile(res: LightMyRequestResponse, kind: string, format: 'xlsx' | 'pdf', timeZone: string): Buffer {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe(format === 'xlsx' ? XLSX_TYPE : PDF_TYPE);
  expect(res.headers['content-disposition']).toBe(`attachment; filename="${kind}-${localDay(timeZone)}.${format}"`);
  expect(res.headers['cache-control']).toBe('private, no-store');
  expectExportBudget(res);
  if (format === 'pdf') expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
  else expect(res.headers['content-length']).toBeUndefined(); // streamed
  return res.rawPayload;
}

async function sql<Row>(query: string, params: unknown[] = []): Promise<Row[]> {
  return (await t.orm.em.fork().getConnection().execute(query, params)) as unknown as Row[];
}

async function post(ws: Workspace, url: string, payload: Record<string, unknown>): Promise<number> {
  const res = await t.request({ method: 'POST', url: `/api/v1${url}`, token: ws.token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function configure(ws: Workspace, payload: Record<string, unknown>): Promise<void> {
  const res = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload });
  expect(res.statusCode, res.body).toBe(200);
}

async function advance(ws: Workspace, orderId: number, to: number): Promise<void> {
  for (let status = 2; status <= to; status++) {
    const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${orderId}/status`, token: ws.token, payload: { order_status: status } });
    expect(res.statusCode, res.body).toBe(200);
  }
}

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  receiver.fallback = { status: 200, headers: { 'content-type': 'image/png' }, body: LOGO as unknown as string }; // res.end sends the bytes as they are
  t = await buildTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'logo.hooks.test' }, { resolveHost });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

// ---------------------------------------------------------------------------------------------
// Orders and sales of one workspace (Asia/Kolkata, UTC+5:30), and another workspace's

interface OrdersFixture {
  ws: Workspace;
  other: Workspace;
  units: { central: number; east: number; otherPlant: number };
  /** Order codes by fixture name. */
  code: Record<'o1' | 'o2' | 'o3' | 'o4' | 'o5' | 'o6', string>;
  otherCode: string;
  /** Every orders row, export order (order_date, id). */
  rows: Record<'o1' | 'o2' | 'o3' | 'o4' | 'o5' | 'o6', Cell[]>;
}

const KOLKATA = 'Asia/Kolkata';

async function seedOrders(): Promise<OrdersFixture> {
  const ws = await createWorkspace(t, 'Anand Milk Union');
  const other = await createWorkspace(t, 'Rival Dairy');
  await configure(ws, { time_zone: KOLKATA });
  const anand = await post(ws, '/masters/towns', { town_name: 'Anand' });
  const karamsad = await post(ws, '/masters/towns', { town_name: 'Karamsad' });
  const northLoop = await post(ws, '/masters/routes', { route_name: 'North Loop', town_id: anand });
  const central = await post(ws, '/masters/production-units', { production_unit_name: 'Central Dairy' });
  const east = await post(ws, '/masters/production-units', { production_unit_name: 'East Plant' });
  const otherPlant = await post(other, '/masters/production-units', { production_unit_name: 'Rival Plant' });

  const milk = await post(ws, '/masters/product-classes', { product_class: 'Milk', unit: 'litre' });
  const curdClass = await post(ws, '/masters/product-classes', { product_class: 'Curd', unit: 'kg' });
  const n = unique();
  const milkProduct = await t.request({
    method: 'POST',
    url: '/api/v1/products',
    token: ws.token,
    payload: {
      product_name: 'Toned Milk',
      product_class_id: milk,
      variants: [
        { variant_name: '500 ml', item_sku_code: `TM-500-${n}`, mrp: 30, sp: 28.5, unit_quantity: 0.5 },
        { variant_name: '1 l', item_sku_code: `TM-1000-${n}`, mrp: 58, sp: 55 },
      ],
    },
  });
  expect(milkProduct.statusCode, milkProduct.body).toBe(201);
  const [v1, v2] = milkProduct.json().data.ProductVariants.map((v: { id: number }) => v.id);
  const curdProduct = await t.request({
    method: 'POST',
    url: '/api/v1/products',
    token: ws.token,
    payload: {
      product_name: 'Curd Cup',
      product_class_id: curdClass,
      variants: [{ variant_name: '400 g', item_sku_code: `CC-400-${n}`, mrp: 40, sp: 35.75, unit_quantity: 0.4 }],
    },
  });
  expect(curdProduct.statusCode, curdProduct.body).toBe(201);
  const v3 = curdProduct.json().data.ProductVariants[0].id;

  const dev = await createUser(t, ws, UserType.DISTRIBUTOR, { first_name: 'Dev', last_name: 'Distributor', store_name: 'Dev Traders', town_id: anand, route_id: northLoop });
  const rita = await createUser(t, ws, UserType.RETAILER, { first_name: 'Rita', last_name: 'Retailer', store_name: 'Rita Stores', town_id: karamsad });

  const order = (user: number, orderDate: string, items: [number, number][], extra: Record<string, unknown> = {}) =>
    placeOrder(t, ws.token, { user_id: user, order_date: orderDate, items: items.map(([id, quantity]) => ({ product_variant_id: id, quantity })), ...extra });
  // Created in this order (codes 000001..000006); exported by order date, then id.
  const o1 = await order(dev.id, '2026-11-03', [[v1, 4], [v2, 2]], { production_unit_id: central, mode_of_payment: 'cash', delivery_date: '2026-11-05' });
  const o2 = await order(rita.id, '2026-11-01', [[v3, 3]], { production_unit_id: east, mode_of_payment: 'upi' });
  const o3 = await order(dev.id, '2026-11-15', [[v2, 1], [v3, 10]], { production_unit_id: central, mode_of_payment: 'credit', delivery_date: '2026-11-16' });
  const o4 = await order(rita.id, '2026-10-31', [[v1, 1]]);
  const o5 = await order(dev.id, '2026-11-20', [[v1, 2], [v2, 3], [v3, 1]], { production_unit_id: east, mode_of_payment: 'bank_transfer' });
  const o6 = await order(rita.id, '2026-11-03', [[v2, 5]], { production_unit_id: east, mode_of_payment: 'cheque' });
  await advance(ws, o1.id, 4);
  await advance(ws, o3.id, 3);
  await advance(ws, o4.id, 2);
  await advance(ws, o5.id, 3);
  // Placed-at times in UTC; the export shows Asia/Kolkata wall-clock time (o6 crosses midnight).
  const placed: [number, string][] = [
    [o1.id, '2026-11-03T04:30:00Z'],
    [o2.id, '2026-11-01T00:00:00Z'],
    [o3.id, '2026-11-15T12:45:30Z'],
    [o4.id, '2026-10-31T18:29:00Z'],
    [o5.id, '2026-11-20T06:00:00Z'],
    [o6.id, '2026-11-03T20:15:00Z'],
  ];
  for (const [id, at] of placed) await sql('update sales_order set created_at = ? where id = ?', [at, id]);

  // The other workspace: one order of its own customer.
  const otherClass = await post(other, '/masters/product-classes', { product_class: 'Ghee', unit: 'kg' });
  const otherProduct = await t.request({
    method: 'POST',
    url: '/api/v1/products',
    token: other.token,
    payload: { product_name: 'Rival Ghee', product_class_id: otherClass, variants: [{ variant_name: '1 kg', item_sku_code: `RG-${n}`, mrp: 600, sp: 550 }] },
  });
  expect(otherProduct.statusCode, otherProduct.body).toBe(201);
  const bina = await createUser(t, other, UserType.DISTRIBUTOR, { first_name: 'Bina', last_name: 'Buyer', store_name: 'Bina Mart' });
  const otherOrder = await placeOrder(t, other.token, {
    user_id: bina.id,
    order_date: '2026-11-03',
    production_unit_id: otherPlant,
    items: [{ product_variant_id: otherProduct.json().data.ProductVariants[0].id, quantity: 2 }],
  });

  const code = {
    o1: o1.order_code as string,
    o2: o2.order_code as string,
    o3: o3.order_code as string,
    o4: o4.order_code as string,
    o5: o5.order_code as string,
    o6: o6.order_code as string,
  };
  expect(Object.values(code)).toEqual(['ORD-2026-000001', 'ORD-2026-000002', 'ORD-2026-000003', 'ORD-2026-000004', 'ORD-2026-000005', 'ORD-2026-000006']);
  const rows = {
    o4: [code.o4, day('2026-10-31'), 'Forwarded', 'Rita Retailer', 'Rita Stores', 'Karamsad', null, null, 1, 28.5, null, null, wall('2026-10-31T23:59')],
    o2: [code.o2, day('2026-11-01'), 'Initiated', 'Rita Retailer', 'Rita Stores', 'Karamsad', null, 'East Plant', 1, 107.25, 'upi', null, wall('2026-11-01T05:30')],
    o1: [code.o1, day('2026-11-03'), 'Delivered', 'Dev Distributor', 'Dev Traders', 'Anand', 'North Loop', 'Central Dairy', 2, 224, 'cash', day('2026-11-05'), wall('2026-11-03T10:00')],
    o6: [code.o6, day('2026-11-03'), 'Initiated', 'Rita Retailer', 'Rita Stores', 'Karamsad', null, 'East Plant', 1, 275, 'cheque', null, wall('2026-11-04T01:45')],
    o3: [code.o3, day('2026-11-15'), 'Approved', 'Dev Distributor', 'Dev Traders', 'Anand', 'North Loop', 'Central Dairy', 2, 412.5, 'credit', day('2026-11-16'), new Date('2026-11-15T18:15:30Z')],
    o5: [code.o5, day('2026-11-20'), 'Approved', 'Dev Distributor', 'Dev Traders', 'Anand', 'North Loop', 'East Plant', 3, 257.75, 'bank_transfer', null, wall('2026-11-20T11:30')],
  } satisfies Record<string, Cell[]>;
  return { ws, other, units: { central, east, otherPlant }, code, otherCode: otherOrder.order_code as string, rows };
}

/** The sales rows (one per order line) of seedOrders, in export order. */
function salesRows(code: OrdersFixture['code']): Cell[][] {
  const dev = ['Dev Distributor', 'Anand'];
  const rita = ['Rita Retailer', 'Karamsad'];
  const half = ['Milk', 'Toned Milk', '500 ml'];
  const litre = ['Milk', 'Toned Milk', '1 l'];
  const cup = ['Curd', 'Curd Cup', '400 g'];
  const line = (date: string, orderCode: string, who: string[], what: string[], quantity: number, inUnit: number, unit: string, price: number, amount: number): Cell[] => [
    day(date),
    orderCode,
    ...who,
    ...what,
    expect.stringMatching(/^(TM-500|TM-1000|CC-400)-\d+$/) as unknown as string,
    quantity,
    inUnit,
    unit,
    price,
    amount,
  ];
  return [
    line('2026-10-31', code.o4, rita, half, 1, 0.5, 'litre', 28.5, 28.5),
    line('2026-11-01', code.o2, rita, cup, 3, 1.2, 'kg', 35.75, 107.25),
    line('2026-11-03', code.o1, dev, half, 4, 2, 'litre', 28.5, 114),
    line('2026-11-03', code.o1, dev, litre, 2, 2, 'litre', 55, 110),
    line('2026-11-03', code.o6, rita, litre, 5, 5, 'litre', 55, 275),
    line('2026-11-15', code.o3, dev, litre, 1, 1, 'litre', 55, 55),
    line('2026-11-15', code.o3, dev, cup, 10, 4, 'kg', 35.75, 357.5),
    line('2026-11-20', code.o5, dev, half, 2, 1, 'litre', 28.5, 57),
    line('2026-11-20', code.o5, dev, litre, 3, 3, 'litre', 55, 165),
    line('2026-11-20', code.o5, dev, cup, 1, 0.4, 'kg', 35.75, 35.75),
  ];
}

/** How an orders row prints in the PDF. */
function printedOrder(row: Cell[]): string[] {
  return row.map((cell, i) => {
    if (cell === null) return '';
    if (cell instanceof Date) return i === 12 ? cell.toISOString().slice(0, 16).replace('T', ' ') : cell.toISOString().slice(0, 10);
    if (i === 9) return money(cell as number);
    return String(cell);
  });
}

describe('GET /api/v1/exports/orders and /exports/sales', () => {
  let f: OrdersFixture;
  beforeAll(async () => {
    f = await seedOrders();
  });

  it('XLSX: sheet "Orders" with bold frozen headers, widths, typed cells in date-then-id order, totals as SUM formulas, an About sheet', async () => {
    const res = await exportOf(f.ws, 'orders');
    const workbook = await readXlsx(expectFile(res, 'orders', 'xlsx', KOLKATA));
    expect(workbook.creator).toBe('Anand Milk Union');
    expect(workbook.title).toBe('Orders');
    const sheet = expectSheetLayout(workbook, 'Orders', ORDER_HEADERS, ORDER_WIDTHS);
    const { o1, o2, o3, o4, o5, o6 } = f.rows;
    expect(dataRows(sheet, 13).slice(0, 6)).toEqual([o4, o2, o1, o6, o3, o5]);
    // Typed: numbers are numbers, dates are Dates with date formats.
    const first = sheet.getRow(2);
    expect(typeof first.getCell(9).value).toBe('number');
    expect(typeof first.getCell(10).value).toBe('number');
    expect(first.getCell(2).value).toBeInstanceOf(Date);
    expect(first.getCell(13).value).toBeInstanceOf(Date);
    expect([2, 9, 10, 12, 13].map((c) => sheet.getRow(3).getCell(c).numFmt)).toEqual(['yyyy-mm-dd', '#,##0', '#,##0.00', 'yyyy-mm-dd', 'yyyy-mm-dd hh:mm']);
    expectTotals(sheet, 13, { 9: 10, 10: 1305 }, 6);
    const about = aboutOf(workbook);
    expect(about.map(([label]) => label)).toEqual(['Export', 'Workspace', 'Generated', 'Rows']);
    expect(about[0]).toEqual(['Export', 'Orders']);
    expect(about[1]).toEqual(['Workspace', 'Anand Milk Union']);
    expect(about[2][1]).toMatch(new RegExp(`^${localDay(KOLKATA)} \\d{2}:\\d{2} \\(Asia/Kolkata\\)$`));
    expect(about[3]).toEqual(['Rows', '6']);
    expectGeneratedNow(about[2][1], KOLKATA);
    // The other workspace's order is nowhere.
    expect(JSON.stringify(dataRows(sheet, 13))).not.toMatch(/Bina|Rival/);
  });

  it('filters by status, order date (inclusive bounds), production unit and all together; the About sheet lists them', async () => {
    const { o1, o2, o3, o4, o5, o6 } = f.rows;
    const cases: [string, Cell[][], string[]][] = [
      ['status=1', [o2, o6], ['Status: Initiated']],
      ['status=2', [o4], ['Status: Forwarded']],
      ['status=3', [o3, o5], ['Status: Approved']],
      ['status=4', [o1], ['Status: Delivered']],
      ['date_from=2026-11-01&date_to=2026-11-15', [o2, o1, o6, o3], ['Order date: 2026-11-01 to 2026-11-15']],
      ['date_from=2026-11-03', [o1, o6, o3, o5], ['Order date: from 2026-11-03']],
      ['date_to=2026-11-01', [o4, o2], ['Order date: up to 2026-11-01']],
      [`production_unit_id=${f.units.central}`, [o1, o3], ['Production unit: Central Dairy']],
      [`production_unit_id=${f.units.east}`, [o2, o6, o5], ['Production unit: East Plant']],
      [
        `format=xlsx&status=3&date_from=2026-11-01&date_to=2026-11-30&production_unit_id=${f.units.central}`,
        [o3],
        ['Status: Approved', 'Order date: 2026-11-01 to 2026-11-30', 'Production unit: Central Dairy'],
      ],
    ];
    for (const [query, rows, filterLines] of cases) {
      const workbook = await readXlsx(expectFile(await exportOf(f.ws, 'orders', query), 'orders', 'xlsx', KOLKATA));
      const sheet = workbook.worksheets[0];
      expect(dataRows(sheet, 13).slice(0, -1), query).toEqual(rows);
      const items = rows.reduce((s, r) => s + (r[8] as number), 0);
      const amount = Math.round(rows.reduce((s, r) => s + (r[9] as number), 0) * 100) / 100;
      expectTotals(sheet, 13, { 9: items, 10: amount }, rows.length);
      const about = aboutOf(workbook);
      expect(about.slice(3), query).toEqual([['Rows', String(rows.length)], ...filterLines.map((line) => ['Filter', line])]);
    }
  });

  it('an export with no rows keeps its header and a Total row of zeros (no formulas over nothing)', async () => {
    const workbook = await readXlsx(expectFile(await exportOf(f.ws, 'orders', `status=4&production_unit_id=${f.units.east}`), 'orders', 'xlsx', KOLKATA));
    const sheet = expectSheetLayout(workbook, 'Orders', ORDER_HEADERS, ORDER_WIDTHS);
    expectTotals(sheet, 13, { 9: 0, 10: 0 }, 0);
    expect(aboutOf(workbook).slice(3)).toEqual([
      ['Rows', '0'],
      ['Filter', 'Status: Delivered'],
      ['Filter', 'Production unit: East Plant'],
    ]);
  });

  it('PDF: title, filter lines, generated line with row count, every row, totals, page numbers; the workspace name heads it', async () => {
    const res = await exportOf(f.ws, 'orders', 'format=pdf');
    const pdf = await readPdf(expectFile(res, 'orders', 'pdf', KOLKATA));
    expect(pdf.pages).toBe(1);
    expect(pdf.info.Title).toBe('Orders – Anand Milk Union');
    expect(pdf.info.Author).toBe('Anand Milk Union');
    expect(pdf.info['Page size']).toMatch(/^841\.89 x 595\.28 pts \(A4\)/); // landscape
    expect(pdf.images).toEqual([]);
    const text = pdf.text[0];
    const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
    expect(lines[0]).toBe('Anand Milk Union');
    expect(lines[1]).toBe('Orders');
    expect(lines[2]).toMatch(new RegExp(`^Generated ${localDay(KOLKATA)} \\d{2}:\\d{2} \\(Asia/Kolkata\\) · 6 rows$`));
    expectGeneratedNow(lines[2], KOLKATA);
    expect(text).toMatch(ORDER_PDF_HEADER);
    const { o1, o2, o3, o4, o5, o6 } = f.rows;
    const order = [o4, o2, o1, o6, o3, o5].map((row) => text.search(lineOf(printedOrder(row))));
    expect(order.every((at) => at > 0), JSON.stringify(order)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toMatch(lineOf(['Total', '10', '1,305.00']));
    expect(text).toMatch(lineOf(['Anand Milk Union', 'Page 1 of 1']));
    expect(text).not.toMatch(/GSTIN|FSSAI|Phone:|Bina|Rival/);
  });

  it('PDF with every filter prints one line per filter and only the matching rows', async () => {
    const query = `format=pdf&status=3&date_from=2026-11-01&date_to=2026-11-30&production_unit_id=${f.units.central}`;
    const pdf = await readPdf(expectFile(await exportOf(f.ws, 'orders', query), 'orders', 'pdf', KOLKATA));
    const lines = pdf.text[0].split('\n').map((l) => l.trim()).filter(Boolean);
    expect(lines.slice(1, 5)).toEqual(['Orders', 'Status: Approved', 'Order date: 2026-11-01 to 2026-11-30', 'Production unit: Central Dairy']);
    expect(lines[5]).toMatch(/^Generated .* · 1 row$/);
    expect(pdf.text[0]).toMatch(lineOf(printedOrder(f.rows.o3)));
    for (const other of [f.code.o1, f.code.o2, f.code.o4, f.code.o5, f.code.o6]) expect(pdf.text[0]).not.toContain(other);
    expect(pdf.text[0]).toMatch(lineOf(['Total', '2', '412.50']));
  });

  it('sales XLSX: one row per order line, quantity in the class unit (variant unit_quantity), totals on Quantity and Amount', async () => {
    const workbook = await readXlsx(expectFile(await exportOf(f.ws, 'sales'), 'sales', 'xlsx', KOLKATA));
    const sheet = expectSheetLayout(workbook, 'Sales', SALES_HEADERS, SALES_WIDTHS);
    const rows = dataRows(sheet, 13);
    expect(rows.slice(0, -1)).toEqual(salesRows(f.code));
    const skus = rows.slice(0, -1).map((r) => String(r[7]).replace(/-\d+$/, ''));
    expect(skus).toEqual(['TM-500', 'CC-400', 'TM-500', 'TM-1000', 'TM-1000', 'TM-1000', 'CC-400', 'TM-500', 'TM-1000', 'CC-400']);
    expect([9, 10, 12, 13].map((c) => sheet.getRow(2).getCell(c).numFmt)).toEqual(['#,##0', '#,##0.###', '#,##0.00', '#,##0.00']);
    expectTotals(sheet, 13, { 9: 32, 13: 1305 }, 10);
    expect(aboutOf(workbook)).toEqual([
      ['Export', 'Sales'],
      ['Workspace', 'Anand Milk Union'],
      ['Generated', expect.stringMatching(new RegExp(`^${localDay(KOLKATA)} \\d{2}:\\d{2} \\(Asia/Kolkata\\)$`))],
      ['Rows', '10'],
    ]);
  });

  it('sales filters by order date; the PDF prints lines, the date filter and totals', async () => {
    const all = salesRows(f.code);
    const workbook = await readXlsx(expectFile(await exportOf(f.ws, 'sales', 'date_from=2026-11-03&date_to=2026-11-15'), 'sales', 'xlsx', KOLKATA));
    const sheet = workbook.worksheets[0];
    expect(dataRows(sheet, 13).slice(0, -1)).toEqual(all.slice(2, 7));
    expectTotals(sheet, 13, { 9: 22, 13: 911.5 }, 5);
    expect(aboutOf(workbook).slice(3)).toEqual([
      ['Rows', '5'],
      ['Filter', 'Order date: 2026-11-03 to 2026-11-15'],
    ]);

    const pdf = await readPdf(expectFile(await exportOf(f.ws, 'sales', 'format=pdf&date_from=2026-11-15'), 'sales', 'pdf', KOLKATA));
    const text = pdf.text[0];
    expect(text).toContain('Order date: from 2026-11-15');
    expect(text).toMatch(/Generated .* · 5 rows/);
    expect(text).toMatch(lineOf(SALES_HEADERS));
    expect(text).toMatch(lineOf(['2026-11-15', f.code.o3, 'Dev Distributor', 'Anand', 'Curd', 'Curd Cup', '400 g']));
    expect(text).toMatch(lineOf(['10', '4', 'kg', '35.75', '357.50']));
    expect(text).toMatch(lineOf(['1', '0.4', 'kg', '35.75', '35.75']));
    expect(text).toMatch(lineOf(['Total', '17', '670.25']));
    for (const code of [f.code.o1, f.code.o2, f.code.o4, f.code.o6]) expect(text).not.toContain(code);
  });

  it("keeps workspaces apart: the other workspace's export holds only its own order and sales line", async () => {
    const orders = await readXlsx(expectFile(await exportOf(f.other, 'orders'), 'orders', 'xlsx', 'UTC'));
    expect(dataRows(orders.worksheets[0], 13)).toEqual([
      [f.otherCode, day('2026-11-03'), 'Initiated', 'Bina Buyer', 'Bina Mart', null, null, 'Rival Plant', 1, 1100, null, null, expect.any(Date)],
      ['Total', null, null, null, null, null, null, null, { formula: 'SUM(I2:I2)', result: 1 }, { formula: 'SUM(J2:J2)', result: 1100 }, null, null, null],
    ]);
    const sales = await readXlsx(expectFile(await exportOf(f.other, 'sales'), 'sales', 'xlsx', 'UTC'));
    expect(dataRows(sales.worksheets[0], 13).map((r) => r.slice(1, 9))).toEqual([
      [f.otherCode, 'Bina Buyer', null, 'Ghee', 'Rival Ghee', '1 kg', expect.stringMatching(/^RG-/), 2],
      [null, null, null, null, null, null, null, { formula: 'SUM(I2:I2)', result: 2 }],
    ]);
    const pdf = await readPdf(expectFile(await exportOf(f.other, 'sales', 'format=pdf'), 'sales', 'pdf', 'UTC'));
    expect(pdf.text[0]).not.toMatch(/Dev Distributor|Rita Retailer|Toned Milk|Curd/);
    expect(pdf.text[0]).toMatch(/Generated .* \(UTC\) · 1 row$/m);
  });

  it('offers no HEAD on export routes or job files (it would write or read a whole file for nothing)', async () => {
    const { key } = await createApiKey(t, f.ws, { scopes: 'exports' });
    for (const url of ['/api/v1/exports/orders', '/api/v1/exports/users', '/api/v1/exports/sales', '/api/v1/exports/files/1?expires=1&signature=x']) {
      const res = await t.request({ method: 'HEAD', url, apiKey: key });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-disposition'], url).toBeUndefined();
    }
  });

  describe('validation: 400 naming the parameter, before any byte of a file', () => {
    async function expect400(kind: 'orders' | 'users' | 'sales', query: string, message: string): Promise<void> {
      const res = await exportOf(f.ws, kind, query);
      expect(res.statusCode, `${kind}?${query}: ${res.body}`).toBe(400);
      expect(res.json(), `${kind}?${query}`).toEqual(errorEnvelope(400, message));
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBeUndefined();
      expectExportBudget(res);
    }

    it('orders: format, status, dates, date order, production unit', async () => {
      const unit = `production_unit_id=${f.units.central}`;
      const cases: [string, string][] = [
        [`format=tsv&${unit}`, 'format must be one of: xlsx, pdf, csv'],
        [`format=XLSX&${unit}`, 'format must be one of: xlsx, pdf, csv'],
        [`format=&${unit}`, 'format must be one of: xlsx, pdf, csv'],
        [`status=0&${unit}`, 'status must be one of: 1, 2, 3, 4'],
        [`status=5&${unit}`, 'status must be one of: 1, 2, 3, 4'],
        [`status=abc&${unit}`, 'status must be an integer'],
        [`date_from=2026-02-30&date_to=2026-03-31&${unit}`, 'date_from must be a date in the form YYYY-MM-DD'],
        [`date_from=yesterday&${unit}`, 'date_from must be a date in the form YYYY-MM-DD'],
        [`date_to=2026-13-01&${unit}`, 'date_to must be a date in the form YYYY-MM-DD'],
        [`date_from=2026-11-30&date_to=2026-11-01&${unit}`, 'date_from must not be after date_to'],
        [`production_unit_id=${f.units.otherPlant}`, 'production_unit_id is not a production unit of this workspace'],
        ['production_unit_id=999999', 'production_unit_id is not a production unit of this workspace'],
        ['production_unit_id=0', 'production_unit_id must be >= 1'],
        ['production_unit_id=abc', 'production_unit_id must be an integer'],
      ];
      for (const [query, message] of cases) await expect400('orders', query, message);
      // The same request with the bad parameter put right answers the file.
      expectFile(await exportOf(f.ws, 'orders', `format=xlsx&status=1&date_from=2026-02-28&date_to=2026-11-30&${unit}`), 'orders', 'xlsx', KOLKATA);
    });

    it('users: format, type, status', async () => {
      for (const [query, message] of [
        ['format=tsv&type=admin', 'format must be one of: xlsx, pdf, csv'],
        ['type=boss', 'type must be one of: admin, employee, distributor, retailer'],
        ['type=Admin', 'type must be one of: admin, employee, distributor, retailer'],
        ['type=admin&status=2', 'status must be one of: 0, 1'],
        ['type=admin&status=-1', 'status must be one of: 0, 1'],
      ] as const) {
        await expect400('users', query, message);
      }
    });

    it('sales: format, dates, date order', async () => {
      for (const [query, message] of [
        ['format=PDF&date_from=2026-11-01', 'format must be one of: xlsx, pdf, csv'],
        ['date_from=2026-02-29', 'date_from must be a date in the form YYYY-MM-DD'],
        ['date_from=2026-11-01&date_to=yesterday', 'date_to must be a date in the form YYYY-MM-DD'],
        ['date_from=2026-11-02&date_to=2026-11-01', 'date_from must not be after date_to'],
      ] as const) {
        await expect400('sales', query, message);
      }
      const [jobs] = await sql<{ n: number }>('select count(*)::int as n from export_job');
      expect(jobs.n).toBe(0);
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/v1/exports/users', () => {
  const KIRITIMATI = 'Pacific/Kiritimati'; // UTC+14
  let ws: Workspace;
  let rows: Cell[][];
  let employee: { token: string };
  let distributor: { token: string };

  beforeAll(async () => {
    ws = await createWorkspace(t, 'People Co');
    await configure(ws, { time_zone: KIRITIMATI });
    const town = await post(ws, '/masters/towns', { town_name: 'Nadiad' });
    const route = await post(ws, '/masters/routes', { route_name: 'Mill Road', town_id: town });
    const n = unique();
    const spec = [
      [UserType.EMPLOYEE, { first_name: 'Esha', last_name: 'Employee', official_email: `esha${n}@example.test`, town_id: town }],
      [UserType.DISTRIBUTOR, { first_name: 'Dinesh', last_name: 'Distributor', official_email: `dinesh${n}@example.test`, store_name: 'Dinesh Traders', town_id: town, route_id: route }],
      [UserType.RETAILER, { first_name: 'Rekha', last_name: 'Retailer', official_email: `rekha${n}@example.test`, store_name: 'Rekha Stores', town_id: town }],
      [UserType.ADMIN, { first_name: 'Arun', last_name: 'Admin', official_email: null }],
      [UserType.EMPLOYEE, { first_name: 'Ian', last_name: 'Inactive', official_email: `ian${n}@example.test` }],
    ] as const;
    const phones: string[] = [];
    const ids: number[] = [];
    const tokens: string[] = [];
    for (const [type, extra] of spec) {
      const phone = uniquePhone();
      const user = await createUser(t, ws, type, { ...extra, primary_contact_number: phone });
      phones.push(phone);
      ids.push(user.id);
      tokens.push(user.token);
    }
    employee = { token: tokens[0] };
    distributor = { token: tokens[1] };
    await sql('update app_user set status = 0 where id in (?, ?)', [ids[2], ids[4]]);
    // Added-at times in UTC; Kiritimati is 14 hours ahead (the admin's crosses into the next day).
    const added = ['2026-03-01T12:00:00Z', '2026-03-02T00:30:00Z', '2026-03-03T09:59:00Z', '2026-03-04T10:00:00Z', '2026-03-05T23:15:00Z', '2026-03-06T06:06:06Z'];
    for (const [i, id] of [ws.adminId, ...ids].entries()) await sql('update app_user set created_at = ? where id = ?', [added[i], id]);
    const [admin] = await sql<{ first_name: string; last_name: string; primary_contact_number: string; official_email: string }>(
      'select first_name, last_name, primary_contact_number, official_email from app_user where id = ?',
      [ws.adminId],
    );
    rows = [
      [ws.adminId, `${admin.first_name} ${admin.last_name}`, 'Admin', admin.primary_contact_number, admin.official_email, null, null, null, 'Admin', 'Active', wall('2026-03-02T02:00')],
      [ids[0], 'Esha Employee', 'Employee', phones[0], `esha${n}@example.test`, null, 'Nadiad', null, 'Employee', 'Active', wall('2026-03-02T14:30')],
      [ids[1], 'Dinesh Distributor', 'Distributor', phones[1], `dinesh${n}@example.test`, 'Dinesh Traders', 'Nadiad', 'Mill Road', 'Distributor', 'Active', wall('2026-03-03T23:59')],
      [ids[2], 'Rekha Retailer', 'Retailer', phones[2], `rekha${n}@example.test`, 'Rekha Stores', 'Nadiad', null, 'Retailer', 'Inactive', wall('2026-03-05T00:00')],
      [ids[3], 'Arun Admin', 'Admin', phones[3], null, null, null, null, 'Admin', 'Active', new Date('2026-03-06T13:15:00Z')],
      [ids[4], 'Ian Inactive', 'Employee', phones[4], `ian${n}@example.test`, null, null, null, 'Employee', 'Inactive', new Date('2026-03-06T20:06:06Z')],
    ];
  });

  it('XLSX: every user of the workspace in id order, typed, bold frozen header, no totals row, About sheet', async () => {
    const workbook = await readXlsx(expectFile(await exportOf(ws, 'users'), 'users', 'xlsx', KIRITIMATI));
    expect(workbook.creator).toBe('People Co');
    const sheet = expectSheetLayout(workbook, 'Users', USER_HEADERS, USER_WIDTHS);
    expect(dataRows(sheet, 11)).toEqual(rows);
    expect(typeof sheet.getRow(2).getCell(1).value).toBe('number');
    expect(sheet.getRow(2).getCell(11).value).toBeInstanceOf(Date);
    expect([1, 11].map((c) => sheet.getRow(2).getCell(c).numFmt)).toEqual(['#,##0', 'yyyy-mm-dd hh:mm']);
    expect(aboutOf(workbook)).toEqual([
      ['Export', 'Users'],
      ['Workspace', 'People Co'],
      ['Generated', expect.stringMatching(new RegExp(`^${localDay(KIRITIMATI)} \\d{2}:\\d{2} \\(Pacific/Kiritimati\\)$`))],
      ['Rows', '6'],
    ]);
    expectGeneratedNow(aboutOf(workbook)[2][1], KIRITIMATI);
  });

  it('filters by type and status, alone and together (an empty result keeps the header)', async () => {
    const [admin, esha, dinesh, rekha, arun, ian] = rows;
    const cases: [string, Cell[][], string[]][] = [
      ['type=admin', [admin, arun], ['Type: Admin']],
      ['type=employee', [esha, ian], ['Type: Employee']],
      ['type=distributor', [dinesh], ['Type: Distributor']],
      ['type=retailer', [rekha], ['Type: Retailer']],
      ['status=0', [rekha, ian], ['Status: Inactive']],
      ['status=1', [admin, esha, dinesh, arun], ['Status: Active']],
      ['type=employee&status=1', [esha], ['Type: Employee', 'Status: Active']],
      ['type=distributor&status=0', [], ['Type: Distributor', 'Status: Inactive']],
    ];
    for (const [query, expected, filterLines] of cases) {
      const workbook = await readXlsx(expectFile(await exportOf(ws, 'users', query), 'users', 'xlsx', KIRITIMATI));
      const sheet = workbook.worksheets[0];
      expect(sheet.rowCount, query).toBe(expected.length + 1);
      expect(dataRows(sheet, 11), query).toEqual(expected);
      expect(aboutOf(workbook).slice(3), query).toEqual([['Rows', String(expected.length)], ...filterLines.map((l) => ['Filter', l])]);
    }
  });

  it('PDF: the rows, the filter lines, no totals, "Page 1 of 1"', async () => {
    const all = await readPdf(expectFile(await exportOf(ws, 'users', 'format=pdf'), 'users', 'pdf', KIRITIMATI));
    expect(all.pages).toBe(1);
    const text = all.text[0];
    expect(text).toMatch(lineOf(USER_HEADERS));
    expect(text).toMatch(lineOf([String(rows[2][0]), 'Dinesh Distributor', 'Distributor', String(rows[2][3]), String(rows[2][4]), 'Dinesh Traders', 'Nadiad', 'Mill Road', 'Distributor', 'Active', '2026-03-03 23:59']));
    expect(text).toMatch(lineOf([String(rows[4][0]), 'Arun Admin', 'Admin', String(rows[4][3]), 'Admin', 'Active', '2026-03-06 13:15']));
    expect(text).toMatch(/Generated .* \(Pacific\/Kiritimati\) · 6 rows/);
    expectGeneratedNow(text, KIRITIMATI);
    expect(text).not.toMatch(/^\s*Total\b/m);
    expect(text).toMatch(lineOf(['People Co', 'Page 1 of 1']));

    const filtered = await readPdf(expectFile(await exportOf(ws, 'users', 'format=pdf&type=employee&status=0'), 'users', 'pdf', KIRITIMATI));
    const lines = filtered.text[0].split('\n').map((l) => l.trim()).filter(Boolean);
    expect(lines.slice(0, 4)).toEqual(['People Co', 'Users', 'Type: Employee', 'Status: Inactive']);
    expect(lines[4]).toMatch(/^Generated .* · 1 row$/);
    expect(filtered.text[0]).toContain('Ian Inactive');
    expect(filtered.text[0]).not.toMatch(/Esha|Dinesh|Rekha|Arun/);
  });

  it('employees and distributors get 403, no credential 401; API keys scoped to exports (or unconfined) 200, others 403', async () => {
    for (const kind of ['orders', 'users', 'sales'] as const) {
      for (const who of [employee, distributor]) {
        const res = await t.request({ method: 'GET', url: `/api/v1/exports/${kind}`, token: who.token });
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({ response_code: 403, message: ADMINS_ONLY });
        expect(res.headers['content-disposition']).toBeUndefined();
      }
      const anonymous = await t.request({ method: 'GET', url: `/api/v1/exports/${kind}?format=pdf` });
      expect(anonymous.statusCode, anonymous.body).toBe(401);
      expect(anonymous.json()).toEqual({ response_code: 401, message: NO_CREDENTIAL });
    }
    const scoped = await createApiKey(t, ws, { scopes: 'exports' });
    const unconfined = await createApiKey(t, ws, { scopes: 'read' });
    const elsewhere = await createApiKey(t, ws, { scopes: 'orders,users,write' });
    for (const key of [scoped, unconfined]) {
      const res = await t.request({ method: 'GET', url: '/api/v1/exports/users?type=admin', apiKey: key.key });
      const workbook = await readXlsx(expectFile(res, 'users', 'xlsx', KIRITIMATI));
      expect(dataRows(workbook.worksheets[0], 11)).toEqual([rows[0], rows[4]]);
    }
    const refused = await t.request({ method: 'GET', url: '/api/v1/exports/users', apiKey: elsewhere.key });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({ response_code: 403, message: 'This API key is not scoped for exports: its scopes allow orders, users' });
    const pdfByKey = await t.request({ method: 'GET', url: '/api/v1/exports/sales?format=pdf', apiKey: scoped.key });
    expect((await readPdf(expectFile(pdfByKey, 'sales', 'pdf', KIRITIMATI))).text[0]).toMatch(/· 0 rows/);
  });

  it('the exports budget: 5 a minute per caller (X-RateLimit-Limit 5), the 6th is 429 with Retry-After; other callers and endpoints unaffected', async () => {
    const key = await createApiKey(t, ws, { scopes: 'read' });
    const kinds = ['users', 'orders', 'sales', 'users?format=pdf', 'orders?status=1'];
    for (const [i, kind] of kinds.entries()) {
      const res = await t.request({ method: 'GET', url: `/api/v1/exports/${kind}`, apiKey: key.key });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expectExportBudget(res, 4 - i);
    }
    const refused = await t.request({ method: 'GET', url: '/api/v1/exports/users', apiKey: key.key });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ response_code: 429, message: TOO_MANY });
    expect(refused.headers['content-disposition']).toBeUndefined();
    expectExportBudget(refused, 0);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Still 429 for another kind and format: one budget for every export.
    expect((await t.request({ method: 'GET', url: '/api/v1/exports/sales?format=pdf', apiKey: key.key })).statusCode).toBe(429);
    // The general budget is not spent: the same key still lists users.
    const list = await t.request({ method: 'GET', url: '/api/v1/users', apiKey: key.key });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().pagination.total).toBe(6);
    // Another caller of the same workspace has a budget of its own.
    const other = await createApiKey(t, ws, { scopes: 'exports' });
    const fresh = await t.request({ method: 'GET', url: '/api/v1/exports/users', apiKey: other.key });
    expect(fresh.statusCode).toBe(200);
    expectExportBudget(fresh, 4);
  });
});

// ---------------------------------------------------------------------------------------------

describe('PDF branding', () => {
  const BRAND = '#C0392B';
  const DEFAULT_COLOUR = '#1F4E79';

  it('prints org_footer_name, org_address, GSTIN, FSSAI, phone, the primary colour and the logo served over HTTPS', async () => {
    const ws = await createWorkspace(t, 'Plain Name Pvt');
    await createUser(t, ws, UserType.EMPLOYEE, { first_name: 'Brand', last_name: 'Person' });
    await configure(ws, {
      org_footer_name: 'Sunrise Dairy Foods',
      org_address: '12 Mill Road, Anand 388001',
      gstin: '24AABCS1234F1Z5',
      fssai: '10012345678901',
      contact_number: '+919876543210',
      primary_color: BRAND,
      logo: receiver.url('/brand/logo.png', 'logo.hooks.test'),
    });
    const before = receiver.received.length;
    const pdf = await readPdf(expectFile(await exportOf(ws, 'users', 'format=pdf'), 'users', 'pdf', 'UTC'), [BRAND, DEFAULT_COLOUR]);
    expect(receiver.received.slice(before).map((r) => [r.method, r.url])).toEqual([['GET', '/brand/logo.png']]);
    expect(pdf.images).toEqual([{ page: 1, width: 16, height: 12 }]);
    const text = pdf.text[0];
    expect(text).toMatch(/^\s*Sunrise Dairy Foods\s*$/m);
    expect(text).toMatch(/^\s*12 Mill Road, Anand 388001\s*$/m);
    expect(text).toMatch(/^\s*GSTIN: 24AABCS1234F1Z5\s+FSSAI: 10012345678901\s+Phone: \+919876543210\s*$/m);
    expect(text).toMatch(lineOf(['Sunrise Dairy Foods', 'Page 1 of 1']));
    expect(text).not.toContain('Plain Name Pvt');
    expect(pdf.info.Title).toBe('Users – Sunrise Dairy Foods');
    // The header row is filled with the primary colour, not the default one.
    expect(pdf.pixels[BRAND]).toBeGreaterThan(1_000);
    expect(pdf.pixels[DEFAULT_COLOUR]).toBe(0);
    // The XLSX is not branded: its About sheet names the workspace.
    const workbook = await readXlsx(expectFile(await exportOf(ws, 'users'), 'users', 'xlsx', 'UTC'));
    expect(aboutOf(workbook)[1]).toEqual(['Workspace', 'Plain Name Pvt']);
  });

  it('without branding: the workspace name, the default colour, no registrations line', async () => {
    const ws = await createWorkspace(t, 'Bare Dairy');
    const pdf = await readPdf(expectFile(await exportOf(ws, 'users', 'format=pdf'), 'users', 'pdf', 'UTC'), [BRAND, DEFAULT_COLOUR]);
    expect(pdf.images).toEqual([]);
    expect(pdf.text[0].split('\n').map((l) => l.trim()).filter(Boolean)[0]).toBe('Bare Dairy');
    expect(pdf.text[0]).not.toMatch(/GSTIN|FSSAI|Phone:/);
    expect(pdf.pixels[DEFAULT_COLOUR]).toBeGreaterThan(1_000);
    expect(pdf.pixels[BRAND]).toBe(0);
  });

  it('a logo on a private address that is not allow-listed (or not an image) is left out: still 200, no image, nothing fetched from it', async () => {
    const ws = await createWorkspace(t, 'Guarded Dairy');
    for (const [logo, fetched] of [
      [receiver.url('/direct-ip/logo.png'), false], // 127.0.0.1, not in WEBHOOK_ALLOWED_PRIVATE_HOSTS
      [receiver.url('/private-name/logo.png', 'private.hooks.test'), false], // resolves to 127.0.0.1
      [receiver.url('/not-an-image.png', 'logo.hooks.test'), true],
    ] as const) {
      if (fetched) receiver.script({ status: 200, headers: { 'content-type': 'image/png' }, body: '<html>not a picture</html>' });
      await configure(ws, { logo, org_footer_name: 'Guarded Dairy Ltd' });
      const before = receiver.received.length;
      const res = await exportOf(ws, 'orders', 'format=pdf');
      const pdf = await readPdf(expectFile(res, 'orders', 'pdf', 'UTC'));
      expect(pdf.images, logo).toEqual([]);
      expect(pdf.text[0]).toMatch(/^\s*Guarded Dairy Ltd\s*$/m);
      expect(receiver.received.length - before, logo).toBe(fetched ? 1 : 0);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('large exports: the 5,000-row PDF cap, many pages, big XLSX', () => {
  let ws: Workspace;
  const TOTAL = 5_001;

  beforeAll(async () => {
    ws = await createWorkspace(t, 'Bulk Dairy');
    const buyer = await createUser(t, ws, UserType.DISTRIBUTOR, { first_name: 'Bulk', last_name: 'Buyer', store_name: 'Bulk Store' });
    // Order g (1..5001): dated 2026-01-01 + floor((g-1)/100) days (100 a day), total g × 1.25,
    // 1 + g % 3 items, status 1 + g % 4; placed at 2026-01-01 00:00 UTC + g minutes.
    await sql(
      `insert into sales_order (organization_id, order_code, status, order_date, customer_id, total_amount, items_count, delivery_otp_hash, created_at)
       select ?, 'BULK-' || lpad(g::text, 5, '0'), 1 + g % 4, date '2026-01-01' + (g - 1) / 100, ?, g * 1.25, 1 + g % 3, 'x',
              timestamptz '2026-01-01 00:00:00+00' + g * interval '1 minute'
         from generate_series(1, ?) as g order by g`,
      [ws.organizationId, buyer.id, TOTAL],
    );
  });

  it('a PDF of more than 5,000 rows is refused naming format; the XLSX of the same set holds every row', async () => {
    const refused = await exportOf(ws, 'orders', 'format=pdf');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual(errorEnvelope(400, 'format must be xlsx or csv for more than 5,000 rows (this export has 5,001; a PDF holds at most 5,000), or narrow the filters'));
    expect(refused.headers['content-disposition']).toBeUndefined();

    const workbook = await readXlsx(expectFile(await exportOf(ws, 'orders'), 'orders', 'xlsx', 'UTC'));
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(TOTAL + 2);
    const bulk = (g: number): Cell[] => [
      `BULK-${String(g).padStart(5, '0')}`,
      day(new Date(Date.UTC(2026, 0, 1 + Math.floor((g - 1) / 100))).toISOString().slice(0, 10)),
      ['Initiated', 'Forwarded', 'Approved', 'Delivered'][g % 4],
      'Bulk Buyer',
      'Bulk Store',
      null,
      null,
      null,
      1 + (g % 3),
      g * 1.25,
      null,
      null,
      new Date(Date.UTC(2026, 0, 1, 0, g)),
    ];
    expect(rowValues(sheet, 2, 13)).toEqual(bulk(1));
    expect(rowValues(sheet, 2501, 13)).toEqual(bulk(2500));
    expect(rowValues(sheet, TOTAL + 1, 13)).toEqual(bulk(TOTAL));
    const codes = new Set(Array.from({ length: TOTAL }, (_, i) => sheet.getRow(i + 2).getCell(1).value));
    expect(codes.size).toBe(TOTAL);
    // Σ(1 + g % 3) = 1667 × (1 + 2 + 3); Σ 1.25 g = 1.25 × 5001 × 5002 / 2.
    expectTotals(sheet, 13, { 9: 10_002, 10: 15_634_376.25 }, TOTAL);
    expect(aboutOf(workbook)[3]).toEqual(['Rows', '5001']);

    // Narrowed below the cap, the PDF is made.
    const narrowed = await exportOf(ws, 'orders', 'format=pdf&date_from=2026-02-20');
    const pdf = await readPdf(expectFile(narrowed, 'orders', 'pdf', 'UTC'));
    expect(pdf.text.join('\n')).toMatch(lineOf(['BULK-05001', '2026-02-20', 'Forwarded', 'Bulk Buyer', 'Bulk Store', '1', '6,251.25']));
  });

  it('exactly 5,000 rows still make a PDF (the cap is inclusive), every row once, totals on the last page', async () => {
    const pdf = await readPdf(expectFile(await exportOf(ws, 'orders', 'format=pdf&date_to=2026-02-19'), 'orders', 'pdf', 'UTC'));
    expect(pdf.text[0]).toContain('Order date: up to 2026-02-19');
    expect(pdf.text[0]).toMatch(/· 5,000 rows$/m);
    const codes = pdf.text.join('\n').match(/BULK-\d{5}/g) ?? [];
    expect(codes).toHaveLength(5_000);
    expect(new Set(codes).size).toBe(5_000);
    expect([codes[0], codes[4_999]]).toEqual(['BULK-00001', 'BULK-05000']);
    // Σ(1 + g % 3) over 1..5000 = 1666 × 6 + 2 + 3; Σ 1.25 g = 1.25 × 12,502,500 (Indian digit grouping).
    expect(pdf.text[pdf.pages - 1]).toMatch(lineOf(['Total', '10,001', '1,56,28,125.00']));
    expect(pdf.text[pdf.pages - 1]).toMatch(lineOf(['Bulk Dairy', `Page ${pdf.pages} of ${pdf.pages}`]));
  });

  it('a 300-row PDF runs over several pages: header row and "Page X of N" on every page, totals at the end, every row once', async () => {
    const res = await exportOf(ws, 'orders', 'format=pdf&date_from=2026-01-01&date_to=2026-01-03');
    const pdf = await readPdf(expectFile(res, 'orders', 'pdf', 'UTC'));
    expect(pdf.pages).toBeGreaterThan(1);
    expect(pdf.text).toHaveLength(pdf.pages);
    pdf.text.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toMatch(ORDER_PDF_HEADER);
      expect(page, `page ${i + 1}`).toMatch(lineOf(['Bulk Dairy', `Page ${i + 1} of ${pdf.pages}`]));
    });
    expect(pdf.text[1]).toMatch(lineOf(['Bulk Dairy', `Page 2 of ${pdf.pages}`]));
    expect(pdf.text[0]).toContain('Order date: 2026-01-01 to 2026-01-03');
    expect(pdf.text[0]).toMatch(/Generated \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\) · 300 rows/);
    expect(pdf.text.slice(1).join('\n')).not.toContain('Generated');
    const all = pdf.text.join('\n');
    const codes = all.match(/BULK-\d{5}/g) ?? [];
    expect(codes).toEqual(Array.from({ length: 300 }, (_, i) => `BULK-${String(i + 1).padStart(5, '0')}`));
    // Σ(1 + g % 3) over 1..300 = 600; Σ 1.25 g = 1.25 × 45150.
    expect(pdf.text[pdf.pages - 1]).toMatch(lineOf(['Total', '600', money(56_437.5)]));
    expect(pdf.text.slice(0, -1).join('\n')).not.toMatch(/^\s*Total\s/m);
    expect(all).toMatch(lineOf(['BULK-00150', '2026-01-02', 'Approved', 'Bulk Buyer', 'Bulk Store', '1', '187.50', '2026-01-01 02:30']));
  });
});

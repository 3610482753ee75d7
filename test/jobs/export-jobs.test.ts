import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { Logger, quickAddJob, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRON_ITEMS } from '../../jobs/crontab';
import { createTasks } from '../../jobs/tasks';
import { taskDepsOf } from '../../jobs/worker';
import { CHUNK_BYTES, ChunkWriter } from '../../src/domains/exports/chunk-store';
import { DOWNLOAD_LINK_TTL_MS, DownloadLinks } from '../../src/domains/exports/download-links';
import { EXPORT_FILE_RETENTION_MS, EXPORT_JOB_MAX_ATTEMPTS } from '../../src/domains/exports/export-jobs';
import { PDF_BATCH_SIZE } from '../../src/domains/exports/export-writer';
import { BATCH_SIZE } from '../../src/domains/exports/row-cursor';
import { UserType } from '../../src/domains/users/user.entity';
import { secretsFrom } from '../../src/secrets';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { ORDER_HEADERS } from '../helpers/export-files';
import { errorEnvelope } from '../helpers/envelope';

/**
 * Export JOBS end to end: `startExport` over GraphQL records and queues a job, a real
 * graphile-worker runner (`t.startWorker()`) writes the file into `export_chunk`, `export(id)`
 * reports progress and, once READY, a pre-signed download URL that works without a credential.
 * Checked: the job's fields at each stage, the file read back (XLSX with exceljs, PDF with
 * pdfinfo / pdftotext), an empty export, a job of 5,001 rows, files of several 1 MiB chunks,
 * who may download with which link (tampered, another id's, expired, past the file's retention,
 * another workspace's credential), the hourly clean-up task, validation at start, failures while
 * running (refusals FAILED at once; other errors retried up to the last attempt), permissions,
 * tenant isolation and the exports rate budget.
 *
 * The exports budget is 5 startExport calls a minute per caller, so tests take their callers
 * from `Stage.caller` (fresh administrators as needed) rather than the workspace's first admin.
 */

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PDF_TYPE = 'application/pdf';
const INVALID_LINK = 'This download link is not valid';
const EXPIRED_LINK = 'This download link has expired: ask for the export again to get a new one';
const FILE_GONE = 'This export file has expired and was deleted: start a new export';
const ADMINS_ONLY = 'Only workspace administrators may do this';
const TOO_MANY = 'Too many requests, please try again later';
const NOT_A_UNIT = 'productionUnitId is not a production unit of this workspace';
const pdfCap = (rows: string) => `format must be xlsx or csv for more than 5,000 rows (this export has ${rows}; a PDF holds at most 5,000), or narrow the filters`;

const JOB_FIELDS = 'id kind format status rowsDone rowsTotal progress fileName byteSize error createdAt finishedAt expiresAt downloadUrl downloadUrlExpiresAt';
const START = `mutation Start($kind: ExportKind!, $format: ExportFormat, $filters: ExportFiltersInput) {
  startExport(kind: $kind, format: $format, filters: $filters) { ${JOB_FIELDS} }
}`;
const JOB = `query Job($id: Int!) { export(id: $id) { ${JOB_FIELDS} } }`;

/** An export job as GraphQL answers it. */
interface Job {
  id: number;
  kind: 'ORDERS' | 'USERS' | 'SALES';
  format: 'XLSX' | 'PDF' | 'CSV';
  status: 'QUEUED' | 'RUNNING' | 'READY' | 'FAILED';
  rowsDone: number;
  rowsTotal: number | null;
  progress: number;
  fileName: string;
  byteSize: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
  downloadUrl: string | null;
  downloadUrlExpiresAt: string | null;
}

type Credential = string | { apiKey: string };
type Filters = Record<string, unknown>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (iso: string | null) => Date.parse(iso!);

/** Where injected requests say they are sent (light-my-request's default Host): the base of the links the app hands them. */
const INJECT_BASE = 'http://localhost:80';
const injectBase = () => INJECT_BASE;

/** The signed query of a download URL (absolute, under the requests' base). */
function linkParts(url: string): { id: number; expires: number; signature: string } {
  const match = /^http:\/\/localhost:80\/api\/v1\/exports\/files\/(\d+)\?expires=(\d+)&signature=([A-Za-z0-9_-]+)$/.exec(url);
  expect(match, url).not.toBeNull();
  return { id: Number(match![1]), expires: Number(match![2]), signature: match![3] };
}

/** The REST error envelope. */
function expectErrorBody(res: LightMyRequestResponse, status: number, message: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual(errorEnvelope(status, message));
}

/** A PDF's page count (pdfinfo) and its text laid out (pdftotext -layout), read from a temporary file. */
function readPdf(bytes: Buffer): { pages: number; text: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-export-job-pdf-'));
  try {
    const file = path.join(dir, 'export.pdf');
    writeFileSync(file, bytes);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const pages = Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    return { pages, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function readXlsx(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer); // exceljs types predate Buffer<ArrayBufferLike>
  return workbook;
}

/** A sheet's rows as arrays of cell values (column 1 first). */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}


const utcDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** One app over its own database, with helpers for jobs. */
class Stage {
  t!: TestApp;

  async build(): Promise<this> {
    this.t = await buildTestApp();
    return this;
  }

  sql<T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[] = []): Promise<T> {
    return this.t.orm.em.fork().getConnection().execute<T>(query, params);
  }

  start(credential: Credential, kind: Job['kind'], format?: Job['format'], filters?: Filters): Promise<GraphqlAnswer> {
    return this.t.graphql(START, { kind, format, filters }, credential);
  }

  /** startExport, expected to be accepted. */
  async started(credential: Credential, kind: Job['kind'], format?: Job['format'], filters?: Filters): Promise<Job> {
    return expectGraphqlData(await this.start(credential, kind, format, filters)).startExport;
  }

  job(credential: Credential, id: number): Promise<GraphqlAnswer> {
    return this.t.graphql(JOB, { id }, credential);
  }

  /**
   * Polls export(id) until `done` holds (by default: READY or FAILED; 20 s at most); returns the
   * last answer with every status seen and every answer on the way. Each answer must be coherent:
   * no file, link or finish time before READY / FAILED, progress = rowsDone / rowsTotal (to 3
   * places), rowsDone a whole number of batches (or all rows).
   */
  async finished(credential: Credential, id: number, done: (job: Job) => boolean = (job) => job.status === 'READY' || job.status === 'FAILED'): Promise<Job & { seen: string[]; snapshots: Job[] }> {
    const deadline = Date.now() + 20_000;
    const seen: string[] = [];
    const snapshots: Job[] = [];
    for (;;) {
      const job: Job = expectGraphqlData(await this.job(credential, id)).export;
      snapshots.push(job);
      if (seen.at(-1) !== job.status) seen.push(job.status);
      if (job.status === 'QUEUED' || job.status === 'RUNNING') {
        expect(job).toMatchObject({ byteSize: null, finishedAt: null, expiresAt: null, downloadUrl: null, downloadUrlExpiresAt: null });
        expect(job.progress).toBe(job.rowsTotal ? Math.round(Math.min(job.rowsDone / job.rowsTotal, 1) * 1000) / 1000 : 0);
        // Progress is reported after each batch read: whole batches (a PDF reads smaller ones), or every row once the last (short) batch is in.
        const batch = job.format === 'PDF' ? PDF_BATCH_SIZE : BATCH_SIZE;
        expect(job.rowsDone % batch === 0 || job.rowsDone === job.rowsTotal, `rowsDone ${job.rowsDone} of ${job.rowsTotal}`).toBe(true);
      }
      if (done(job)) return { ...job, seen, snapshots };
      if (Date.now() > deadline) throw new Error(`export ${id} still ${job.status} after 20 s`);
      await sleep(50);
    }
  }

  /** GET of a download URL with no credential, a session token or an API key. */
  download(url: string, credential?: Credential): Promise<LightMyRequestResponse> {
    if (typeof credential === 'object') return this.t.request({ method: 'GET', url, apiKey: credential.apiKey });
    return this.t.request({ method: 'GET', url, token: credential });
  }

  async chunks(jobId: number): Promise<Array<{ seq: number; bytes: number; organization_id: number }>> {
    return this.sql('select seq, length(data)::int as bytes, organization_id from export_chunk where export_job_id = ? order by seq', [jobId]);
  }

  /** A new administrator of the workspace: a caller with a fresh exports budget (5 a minute). */
  async freshAdmin(ws: Workspace): Promise<string> {
    return (await createUser(this.t, ws, UserType.ADMIN)).token;
  }

  private readonly callers = new Map<number, { token: string; spent: number }>();
  /**
   * An administrator of the workspace who may still call startExport `spends` times this minute
   * (the exports budget is 5 a minute per caller): the last one handed out while it has room,
   * else a new one (a workspace holds at most 25 active users).
   */
  async caller(ws: Workspace, spends: number): Promise<string> {
    let current = this.callers.get(ws.organizationId);
    if (!current || current.spent + spends > 5) {
      current = { token: await this.freshAdmin(ws), spent: 0 };
      this.callers.set(ws.organizationId, current);
    }
    current.spent += spends;
    return current.token;
  }

  async productionUnit(ws: Workspace, name: string): Promise<number> {
    const res = await this.t.request({ method: 'POST', url: '/api/v1/masters/production-units', token: ws.token, payload: { production_unit_name: name } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  }

  /** Inserts `count` orders of a customer in one statement: code `${prefix}-00001`…, dates from 2026-01-01, amounts (g % 100) + 0.25, items 1 + g % 3. */
  async bulkOrders(ws: Workspace, customerId: number, prefix: string, count: number): Promise<void> {
    await this.sql(
      `insert into sales_order (organization_id, order_code, status, order_date, customer_id, total_amount, items_count, delivery_otp_hash)
       select ?, ? || '-' || lpad(g::text, 5, '0'), 1 + g % 4, date '2026-01-01' + g % 90, ?, (g % 100) + 0.25, 1 + g % 3, 'x'
         from generate_series(1, ?) g`,
      [ws.organizationId, prefix, customerId, count],
    );
  }

  /** The workspace's local day (its time zone is UTC unless changed) as the file names print it. */
  async localDay(ws: Workspace): Promise<string> {
    const [row] = await this.sql<{ day: string }[]>(
      `select to_char(now() at time zone time_zone, 'YYYY-MM-DD') as day from workspace_config where organization_id = ?`,
      [ws.organizationId],
    );
    return row.day;
  }
}

describe('export jobs over GraphQL, run by the worker', () => {
  const s = new Stage();
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let big: Workspace;
  let catalog: Catalog;
  let unitId: number;
  let otherUnitId: number;
  /** ws's orders by name: early (2026-02-20), march1 (2026-03-01, Plant North), march5 (2026-03-05). */
  const orders: Record<string, { id: number; code: string }> = {};
  let otherOrderCode: string;
  /** The customer of the other workspace's only order (order codes are per workspace, so they repeat). */
  let otherCustomer: string;
  const BIG_ROWS = 5_001;

  beforeAll(async () => {
    await s.build();
    t = s.t;
    ws = await createWorkspace(t, 'Dairy Exports');
    other = await createWorkspace(t, 'Other Dairy');
    big = await createWorkspace(t, 'Big Dairy');
    catalog = await seedCatalog(t, ws);
    const otherCatalog = await seedCatalog(t, other);
    unitId = await s.productionUnit(ws, 'Plant North');
    otherUnitId = await s.productionUnit(other, 'Other Plant');
    const [v0, v1] = catalog.variantIds;
    const place = async (name: string, payload: Record<string, unknown>) => {
      const order = await placeOrder(t, ws.token, { user_id: catalog.distributorId, ...payload });
      orders[name] = { id: order.id, code: String(order.order_code) };
    };
    // Placed out of date order: the export lists them by order date, then id.
    await place('march5', { order_date: '2026-03-05', items: [{ product_variant_id: v1, quantity: 3 }] });
    await place('early', { order_date: '2026-02-20', items: [{ product_variant_id: v0, quantity: 1 }] });
    await place('march1', {
      order_date: '2026-03-01',
      production_unit_id: unitId,
      items: [
        { product_variant_id: v0, quantity: 2 },
        { product_variant_id: v1, quantity: 1 },
      ],
    });
    const theirs = await placeOrder(t, other.token, {
      user_id: otherCatalog.distributorId,
      order_date: '2026-03-02',
      items: [{ product_variant_id: otherCatalog.variantIds[0], quantity: 7 }],
    });
    otherOrderCode = String(theirs.order_code);
    [{ name: otherCustomer }] = await s.sql<{ name: string }[]>(`select first_name || ' ' || last_name as name from app_user where id = ?`, [otherCatalog.distributorId]);
    await s.bulkOrders(big, big.adminId, 'BIG', BIG_ROWS);
    await t.startWorker();
  });
  afterAll(() => t?.close());

  describe('a job from start to download', () => {
    it('starts QUEUED with its row count, reaches READY with every field filled, and its XLSX downloads without a credential', async () => {
      const admin = await s.caller(ws, 1);
      const day = await s.localDay(ws);
      const before = Date.now();
      const queued = await s.started(admin, 'ORDERS');
      expect(queued).toEqual({
        id: expect.any(Number),
        kind: 'ORDERS',
        format: 'XLSX',
        status: 'QUEUED',
        rowsDone: 0,
        rowsTotal: 3,
        progress: 0,
        fileName: `orders-${day}.xlsx`,
        byteSize: null,
        error: null,
        createdAt: expect.any(String),
        finishedAt: null,
        expiresAt: null,
        downloadUrl: null,
        downloadUrlExpiresAt: null,
      });
      expect(ms(queued.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(ms(queued.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);

      const asked = Date.now();
      const ready = await s.finished(admin, queued.id);
      const answered = Date.now();
      // Whatever the polls caught, in order (a fast worker may be done before the first poll).
      expect(ready.seen.at(-1)).toBe('READY');
      expect(['QUEUED', 'RUNNING', 'READY'].filter((status) => ready.seen.includes(status))).toEqual(ready.seen);
      expect(ready).toMatchObject({
        id: queued.id,
        kind: 'ORDERS',
        format: 'XLSX',
        status: 'READY',
        rowsDone: 3,
        rowsTotal: 3,
        progress: 1,
        fileName: `orders-${day}.xlsx`,
        error: null,
        createdAt: queued.createdAt,
      });
      expect(ms(ready.finishedAt)).toBeGreaterThanOrEqual(ms(queued.createdAt));
      expect(ms(ready.finishedAt)).toBeLessThanOrEqual(answered);
      expect(ms(ready.expiresAt) - ms(ready.finishedAt)).toBe(24 * 60 * 60_000);
      expect(EXPORT_FILE_RETENTION_MS).toBe(24 * 60 * 60_000);
      // The link: this job, signed, good for 15 minutes from when it was handed out (whole seconds).
      const link = linkParts(ready.downloadUrl!);
      expect(link.id).toBe(queued.id);
      expect(link.signature).toMatch(/^[A-Za-z0-9_-]{43}$/); // HMAC-SHA256, base64url
      expect(link.expires * 1000).toBe(ms(ready.downloadUrlExpiresAt));
      expect(DOWNLOAD_LINK_TTL_MS).toBe(15 * 60_000);
      expect(ms(ready.downloadUrlExpiresAt)).toBeGreaterThanOrEqual(asked + 15 * 60_000 - 1000);
      expect(ms(ready.downloadUrlExpiresAt)).toBeLessThanOrEqual(answered + 15 * 60_000);

      const res = await s.download(ready.downloadUrl!);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_TYPE);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="orders-${day}.xlsx"`);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.rawPayload.length).toBe(ready.byteSize);
      expect(Number(res.headers['content-length'])).toBe(ready.byteSize);
      expect(res.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');

      // The file is stored whole in one chunk of this workspace.
      expect(await s.chunks(queued.id)).toEqual([{ seq: 0, bytes: ready.byteSize, organization_id: ws.organizationId }]);

      const workbook = await readXlsx(res.rawPayload);
      expect(workbook.worksheets.map((w) => w.name)).toEqual(['Orders', 'About']);
      const rows = rowsOf(workbook.getWorksheet('Orders')!);
      expect(rows[0]).toEqual(ORDER_HEADERS);
      expect(rows).toHaveLength(5); // header, three orders, totals
      expect(rows.slice(1, 4).map((r) => [r[0], r[1], r[2], r[7] ?? null, r[9]])).toEqual([
        [orders.early.code, utcDate('2026-02-20'), 'Initiated', null, 28.5],
        [orders.march1.code, utcDate('2026-03-01'), 'Initiated', 'Plant North', 112],
        [orders.march5.code, utcDate('2026-03-05'), 'Initiated', null, 165],
      ]);
      const total = rows[4];
      expect(total[0]).toBe('Total');
      expect(total[8]).toEqual({ formula: 'SUM(I2:I4)', result: 4 });
      expect(total[9]).toEqual({ formula: 'SUM(J2:J4)', result: 305.5 });
      // Another workspace's order is not in it.
      expect(rows.slice(1, 4).map((r) => r[3])).not.toContain(otherCustomer);
      expect(JSON.stringify(rows)).not.toContain(otherCustomer);
      const about = rowsOf(workbook.getWorksheet('About')!);
      expect(about.slice(0, 2)).toEqual([
        ['Export', 'Orders'],
        ['Workspace', 'Dairy Exports'],
      ]);
      expect(about.find((r) => r[0] === 'Rows')).toEqual(['Rows', '3']);
      expect(about.some((r) => r[0] === 'Filter')).toBe(false);

      // Asking again hands out a fresh link to the same file.
      await sleep(1100);
      const again: Job = expectGraphqlData(await s.job(admin, queued.id)).export;
      expect(again).toMatchObject({ status: 'READY', byteSize: ready.byteSize, finishedAt: ready.finishedAt, expiresAt: ready.expiresAt });
      expect(ms(again.downloadUrlExpiresAt)).toBeGreaterThan(ms(ready.downloadUrlExpiresAt));
      expect(again.downloadUrl).not.toBe(ready.downloadUrl);
      const second = await s.download(again.downloadUrl!);
      expect(second.statusCode).toBe(200);
      expect(second.rawPayload.equals(res.rawPayload)).toBe(true);
    });

    it('runs a filtered PDF job: letterhead, filter lines, rows, totals and page footer', async () => {
      const admin = await s.caller(ws, 1);
      const day = await s.localDay(ws);
      const queued = await s.started(admin, 'ORDERS', 'PDF', { dateFrom: '2026-03-01', dateTo: '2026-03-31' });
      expect(queued).toMatchObject({ status: 'QUEUED', format: 'PDF', rowsTotal: 2, fileName: `orders-${day}.pdf` });
      const ready = await s.finished(admin, queued.id);
      expect(ready).toMatchObject({ status: 'READY', rowsDone: 2, rowsTotal: 2, progress: 1, error: null });
      const res = await s.download(ready.downloadUrl!);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(PDF_TYPE);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="orders-${day}.pdf"`);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(Number(res.headers['content-length'])).toBe(ready.byteSize);
      expect(res.rawPayload.length).toBe(ready.byteSize);
      expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

      const { pages, text } = readPdf(res.rawPayload);
      expect(pages).toBe(1);
      expect(text).toContain('Dairy Exports');
      expect(text).toContain('Order date: 2026-03-01 to 2026-03-31');
      expect(text).toMatch(/Generated \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\) · 2 rows/);
      expect(text).toContain(orders.march1.code);
      expect(text).toContain(orders.march5.code);
      expect(text).not.toContain(orders.early.code);
      expect(text).not.toContain(otherCustomer);
      expect(text).toMatch(/Total\s+3\s+277\.00/);
      expect(text).toContain('Page 1 of 1');
    });

    it('runs a filtered CSV job: the XLSX columns, UTF-8 with a BOM, no totals row', async () => {
      const admin = await s.caller(ws, 1);
      const day = await s.localDay(ws);
      const queued = await s.started(admin, 'ORDERS', 'CSV', { dateFrom: '2026-03-01', dateTo: '2026-03-31' });
      expect(queued).toMatchObject({ status: 'QUEUED', format: 'CSV', rowsTotal: 2, fileName: `orders-${day}.csv` });
      const ready = await s.finished(admin, queued.id);
      expect(ready).toMatchObject({ status: 'READY', rowsDone: 2, rowsTotal: 2, progress: 1, error: null });
      const res = await s.download(ready.downloadUrl!);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="orders-${day}.csv"`);
      expect(res.rawPayload.length).toBe(ready.byteSize);
      expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const records = parseCsv(res.rawPayload, { bom: true }) as string[][];
      expect(records[0]).toEqual(ORDER_HEADERS);
      expect(records.slice(1).map((r) => r[0])).toEqual([orders.march1.code, orders.march5.code]);
    });

    it('runs users and sales jobs with their own filters', async () => {
      const admin = await s.caller(ws, 2);
      const [counted] = await s.sql<{ n: number }[]>('select count(*)::int as n from app_user where organization_id = ? and user_type = 2', [ws.organizationId]);
      const users = await s.started(admin, 'USERS', 'XLSX', { userType: 'DISTRIBUTOR', userStatus: 'ACTIVE' });
      expect(users).toMatchObject({ status: 'QUEUED', kind: 'USERS', rowsTotal: counted.n });
      expect(counted.n).toBe(1);
      const sales = await s.started(admin, 'SALES', undefined, { dateTo: '2026-03-01' });
      // Sales are order lines: early has one, march1 two.
      expect(sales).toMatchObject({ status: 'QUEUED', kind: 'SALES', format: 'XLSX', rowsTotal: 3 });

      const readyUsers = await s.finished(admin, users.id);
      expect(readyUsers).toMatchObject({ status: 'READY', rowsDone: 1, rowsTotal: 1 });
      const usersBook = await readXlsx((await s.download(readyUsers.downloadUrl!)).rawPayload);
      const userRows = rowsOf(usersBook.getWorksheet('Users')!);
      expect(userRows).toHaveLength(2); // header and the distributor; no totals row
      expect(userRows[1]).toContain('Distributor');
      expect(rowsOf(usersBook.getWorksheet('About')!).filter((r) => r[0] === 'Filter')).toEqual([
        ['Filter', 'Type: Distributor'],
        ['Filter', 'Status: Active'],
      ]);

      const readySales = await s.finished(admin, sales.id);
      expect(readySales).toMatchObject({ status: 'READY', rowsDone: 3, rowsTotal: 3, fileName: `sales-${await s.localDay(ws)}.xlsx` });
      const salesRows = rowsOf((await readXlsx((await s.download(readySales.downloadUrl!)).rawPayload)).getWorksheet('Sales')!);
      expect(salesRows).toHaveLength(5); // header, three lines, totals
      expect(salesRows[4][0]).toBe('Total');
      // 1 × 28.50 + 2 × 28.50 + 1 × 55.00
      expect(salesRows[4]).toContainEqual(expect.objectContaining({ result: 140.5 }));
      expect(salesRows[4]).toContainEqual(expect.objectContaining({ result: 4 }));
    });

    it('filters a job by production unit and names it on the About sheet', async () => {
      const admin = await s.caller(ws, 1);
      const queued = await s.started(admin, 'ORDERS', 'XLSX', { productionUnitId: unitId, orderStatus: 'INITIATED' });
      expect(queued.rowsTotal).toBe(1);
      const ready = await s.finished(admin, queued.id);
      expect(ready).toMatchObject({ status: 'READY', rowsDone: 1 });
      const book = await readXlsx((await s.download(ready.downloadUrl!)).rawPayload);
      expect(rowsOf(book.getWorksheet('Orders')!).map((r) => r[0])).toEqual(['Order code', orders.march1.code, 'Total']);
      expect(rowsOf(book.getWorksheet('About')!).filter((r) => r[0] === 'Filter')).toEqual([
        ['Filter', 'Status: Initiated'],
        ['Filter', 'Production unit: Plant North'],
      ]);
    });

    it('writes an export with no rows: READY with progress 1, headers and zero totals', async () => {
      const admin = await s.caller(ws, 1);
      const queued = await s.started(admin, 'ORDERS', 'XLSX', { orderStatus: 'DELIVERED' });
      expect(queued).toMatchObject({ status: 'QUEUED', rowsTotal: 0, rowsDone: 0, progress: 0 });
      const ready = await s.finished(admin, queued.id);
      expect(ready).toMatchObject({ status: 'READY', rowsTotal: 0, rowsDone: 0, progress: 1, error: null });
      const res = await s.download(ready.downloadUrl!);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(ready.byteSize);
      const book = await readXlsx(res.rawPayload);
      const rows = rowsOf(book.getWorksheet('Orders')!);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toEqual(ORDER_HEADERS);
      expect([rows[1][0], rows[1][8], rows[1][9]]).toEqual(['Total', 0, 0]);
      expect(rowsOf(book.getWorksheet('About')!).find((r) => r[0] === 'Rows')).toEqual(['Rows', '0']);
    });

    it(`writes a job of ${BIG_ROWS.toLocaleString('en')} orders: every row in order, exact totals, its chunks adding up to the file`, async () => {
      const admin = await s.caller(big, 1);
      const queued = await s.started(admin, 'ORDERS');
      expect(queued).toMatchObject({ status: 'QUEUED', rowsTotal: BIG_ROWS, rowsDone: 0, progress: 0 });
      const ready = await s.finished(admin, queued.id);
      expect(ready).toMatchObject({ status: 'READY', rowsDone: BIG_ROWS, rowsTotal: BIG_ROWS, progress: 1, error: null });
      // Whatever progress was seen on the way only went up.
      const running = ready.snapshots.filter((job) => job.status === 'RUNNING');
      running.forEach((job, i) => {
        expect(job.rowsTotal).toBe(BIG_ROWS);
        if (i > 0) expect(job.rowsDone).toBeGreaterThanOrEqual(running[i - 1].rowsDone);
      });

      const chunks = await s.chunks(queued.id);
      expect(chunks.length).toBe(Math.ceil(ready.byteSize! / CHUNK_BYTES));
      expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
      chunks.slice(0, -1).forEach((c) => expect(c.bytes).toBe(CHUNK_BYTES));
      expect(chunks.reduce((sum, c) => sum + c.bytes, 0)).toBe(ready.byteSize);
      expect(chunks.every((c) => c.organization_id === big.organizationId)).toBe(true);

      const res = await s.download(ready.downloadUrl!);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(ready.byteSize);
      const rows = rowsOf((await readXlsx(res.rawPayload)).getWorksheet('Orders')!);
      expect(rows).toHaveLength(BIG_ROWS + 2);
      // Expected order: by order date (date '2026-01-01' + g % 90), then id (= g's order).
      const expected = Array.from({ length: BIG_ROWS }, (_, i) => i + 1).sort((a, b) => (a % 90) - (b % 90) || a - b);
      expect(rows.slice(1, -1).map((r) => r[0])).toEqual(expected.map((g) => `BIG-${String(g).padStart(5, '0')}`));
      const day = (g: number) => new Date(Date.UTC(2026, 0, 1) + (g % 90) * 86_400_000);
      const statuses = ['Initiated', 'Forwarded', 'Approved', 'Delivered'];
      for (const i of [0, 1, 1234, BIG_ROWS - 1]) {
        const g = expected[i];
        expect(rows[i + 1].slice(0, 3)).toEqual([`BIG-${String(g).padStart(5, '0')}`, day(g), statuses[(1 + (g % 4)) - 1]]);
        expect(rows[i + 1][8]).toBe(1 + (g % 3));
        expect(rows[i + 1][9]).toBe((g % 100) + 0.25);
      }
      let items = 0;
      let quarterCents = 0;
      for (let g = 1; g <= BIG_ROWS; g += 1) {
        items += 1 + (g % 3);
        quarterCents += (g % 100) * 100 + 25;
      }
      const last = BIG_ROWS + 1;
      expect(rows.at(-1)![0]).toBe('Total');
      expect(rows.at(-1)![8]).toEqual({ formula: `SUM(I2:I${last})`, result: items });
      expect(rows.at(-1)![9]).toEqual({ formula: `SUM(J2:J${last})`, result: quarterCents / 100 });
    });
  });

  describe('files of several chunks', () => {
    // A job's XLSX of thousands of rows still fits one chunk (~40 bytes a row, compressed): the
    // chunk store is driven directly here with a file of 2.5 MiB, then served by a download link.
    it('stores 2.5 MiB written in uneven pieces as 1 MiB chunks in order, and a download link serves it back whole', async () => {
      const size = 2.5 * CHUNK_BYTES;
      const data = randomBytes(size);
      const [job] = await s.sql<{ id: number }[]>(
        `insert into export_job (organization_id, kind, format, filters, status, file_name, rows_done, rows_total, byte_size, finished_at, expires_at)
         values (?, 'orders', 'xlsx', '{}', 'ready', 'orders-2026-01-01.xlsx', 0, 0, ?, now(), now() + interval '1 day') returning id`,
        [ws.organizationId, size],
      );
      const cuts = [0, 100_000, 1_600_000, 1_600_007, 1_900_000, size];
      const pieces = cuts.slice(1).map((end, i) => data.subarray(cuts[i], end));
      const writer = new ChunkWriter(t.orm.em.fork(), ws.organizationId, job.id);
      await pipeline(Readable.from(pieces), writer);
      expect(writer.bytes).toBe(size);
      expect(await s.chunks(job.id)).toEqual([
        { seq: 0, bytes: CHUNK_BYTES, organization_id: ws.organizationId },
        { seq: 1, bytes: CHUNK_BYTES, organization_id: ws.organizationId },
        { seq: 2, bytes: CHUNK_BYTES / 2, organization_id: ws.organizationId },
      ]);
      const [stored] = await s.sql<{ same: boolean }[]>(
        `select string_agg(data, ''::bytea order by seq) = ? as same from export_chunk where export_job_id = ?`,
        [data, job.id],
      );
      expect(stored.same).toBe(true);

      const link = new DownloadLinks(secretsFrom(t.config.jwtSecret!).deriveKey('export-download')).issue(ws.organizationId, job.id, new Date(Date.now() + 60 * 60_000), injectBase);
      const res = await s.download(link.url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_TYPE);
      expect(res.headers['content-disposition']).toBe('attachment; filename="orders-2026-01-01.xlsx"');
      expect(Number(res.headers['content-length'])).toBe(size);
      expect(res.rawPayload.length).toBe(size);
      expect(res.rawPayload.equals(data)).toBe(true);
    });
  });

  describe('download links', () => {
    /** A READY orders job of ws and its link. */
    let readyJob: Job;
    let secondJob: Job;
    const links = () => new DownloadLinks(secretsFrom(t.config.jwtSecret!).deriveKey('export-download'));

    beforeAll(async () => {
      const admin = await s.caller(ws, 2);
      const a = await s.started(admin, 'USERS');
      const b = await s.started(admin, 'USERS');
      readyJob = await s.finished(admin, a.id);
      secondJob = await s.finished(admin, b.id);
      expect(readyJob.status).toBe('READY');
      expect(secondJob.status).toBe('READY');
    });

    it('works with a session or an API key of the same workspace, and is 404 with a credential of another workspace', async () => {
      const bodyOf = async (credential?: Credential) => {
        const res = await s.download(readyJob.downloadUrl!, credential);
        expect(res.statusCode, res.body).toBe(200);
        return res.rawPayload;
      };
      const anonymous = await bodyOf();
      expect(anonymous.length).toBe(readyJob.byteSize);
      expect((await bodyOf(ws.token)).equals(anonymous)).toBe(true);
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      expect((await bodyOf(employee.token)).equals(anonymous)).toBe(true);
      const key = await createApiKey(t, ws, { scopes: 'read,exports' });
      expect((await bodyOf({ apiKey: key.key })).equals(anonymous)).toBe(true);
      // A key sent along must still be allowed on exports (the link does not widen its scopes).
      const ordersKey = await createApiKey(t, ws, { scopes: 'read,orders' });
      expectErrorBody(await s.download(readyJob.downloadUrl!, { apiKey: ordersKey.key }), 403, 'This API key is not scoped for exports: its scopes allow orders');

      const notFound = `Export ${readyJob.id} not found`;
      expectErrorBody(await s.download(readyJob.downloadUrl!, other.token), 404, notFound);
      // A credential that is not valid is refused as anywhere else, link or not.
      const bad = await s.download(readyJob.downloadUrl!, 'not-a-session-token');
      expect(bad.statusCode, bad.body).toBe(401);
      expect(bad.json().response_code).toBe(401);
      const otherKey = await createApiKey(t, other, { scopes: 'read,exports' });
      expectErrorBody(await s.download(readyJob.downloadUrl!, { apiKey: otherKey.key }), 404, notFound);
    });

    it('refuses a tampered signature, another export id, a changed expiry and an unknown id with 403', async () => {
      const { id, expires, signature } = linkParts(readyJob.downloadUrl!);
      const url = (i: number, e: number, sig: string) => `/api/v1/exports/files/${i}?expires=${e}&signature=${sig}`;
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      for (const bad of [
        url(id, expires, flipped),
        url(id, expires, signature.slice(0, -1)),
        url(id, expires, `${signature}A`),
        url(id, expires + 3600, signature),
        url(id, expires - 1, signature),
        url(secondJob.id, expires, signature),
        url(99_999_999, expires, signature),
      ]) {
        expectErrorBody(await s.download(bad), 403, INVALID_LINK);
        expectErrorBody(await s.download(bad, ws.token), 403, INVALID_LINK);
      }
      // The other job's own link still works: signatures are per export.
      expect((await s.download(secondJob.downloadUrl!)).statusCode).toBe(200);
    });

    it('answers 400 naming the parameter when the link lacks or garbles one', async () => {
      const { id, expires, signature } = linkParts(readyJob.downloadUrl!);
      const cases: Array<[string, RegExp]> = [
        [`/api/v1/exports/files/${id}?expires=${expires}`, /signature/],
        [`/api/v1/exports/files/${id}?signature=${signature}`, /expires/],
        [`/api/v1/exports/files/${id}`, /expires|signature/],
        [`/api/v1/exports/files/${id}?expires=soon&signature=${signature}`, /expires/],
        [`/api/v1/exports/files/${id}?expires=${expires}&signature=${'A'.repeat(101)}`, /signature/],
        [`/api/v1/exports/files/abc?expires=${expires}&signature=${signature}`, /id/],
      ];
      for (const [url, named] of cases) {
        const res = await s.download(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json().response_code).toBe(400);
        expect(res.json().message).toMatch(named);
      }
    });

    it('refuses a link past its own expiry with 403, though the file is still kept', async () => {
      const fileExpiresAt = new Date(ms(readyJob.expiresAt));
      const stale = links().issue(ws.organizationId, readyJob.id, fileExpiresAt, injectBase, new Date(Date.now() - DOWNLOAD_LINK_TTL_MS - 60_000));
      expect(stale.expiresAt.getTime()).toBeLessThan(Date.now());
      expectErrorBody(await s.download(stale.url), 403, EXPIRED_LINK);
      // Signed for another workspace, an otherwise valid link is not ours.
      const foreign = links().issue(other.organizationId, readyJob.id, fileExpiresAt, injectBase);
      expectErrorBody(await s.download(foreign.url), 403, INVALID_LINK);
      // A link minted now with the same key works: only the expiry was wrong.
      expect((await s.download(links().issue(ws.organizationId, readyJob.id, fileExpiresAt, injectBase).url)).statusCode).toBe(200);
    });

    it('never hands out a link that outlives the file', async () => {
      const admin = await s.caller(ws, 1);
      const job = await s.finished(admin, (await s.started(admin, 'USERS')).id);
      const [row] = await s.sql<{ expires_at: Date }[]>(`update export_job set expires_at = now() + interval '5 minutes 0.7 seconds' where id = ? returning expires_at`, [job.id]);
      const now: Job = expectGraphqlData(await s.job(admin, job.id)).export;
      expect(ms(now.expiresAt)).toBe(new Date(row.expires_at).getTime());
      // The link stops at the file's expiry (in whole seconds, never after it), not 15 minutes on.
      expect(ms(now.downloadUrlExpiresAt)).toBe(Math.floor(ms(now.expiresAt) / 1000) * 1000);
      expect(linkParts(now.downloadUrl!).expires).toBe(Math.floor(ms(now.expiresAt) / 1000));
      expect((await s.download(now.downloadUrl!)).statusCode).toBe(200);
    });

    it('answers 410 once the file is past its retention, and export(id) hands out no link', async () => {
      const admin = await s.caller(ws, 1);
      const job = await s.finished(admin, (await s.started(admin, 'USERS')).id);
      expect((await s.download(job.downloadUrl!)).statusCode).toBe(200);
      await s.sql(`update export_job set expires_at = now() - interval '1 second' where id = ?`, [job.id]);
      expectErrorBody(await s.download(job.downloadUrl!), 410, FILE_GONE);
      expectErrorBody(await s.download(job.downloadUrl!, ws.token), 410, FILE_GONE);
      const now: Job = expectGraphqlData(await s.job(admin, job.id)).export;
      expect(now).toMatchObject({ status: 'READY', downloadUrl: null, downloadUrlExpiresAt: null });
    });
  });

  describe('delete_expired_exports', () => {
    const logger = new Logger(() => () => undefined);

    it('is scheduled hourly', () => {
      expect(CRON_ITEMS).toContainEqual(expect.objectContaining({ task: 'delete_expired_exports', match: '23 * * * *' }));
    });

    it('deletes files past their retention and jobs unfinished after 7 days (with their chunks), in every workspace, and nothing else', async () => {
      const admin = await s.caller(ws, 2);
      const otherAdmin = await s.caller(other, 1);
      // Real files: one expired in each workspace, one kept.
      const expired = await s.finished(admin, (await s.started(admin, 'USERS')).id);
      const expiredOther = await s.finished(otherAdmin, (await s.started(otherAdmin, 'USERS')).id);
      const kept = await s.finished(admin, (await s.started(admin, 'USERS')).id);
      for (const job of [expired, expiredOther, kept]) expect(job.status).toBe('READY');
      await s.sql(`update export_job set expires_at = now() - interval '1 second' where id in (?, ?)`, [expired.id, expiredOther.id]);
      await s.sql(`update export_job set expires_at = now() + interval '1 minute' where id = ?`, [kept.id]);

      // Jobs that never finished (queued, running or failed), by age.
      const add = async (status: string, age: string) => {
        const [row] = await s.sql<{ id: number }[]>(
          `insert into export_job (organization_id, kind, format, filters, status, file_name, created_at)
           values (?, 'orders', 'xlsx', '{}', ?, 'orders-2026-01-01.xlsx', now() - ?::interval) returning id`,
          [ws.organizationId, status, age],
        );
        await s.sql(`insert into export_chunk (organization_id, export_job_id, seq, data) values (?, ?, 0, '\\x00')`, [ws.organizationId, row.id]);
        return row.id;
      };
      const staleQueued = await add('queued', '7 days 1 minute');
      const staleRunning = await add('running', '8 days');
      const staleFailed = await add('failed', '30 days');
      const freshQueued = await add('queued', '6 days 23 hours');
      const freshFailed = await add('failed', '1 day');

      const tasks = createTasks(taskDepsOf({ config: t.config, secrets: secretsFrom(t.config.jwtSecret!), orm: t.orm }));
      const run = async () => {
        await quickAddJob({ connectionString: t.db.url, logger }, 'delete_expired_exports', {});
        await runOnce({ connectionString: t.db.url, taskList: tasks, logger, noHandleSignals: true, concurrency: 1 });
      };
      const removed = [expired.id, expiredOther.id, staleQueued, staleRunning, staleFailed];
      const keptIds = [kept.id, freshQueued, freshFailed];
      const existing = async (ids: number[]) =>
        (await s.sql<{ id: number }[]>('select id from export_job where id in (?) order by id', [ids])).map((r) => r.id);
      const chunked = async (ids: number[]) =>
        (await s.sql<{ id: number }[]>('select distinct export_job_id as id from export_chunk where export_job_id in (?) order by 1', [ids])).map((r) => r.id);
      expect(await chunked([...removed, ...keptIds])).toEqual([...removed, ...keptIds].sort((a, b) => a - b));

      await run();
      expect(await existing(removed)).toEqual([]);
      expect(await chunked(removed)).toEqual([]);
      expect(await existing(keptIds)).toEqual([...keptIds].sort((a, b) => a - b));
      expect(await chunked(keptIds)).toEqual([...keptIds].sort((a, b) => a - b));
      const [orphans] = await s.sql<{ n: number }[]>('select count(*)::int as n from export_chunk c where not exists (select 1 from export_job j where j.id = c.export_job_id)');
      expect(orphans.n).toBe(0);
      // No expired file and no stale unfinished job is left anywhere.
      const [left] = await s.sql<{ n: number }[]>(
        `select count(*)::int as n from export_job where expires_at <= now() or (expires_at is null and created_at < now() - interval '7 days')`,
      );
      expect(left.n).toBe(0);

      // The kept file still downloads; the deleted one's link now finds nothing (403: no such export to sign for).
      expect((await s.download(kept.downloadUrl!)).statusCode).toBe(200);
      expectErrorBody(await s.download(expired.downloadUrl!), 403, INVALID_LINK);
      expectGraphqlError(await s.job(admin, expired.id), 'NOT_FOUND', `Export ${expired.id} not found`);

      await run();
      expect(await existing(keptIds)).toEqual([...keptIds].sort((a, b) => a - b));
      expect(await chunked(keptIds)).toEqual([...keptIds].sort((a, b) => a - b));
    });
  });

  describe('validation at start', () => {
    const count = async () => (await s.sql<{ n: number }[]>('select count(*)::int as n from export_job'))[0].n;
    /** run_export jobs queued for no recorded export (a refusal must queue nothing). */
    const strayJobs = async () =>
      (
        await s.sql<{ n: number }[]>(
          `select count(*)::int as n from graphile_worker.jobs j
            where j.task_identifier = 'run_export' and not exists (select 1 from export_job e where j.key = 'export-' || e.id)`,
        )
      )[0].n;

    const cases: Array<[string, () => [Job['kind'], Job['format'] | undefined, Filters], string]> = [
      ['userType on orders', () => ['ORDERS', undefined, { userType: 'EMPLOYEE' }], 'userType does not apply to orders exports (they take orderStatus, dateFrom, dateTo, productionUnitId)'],
      ['userStatus on orders', () => ['ORDERS', undefined, { userStatus: 'ACTIVE' }], 'userStatus does not apply to orders exports (they take orderStatus, dateFrom, dateTo, productionUnitId)'],
      ['orderStatus on users', () => ['USERS', undefined, { orderStatus: 'APPROVED' }], 'orderStatus does not apply to users exports (they take userType, userStatus)'],
      ['dateFrom on users', () => ['USERS', undefined, { dateFrom: '2026-01-01' }], 'dateFrom does not apply to users exports (they take userType, userStatus)'],
      ['productionUnitId on sales', () => ['SALES', undefined, { productionUnitId: unitId }], 'productionUnitId does not apply to sales exports (they take dateFrom, dateTo)'],
      ['userType ADMIN (0) on sales', () => ['SALES', 'PDF', { userType: 'ADMIN' }], 'userType does not apply to sales exports (they take dateFrom, dateTo)'],
      ['dateFrom after dateTo', () => ['ORDERS', undefined, { dateFrom: '2026-03-02', dateTo: '2026-03-01' }], 'dateFrom must not be after dateTo'],
      // Dates are read trimmed (as everywhere else), so spaces do not get a reversed range past the check.
      ['dateFrom after dateTo, written with a space', () => ['SALES', undefined, { dateFrom: ' 2026-03-02', dateTo: '2026-03-01' }], 'dateFrom must not be after dateTo'],
      ['an impossible dateFrom', () => ['ORDERS', undefined, { dateFrom: '2026-02-30' }], 'dateFrom must be a date in the form YYYY-MM-DD'],
      ['a word for dateTo', () => ['SALES', undefined, { dateTo: 'yesterday' }], 'dateTo must be a date in the form YYYY-MM-DD'],
      ['an unknown productionUnitId', () => ['ORDERS', undefined, { productionUnitId: 99_999_999 }], NOT_A_UNIT],
      ["another workspace's productionUnitId", () => ['ORDERS', 'PDF', { productionUnitId: otherUnitId }], NOT_A_UNIT],
    ];

    it.each(cases)('refuses %s with BAD_USER_INPUT and records nothing', async (_name, args, message) => {
      const admin = await s.caller(ws, 1);
      const jobs = await count();
      const [kind, format, filters] = args();
      expectGraphqlError(await s.start(admin, kind, format, filters), 'BAD_USER_INPUT', message);
      expect(await count()).toBe(jobs);
      expect(await strayJobs()).toBe(0);
    });

    it('refuses a PDF of more than 5,000 rows at start, and accepts it once the filters narrow it', async () => {
      const admin = await s.caller(big, 2);
      const jobs = await count();
      expectGraphqlError(await s.start(admin, 'ORDERS', 'PDF'), 'BAD_USER_INPUT', pdfCap('5,001'));
      expect(await count()).toBe(jobs);
      // g % 90 = 0 … 4: the first five days of January.
      const [early] = await s.sql<{ n: number }[]>(
        `select count(*)::int as n from sales_order where organization_id = ? and order_date <= '2026-01-05'`,
        [big.organizationId],
      );
      expect(early.n).toBe(Array.from({ length: BIG_ROWS }, (_, i) => i + 1).filter((g) => g % 90 <= 4).length);
      const narrowed = await s.started(admin, 'ORDERS', 'PDF', { dateTo: '2026-01-05' });
      expect(narrowed).toMatchObject({ status: 'QUEUED', rowsTotal: early.n });
      const ready = await s.finished(admin, narrowed.id);
      expect(ready).toMatchObject({ status: 'READY', rowsDone: early.n, rowsTotal: early.n });
      const { pages, text } = readPdf((await s.download(ready.downloadUrl!)).rawPayload);
      expect(pages).toBeGreaterThan(1);
      for (let page = 1; page <= pages; page += 1) expect(text).toContain(`Page ${page} of ${pages}`);
      expect(text).toContain(`· ${early.n} rows`);
      expect(text).toContain('Order date: up to 2026-01-05');
    });
  });

  describe('permissions and tenant isolation', () => {
    it('refuses employees, distributors and retailers (FORBIDDEN), and asks for a credential without one', async () => {
      const admin = await s.caller(ws, 1);
      const job = await s.started(admin, 'USERS');
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const retailer = await createUser(t, ws, UserType.RETAILER);
      for (const token of [employee.token, catalog.distributorToken, retailer.token]) {
        expectGraphqlError(await s.start(token, 'ORDERS'), 'FORBIDDEN', ADMINS_ONLY);
        expectGraphqlError(await s.job(token, job.id), 'FORBIDDEN', ADMINS_ONLY);
      }
      const anonymous = await t.graphql(START, { kind: 'ORDERS' });
      expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(anonymous.data ?? null).toBeNull();
      const [mine] = await s.sql<{ n: number }[]>('select count(*)::int as n from export_job where requested_by_user_id in (?)', [
        [employee.id, catalog.distributorId, retailer.id],
      ]);
      expect(mine.n).toBe(0);
    });

    it('lets an API key with the exports scope start a job (read suffices, as for GET /exports); an otherwise-scoped key is FORBIDDEN', async () => {
      const writer = await createApiKey(t, ws, { scopes: 'write,exports' });
      const job = await s.started({ apiKey: writer.key }, 'ORDERS', 'XLSX', { orderStatus: 'INITIATED' });
      expect(job).toMatchObject({ status: 'QUEUED', rowsTotal: 3 });
      const ready = await s.finished({ apiKey: writer.key }, job.id);
      expect(ready).toMatchObject({ status: 'READY', rowsDone: 3 });
      const [row] = await s.sql<{ requested_by_api_key_id: number; requested_by_user_id: number | null }[]>(
        'select requested_by_api_key_id, requested_by_user_id from export_job where id = ?',
        [job.id],
      );
      expect(row).toEqual({ requested_by_api_key_id: writer.id, requested_by_user_id: null });
      expect((await s.download(ready.downloadUrl!, { apiKey: writer.key })).statusCode).toBe(200);

      // Starting and reading a job need only read on exports (or no group confinement).
      const reader = await createApiKey(t, ws, { scopes: 'read,exports' });
      const readersJob = await s.started({ apiKey: reader.key }, 'ORDERS');
      expect(readersJob).toMatchObject({ status: 'QUEUED', rowsTotal: 3 });
      expect(expectGraphqlData(await s.job({ apiKey: reader.key }, job.id)).export).toMatchObject({ id: job.id, status: 'READY' });
      const plain = await createApiKey(t, ws, { scopes: 'read' });
      expect(expectGraphqlData(await s.job({ apiKey: plain.key }, job.id)).export.id).toBe(job.id);

      const ordersOnly = await createApiKey(t, ws, { scopes: 'write,orders' });
      const notScoped = 'This API key is not scoped for exports: its scopes allow orders';
      expectGraphqlError(await s.start({ apiKey: ordersOnly.key }, 'ORDERS'), 'FORBIDDEN', notScoped);
      expectGraphqlError(await s.job({ apiKey: ordersOnly.key }, job.id), 'FORBIDDEN', notScoped);
    });

    it("answers NOT_FOUND for another workspace's job, to its admins and its keys alike", async () => {
      const admin = await s.caller(ws, 1);
      const mine = await s.finished(admin, (await s.started(admin, 'ORDERS')).id);
      const otherAdmin = await s.caller(other, 1);
      const otherKey = await createApiKey(t, other, { scopes: 'read,exports' });
      const notFound = `Export ${mine.id} not found`;
      expectGraphqlError(await s.job(otherAdmin, mine.id), 'NOT_FOUND', notFound);
      expectGraphqlError(await s.job({ apiKey: otherKey.key }, mine.id), 'NOT_FOUND', notFound);
      expectGraphqlError(await s.job(admin, 99_999_999), 'NOT_FOUND', 'Export 99999999 not found');
      // Their own orders export holds their one order, none of ours.
      const theirs = await s.finished(otherAdmin, (await s.started(otherAdmin, 'ORDERS')).id);
      expect(theirs).toMatchObject({ status: 'READY', rowsTotal: 1, rowsDone: 1 });
      const rows = rowsOf((await readXlsx((await s.download(theirs.downloadUrl!)).rawPayload)).getWorksheet('Orders')!);
      expect(rows.map((r) => r[0])).toEqual(['Order code', otherOrderCode, 'Total']);
      expect([rows[1][1], rows[1][3], rows[1][9]]).toEqual([utcDate('2026-03-02'), otherCustomer, 199.5]);
      expectGraphqlError(await s.job(admin, theirs.id), 'NOT_FOUND', `Export ${theirs.id} not found`);
    });
  });

  describe('rate limit', () => {
    it('spends the exports budget: the 6th startExport in a minute is RATE_LIMITED; export(id) and downloads are not counted', async () => {
      const admin = await s.freshAdmin(ws);
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = await t.request({ method: 'POST', url: '/graphql', token: admin, payload: { query: START, variables: { kind: 'USERS' } } });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
        ids.push(res.json().data.startExport.id);
      }
      const before = (await s.sql<{ n: number }[]>('select count(*)::int as n from export_job'))[0].n;
      const refused = await t.request({ method: 'POST', url: '/graphql', token: admin, payload: { query: START, variables: { kind: 'USERS' } } });
      expectGraphqlError({ ...refused.json(), statusCode: refused.statusCode }, 'RATE_LIMITED', TOO_MANY);
      // Over GraphQL a resolver's refusal travels in the body (HTTP 200); the header still says when to retry.
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await s.sql<{ n: number }[]>('select count(*)::int as n from export_job'))[0].n).toBe(before);
      // A refused filter spends the budget too, so it is refused by the limit first.
      expectGraphqlError(await s.start(admin, 'ORDERS', undefined, { userType: 'EMPLOYEE' }), 'RATE_LIMITED', TOO_MANY);

      // Polling and downloading go on.
      for (const id of ids) {
        const job = await s.finished(admin, id);
        expect(job.status).toBe('READY');
        expect((await s.download(job.downloadUrl!, admin)).statusCode).toBe(200);
      }
      // Another caller of the same workspace has a budget of its own.
      expect((await s.started(await s.freshAdmin(ws), 'USERS')).status).toBe('QUEUED');
    });
  });
});

/**
 * Jobs that fail WHILE RUNNING: the data changes between startExport and the worker's run (the
 * worker is started only after every change). A refusal (the production unit deleted or moved to
 * another workspace, a PDF grown past 5,000 rows) ends the job FAILED with its message, at once
 * and for good. Any other failure (here the workspace's time zone made unreadable, so the SQL
 * fails) leaves it QUEUED for graphile-worker to retry, and FAILED only after the last of
 * EXPORT_JOB_MAX_ATTEMPTS. A job unaffected by the changes, queued alongside, still succeeds.
 */
describe('export jobs failing while running', () => {
  const s = new Stage();
  let t: TestApp;
  let ws: Workspace;
  let flaky: Workspace;
  let broken: Workspace;
  const jobs: Record<'gone' | 'moved' | 'grown' | 'fine' | 'flaky' | 'broken', Job> = {} as never;

  const graphileJob = async (job: Job) =>
    (await s.sql<Array<{ attempts: number; max_attempts: number; last_error: string | null; locked_at: string | null }>>(
      'select attempts, max_attempts, last_error, locked_at from graphile_worker.jobs where key = ?',
      [`export-${job.id}`],
    ))[0] ?? null;
  /**
   * Makes a job waiting for its retry due now, once graphile-worker has released it (it would wait
   * e^attempts seconds), and wakes the idle workers as add_job does (else they look every 2 s).
   */
  const retryNow = async (job: Job) => {
    await released(job);
    await s.sql('select graphile_worker.reschedule_jobs(array(select id from graphile_worker.jobs where key = ?), run_at := now())', [`export-${job.id}`]);
    await s.sql(`select pg_notify('jobs:insert', '{"r":0,"count":1}')`);
  };
  /**
   * The export's graphile job once the worker has let go of it (5 s at most): run() marks the
   * export before the task ends, and graphile-worker records the attempt just after.
   */
  const released = async (job: Job) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const held = await graphileJob(job);
      if (!held?.locked_at) return held;
      if (Date.now() > deadline) throw new Error(`graphile job of export ${job.id} still locked`);
      await sleep(20);
    }
  };
  /** Waits until graphile-worker holds no job for the export (5 s at most); until then it is on its first attempt. */
  const gone = async (job: Job) => {
    const deadline = Date.now() + 5_000;
    for (let held = await graphileJob(job); held; held = await graphileJob(job)) {
      expect(held.attempts).toBe(1);
      if (Date.now() > deadline) throw new Error(`graphile job of export ${job.id} still there`);
      await sleep(20);
    }
  };
  const setTimeZone = (w: Workspace, zone: string) => s.sql('update workspace_config set time_zone = ? where organization_id = ?', [zone, w.organizationId]);

  beforeAll(async () => {
    await s.build();
    t = s.t;
    ws = await createWorkspace(t, 'Refusals');
    const other = await createWorkspace(t, 'Elsewhere');
    flaky = await createWorkspace(t, 'Flaky');
    broken = await createWorkspace(t, 'Broken');
    const catalog = await seedCatalog(t, ws);
    const deletedUnit = await s.productionUnit(ws, 'Plant Gone');
    const movedUnit = await s.productionUnit(ws, 'Plant Moved');
    for (const unit of [deletedUnit, movedUnit]) {
      await placeOrder(t, ws.token, { user_id: catalog.distributorId, production_unit_id: unit, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    }
    await s.bulkOrders(ws, catalog.retailerId, 'GROW', 4_998);

    jobs.gone = await s.started(ws.token, 'ORDERS', 'XLSX', { productionUnitId: deletedUnit });
    jobs.moved = await s.started(ws.token, 'ORDERS', 'PDF', { productionUnitId: movedUnit });
    jobs.grown = await s.started(ws.token, 'ORDERS', 'PDF');
    jobs.fine = await s.started(ws.token, 'USERS', 'PDF');
    jobs.flaky = await s.started(flaky.token, 'USERS');
    jobs.broken = await s.started(broken.token, 'USERS');
    expect([jobs.gone.rowsTotal, jobs.moved.rowsTotal, jobs.grown.rowsTotal, jobs.flaky.rowsTotal]).toEqual([1, 1, 5_000, 1]);
    expect(Object.values(jobs).every((job) => job.status === 'QUEUED')).toBe(true);

    // The database refuses to delete or move a unit its workspace's orders still name (composite
    // tenant keys, ON DELETE NO ACTION): they let go of it first.
    await s.sql('update sales_order set production_unit_id = null where production_unit_id in (?, ?)', [deletedUnit, movedUnit]);
    await s.sql('delete from production_unit where id = ?', [deletedUnit]);
    await s.sql('update production_unit set organization_id = ? where id = ?', [other.organizationId, movedUnit]);
    await s.bulkOrders(ws, catalog.retailerId, 'MORE', 1);
    await setTimeZone(flaky, 'Nowhere/Unreadable');
    await setTimeZone(broken, 'Nowhere/Unreadable');
    await t.startWorker();
  });
  afterAll(() => t?.close());

  it('fails a job whose production unit was deleted or moved away, or whose PDF grew past 5,000 rows: at once, for good, with no file', async () => {
    const started = Date.now();
    for (const [job, error] of [
      [jobs.gone, NOT_A_UNIT],
      [jobs.moved, NOT_A_UNIT],
      [jobs.grown, pdfCap('5,001')],
    ] as const) {
      const failed = await s.finished(ws.token, job.id);
      expect(failed).toMatchObject({
        id: job.id,
        status: 'FAILED',
        error,
        rowsDone: 0,
        byteSize: null,
        expiresAt: null,
        downloadUrl: null,
        downloadUrlExpiresAt: null,
      });
      expect(failed.seen.includes('READY')).toBe(false);
      expect(ms(failed.finishedAt)).toBeGreaterThanOrEqual(ms(job.createdAt));
      expect(ms(failed.finishedAt)).toBeLessThanOrEqual(started + 20_000);
      expect(await s.chunks(job.id)).toEqual([]);
      // Not retried: the task ends normally (just after the job is marked), so graphile-worker drops its job after this one attempt.
      await gone(job);
    }
    const ok = await s.finished(ws.token, jobs.fine.id);
    expect(ok).toMatchObject({ status: 'READY', error: null });
    await sleep(300);
    for (const job of [jobs.gone, jobs.moved, jobs.grown]) {
      expect(expectGraphqlData(await s.job(ws.token, job.id)).export).toMatchObject({ status: 'FAILED', rowsDone: 0 });
    }
    // A link forged for a failed job finds no file.
    const links = new DownloadLinks(secretsFrom(t.config.jwtSecret!).deriveKey('export-download'));
    expectErrorBody(await s.download(links.issue(ws.organizationId, jobs.gone.id, new Date(Date.now() + 60_000), injectBase).url), 410, FILE_GONE);
  });

  it('retries a job that failed for another reason (QUEUED again, no error shown meanwhile), and it succeeds once the cause is gone', async () => {
    const attemptDeadline = Date.now() + 20_000;
    while ((await graphileJob(jobs.flaky))?.attempts !== 1) {
      if (Date.now() > attemptDeadline) throw new Error(`export ${jobs.flaky.id} never attempted`);
      await sleep(50);
    }
    await released(jobs.flaky);
    const first = expectGraphqlData(await s.job(flaky.token, jobs.flaky.id)).export;
    expect(first).toMatchObject({ status: 'QUEUED', error: null, rowsDone: 0, finishedAt: null });
    expect(await released(jobs.flaky)).toMatchObject({ attempts: 1, max_attempts: EXPORT_JOB_MAX_ATTEMPTS, last_error: expect.stringMatching(/time zone/) });
    expect(await s.chunks(jobs.flaky.id)).toEqual([]);

    await setTimeZone(flaky, 'UTC');
    await retryNow(jobs.flaky);
    const ready = await s.finished(flaky.token, jobs.flaky.id);
    expect(ready).toMatchObject({ status: 'READY', error: null, rowsDone: 1, rowsTotal: 1, progress: 1 });
    expect(ms(ready.expiresAt) - ms(ready.finishedAt)).toBe(EXPORT_FILE_RETENTION_MS);
    const deadline = Date.now() + 5_000;
    while (await graphileJob(jobs.flaky)) {
      if (Date.now() > deadline) throw new Error('the retried job is still held by graphile-worker');
      await sleep(20);
    }
    const res = await s.download(ready.downloadUrl!);
    expect(res.statusCode).toBe(200);
    expect(rowsOf((await readXlsx(res.rawPayload)).getWorksheet('Users')!)).toHaveLength(2);
  });

  it(`marks such a job FAILED only after its last attempt (${EXPORT_JOB_MAX_ATTEMPTS})`, async () => {
    expect(EXPORT_JOB_MAX_ATTEMPTS).toBe(3);
    const deadline = Date.now() + 20_000;
    let attemptsSeen = 0;
    for (;;) {
      const job: Job = expectGraphqlData(await s.job(broken.token, jobs.broken.id)).export;
      if (job.status === 'FAILED') break;
      expect(job.status).not.toBe('READY');
      const queued = await graphileJob(jobs.broken);
      if (queued && queued.attempts > attemptsSeen && queued.locked_at === null && queued.last_error !== null && job.status === 'QUEUED') {
        // An attempt failed and the job waits for the next one, showing no error yet.
        expect(job.error).toBeNull();
        attemptsSeen = queued.attempts;
        expect(attemptsSeen).toBeLessThan(EXPORT_JOB_MAX_ATTEMPTS);
        await retryNow(jobs.broken);
      }
      if (Date.now() > deadline) throw new Error(`export ${jobs.broken.id} not FAILED after 20 s (attempts ${attemptsSeen})`);
      await sleep(50);
    }
    expect(attemptsSeen).toBe(EXPORT_JOB_MAX_ATTEMPTS - 1);
    const failed: Job = expectGraphqlData(await s.job(broken.token, jobs.broken.id)).export;
    expect(failed).toMatchObject({ status: 'FAILED', error: 'The export could not be written; start it again', rowsDone: 0, byteSize: null, expiresAt: null, downloadUrl: null });
    expect(failed.finishedAt).not.toBeNull();
    // graphile-worker keeps the spent job with its last error; nothing runs it again.
    expect(await released(jobs.broken)).toMatchObject({ attempts: EXPORT_JOB_MAX_ATTEMPTS, max_attempts: EXPORT_JOB_MAX_ATTEMPTS, last_error: expect.stringMatching(/time zone/), locked_at: null });
    expect(await s.chunks(jobs.broken.id)).toEqual([]);
  });
});

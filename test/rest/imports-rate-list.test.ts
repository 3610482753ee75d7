import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { csv, upload, xlsx } from '../helpers/imports';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const HEADER = ['sku', 'price', 'mrp', 'effective_from'];

/**
 * POST /imports/rate-list: new prices per SKU from a day, appended to the price history; checked
 * first and all or nothing; idempotent (a row equal to the price in force on its day writes
 * nothing); a different price for a day that has a version supersedes it.
 */
describe('imports: rate list', () => {
  let t: TestApp;
  let A: Workspace;
  let B: Workspace;
  let catalog: Catalog;
  let skuOfB: string;
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());

  const skusOf = async (ws: Workspace, productId: number) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/products/${productId}`, token: ws.token });
    return (res.json().data.ProductVariants as Array<{ id: number; item_sku_code: string; sp: number; mrp: number }>);
  };
  const history = async (variantId: number) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/products/variants/${variantId}/prices?limit=100`, token: A.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Array<{ sp: number; mrp: number; effective_from: string; source: number; import_id: number | null }>;
  };
  const inForce = async (variantId: number, date: string) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/products/rate-list?date=${date}&limit=100`, token: A.token });
    return (res.json().data as Array<{ variant_id: number; sp: number; mrp: number }>).find((e) => e.variant_id === variantId);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    A = await createWorkspace(t);
    B = await createWorkspace(t);
    catalog = await seedCatalog(t, A);
    const ofB = await seedCatalog(t, B);
    skuOfB = (await skusOf(B, ofB.productId))[0].item_sku_code;
  });
  afterAll(() => t?.close());

  it('writes versions: today’s changes the variant now, a later one waits for its day; a re-upload writes nothing; orders keep their prices', async () => {
    const [v500, v1000] = await skusOf(A, catalog.productId);
    const order = await placeOrder(t, A.token, { user_id: catalog.distributorId, items: [{ product_variant_id: v500.id, quantity: 2 }] });
    const later = shiftDay(today(), 10);
    const file = csv([HEADER, [v500.item_sku_code, 29, '', ''], [v1000.item_sku_code, '57.50', 60, later]]);
    const res = await upload(t, 'rate-list', 'rates.csv', file, { token: A.token });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    // The 500 ml variant was created today: its first version starts today, which the new one supersedes (updated).
    expect(data).toMatchObject({ kind: 'rate-list', status: 'succeeded', total_rows: 2, valid_rows: 2, failed_rows: 0, inserted: 1, updated: 1, unchanged: 0, errors: [] });

    const now = await skusOf(A, catalog.productId);
    expect(now.find((v) => v.id === v500.id)).toMatchObject({ sp: 29, mrp: 30 });
    expect(now.find((v) => v.id === v1000.id)).toMatchObject({ sp: 55, mrp: 58 });
    expect((await history(v500.id))[0]).toMatchObject({ sp: 29, mrp: 30, effective_from: today(), source: 2, import_id: data.id });
    expect((await history(v1000.id))[0]).toMatchObject({ sp: 57.5, mrp: 60, effective_from: later, source: 2, import_id: data.id });
    expect(await inForce(v1000.id, shiftDay(later, -1))).toMatchObject({ sp: 55, mrp: 58 });
    expect(await inForce(v1000.id, later)).toMatchObject({ sp: 57.5, mrp: 60 });

    const again = await upload(t, 'rate-list', 'rates.csv', file, { token: A.token });
    expect(again.json().data, again.body).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 2 });
    expect(await history(v500.id)).toHaveLength(2);
    expect(await history(v1000.id)).toHaveLength(2);

    const placed = await t.request({ method: 'GET', url: `/api/v1/orders/${order.id}`, token: A.token });
    expect(placed.json().data.order_total_amount).toBe(57);
  });

  it('a different price for a day that has a version appends one that supersedes it (updated); a dry run writes nothing', async () => {
    const [v500] = await skusOf(A, catalog.productId);
    const file = csv([HEADER, [v500.item_sku_code, 28, '', today()]]);
    const dry = await upload(t, 'rate-list', 'rates.csv', file, { token: A.token, query: 'dry_run=true' });
    expect(dry.json().data, dry.body).toMatchObject({ dry_run: true, status: 'succeeded', inserted: 0, updated: 1, unchanged: 0 });
    expect(await history(v500.id)).toHaveLength(2);
    const res = await upload(t, 'rate-list', 'rates.csv', file, { token: A.token });
    expect(res.json().data, res.body).toMatchObject({ status: 'succeeded', inserted: 0, updated: 1, unchanged: 0 });
    const rows = await history(v500.id);
    expect(rows).toHaveLength(3);
    expect(rows.slice(0, 2).map((r) => [r.sp, r.effective_from])).toEqual([[28, today()], [29, today()]]);
    expect(await inForce(v500.id, today())).toMatchObject({ sp: 28 });
    expect((await skusOf(A, catalog.productId)).find((v) => v.id === v500.id)).toMatchObject({ sp: 28 });
  });

  it('rows of one SKU on several days are planned in day order (an earlier row of the file is in force on a later one’s day)', async () => {
    const [v500] = await skusOf(A, catalog.productId);
    const d1 = shiftDay(today(), 3);
    const d2 = shiftDay(today(), 6);
    // In force on d2 before the upload: 28 (today's). The file's d1 row makes it 31, so d2's 28 is a change.
    const res = await upload(t, 'rate-list', 'rates.csv', csv([HEADER, [v500.item_sku_code, 28, '', d2], [v500.item_sku_code, 29.5, 35, d1]]), { token: A.token });
    expect(res.json().data, res.body).toMatchObject({ status: 'succeeded', inserted: 2, unchanged: 0 });
    expect(await inForce(v500.id, d1)).toMatchObject({ sp: 29.5, mrp: 35 });
    // The d2 row's MRP was empty: the MRP in force on d2, the file's d1 row's.
    expect(await inForce(v500.id, d2)).toMatchObject({ sp: 28, mrp: 35 });
  });

  it('fails bad rows naming the column, and writes nothing (all or nothing)', async () => {
    const [v500, v1000] = await skusOf(A, catalog.productId);
    const before = [await history(v500.id), await history(v1000.id)];
    const far = shiftDay(today(), 40);
    const file = csv([
      HEADER,
      [v500.item_sku_code, 20, '', far], // row 2: fine on its own, repeated on row 3
      [v500.item_sku_code, 21, '', far], // row 3: repeats (sku, effective_from)
      [`NOPE-${unique()}`, 10, '', ''], // row 4: unknown SKU
      [skuOfB, 10, '', ''], // row 5: another workspace's SKU
      [v1000.item_sku_code, 10, '', shiftDay(today(), -1)], // row 6: a past day
      [v1000.item_sku_code, 70, '', far], // row 7: above the MRP in force
      [v1000.item_sku_code, 'abc', '', ''], // row 8
      [v1000.item_sku_code, 10.123, '', ''], // row 9
      [v1000.item_sku_code, 10, '', '2026-02-30'], // row 10
      [v1000.item_sku_code, 10, 9, ''], // row 11: price above the given MRP
      [v1000.item_sku_code, '', '', ''], // row 12: price missing
    ]);
    const res = await upload(t, 'rate-list', 'rates.csv', file, { token: A.token });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'failed', total_rows: 11, inserted: 0, updated: 0, unchanged: 0 });
    const errors = (data.errors as Array<{ row: number; field: string; message: string }>).map((e) => [e.row, e.field]);
    expect(errors).toEqual([
      [3, 'sku'],
      [4, 'sku'],
      [5, 'sku'],
      [6, 'effective_from'],
      [7, 'price'],
      [8, 'price'],
      [9, 'price'],
      [10, 'effective_from'],
      [11, 'price'],
      [12, 'price'],
    ]);
    expect([await history(v500.id), await history(v1000.id)]).toEqual(before);
  });

  it('the product-variants import records the prices it sets in the history', async () => {
    const [v500] = await skusOf(A, catalog.productId);
    const before = await history(v500.id);
    const res = await upload(
      t,
      'product-variants',
      'variants.csv',
      csv([
        ['product_name', 'variant_name', 'item_sku_code', 'mrp', 'sp'],
        [(await t.request({ method: 'GET', url: `/api/v1/products/${catalog.productId}`, token: A.token })).json().data.product_name, '500 ml', v500.item_sku_code, 36, 27],
      ]),
      { token: A.token },
    );
    expect(res.json().data, res.body).toMatchObject({ status: 'succeeded', updated: 1 });
    const rows = await history(v500.id);
    expect(rows).toHaveLength(before.length + 1);
    expect(rows.find((r) => r.sp === 27)).toMatchObject({ mrp: 36, effective_from: today(), source: 2, import_id: res.json().data.id });
    expect(await inForce(v500.id, today())).toMatchObject({ sp: 27, mrp: 36 });
  });

  it('reads an XLSX whose effective_from cells are dates', async () => {
    const [, v1000] = await skusOf(A, catalog.productId);
    const day = shiftDay(today(), 20);
    const file = await xlsx([HEADER, [v1000.item_sku_code, 56, null, new Date(`${day}T00:00:00Z`)]]);
    const res = await upload(t, 'rate-list', 'rates.xlsx', file, { token: A.token });
    expect(res.json().data, res.body).toMatchObject({ status: 'succeeded', file_format: 'xlsx', inserted: 1 });
    expect(await inForce(v1000.id, day)).toMatchObject({ sp: 56, effective_from: day });
  });

  it('the template lists the columns', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/imports/templates/rate-list', token: A.token });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
  });
});

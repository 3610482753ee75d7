import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, unique, type Workspace } from '../helpers/fixtures';
import { csv, upload, xlsx } from '../helpers/imports';
import { query } from '../helpers/tenant-keys';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const HEADER = ['product_name', 'product_class', 'product_hsn', 'variant_name', 'item_sku_code', 'mrp', 'sp', 'variant_size', 'variant_quantity', 'container_quantity', 'unit_quantity', 'status'];

/** POST /imports/product-variants: checked first, all or nothing, idempotent by SKU; dry runs; failed rows CSV; limits; roles and tenancy. */
describe('imports: product variants', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const q = <T extends Record<string, unknown>>(text: string, params: unknown[]) => query<T>(t.db.url, text, params);

  async function world() {
    const ws = await createWorkspace(t);
    const n = unique();
    const cls = `Milk ${n}`;
    const res = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: cls, unit: 'litre' } });
    expect(res.statusCode, res.body).toBe(201);
    return { ws, n, cls, classId: res.json().data.id as number };
  }
  const variantsOf = (ws: Workspace) =>
    q<{ item_sku_code: string; variant_name: string; mrp: string; sp: string; product_name: string; status: number }>(
      'select v.item_sku_code, v.variant_name, v.mrp, v.sp, p.name as product_name, v.status from product_variant v join product p on p.id = v.product_id and p.organization_id = v.organization_id where v.organization_id = $1 order by v.item_sku_code',
      [ws.organizationId],
    );

  it('imports a CSV: creates the missing product, inserts the variants, and a re-upload changes nothing', async () => {
    const { ws, n, cls } = await world();
    const file = csv([
      HEADER,
      [`Toned ${n}`, cls, '0401', 'Toned 500 ml', `T5-${n}`, 30, 28.5, '500 ml', 1, 12, 0.5, 1],
      [`toned ${n}`, '', '', 'Toned 1 l', `T1-${n}`, 58, 55, '1 l', 1, 6, 1, ''],
    ]);
    const res = await upload(t, 'product-variants', 'variants.csv', file, { token: ws.token });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ kind: 'product-variants', status: 'succeeded', total_rows: 2, valid_rows: 2, failed_rows: 0, inserted: 2, updated: 0, unchanged: 0, dry_run: false, errors: [] });
    expect(data.file_sha256).toMatch(/^[0-9a-f]{64}$/);
    const stored = await variantsOf(ws);
    expect(stored.map((v) => [v.item_sku_code, v.product_name, Number(v.sp)])).toEqual([[`T1-${n}`, `Toned ${n}`, 55], [`T5-${n}`, `Toned ${n}`, 28.5]]);

    const again = await upload(t, 'product-variants', 'variants.csv', file, { token: ws.token });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 2 });
    const products = await q<{ n: number }>('select count(*)::int as n from product where organization_id = $1', [ws.organizationId]);
    expect(products[0].n).toBe(1);

    const got = await t.request({ method: 'GET', url: `/api/v1/imports/${data.id}`, token: ws.token });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({ id: data.id, status: 'succeeded', processed_rows: 2 });
  });

  it('imports an XLSX, updates a changed SKU and counts the rest unchanged', async () => {
    const { ws, n, cls, classId } = await world();
    await createProduct(t, ws, { product_name: `Curd ${n}`, product_class_id: classId, variants: [{ variant_name: 'Curd 200 g', item_sku_code: `C2-${n}`, mrp: 20, sp: 18 }] });
    const file = await xlsx([
      HEADER,
      [`Curd ${n}`, '', '', 'Curd 200 g', `C2-${n}`, 22, 19, '', null, null, null, null],
      [`Curd ${n}`, '', '', 'Curd 400 g', `C4-${n}`, 40, 36, '400 g', 1, 1, 1, 1],
      [`Paneer ${n}`, cls, '', 'Paneer 200 g', `P2-${n}`, 90, 85, '', 1, 1, 1, 0],
    ]);
    const res = await upload(t, 'product-variants', 'variants.xlsx', file, { token: ws.token });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ status: 'succeeded', file_format: 'xlsx', inserted: 2, updated: 1, unchanged: 0 });
    const stored = await variantsOf(ws);
    expect(stored.find((v) => v.item_sku_code === `C2-${n}`)).toMatchObject({ mrp: '22.00', sp: '19.00' });
    expect(stored.find((v) => v.item_sku_code === `P2-${n}`)).toMatchObject({ product_name: `Paneer ${n}`, status: 0 });
  });

  it('a dry run reports inserts, updates and unchanged rows and writes nothing', async () => {
    const { ws, n, cls, classId } = await world();
    await createProduct(t, ws, { product_name: `Ghee ${n}`, product_class_id: classId, variants: [{ variant_name: 'Ghee 1 l', item_sku_code: `G1-${n}`, mrp: 600, sp: 550 }, { variant_name: 'Ghee 500 ml', item_sku_code: `G5-${n}`, mrp: 300, sp: 280 }] });
    const file = csv([HEADER, [`Ghee ${n}`, '', '', 'Ghee 1 l', `G1-${n}`, 600, 540, '', '', '', '', ''], [`Ghee ${n}`, '', '', 'Ghee 500 ml', `G5-${n}`, 300, 280, '', '', '', '', ''], [`Ghee ${n}`, cls, '', 'Ghee 200 ml', `G2-${n}`, 130, 120, '', '', '', '', '']]);
    const before = await variantsOf(ws);
    const res = await upload(t, 'product-variants', 'ghee.csv', file, { token: ws.token, query: 'dry_run=true' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ dry_run: true, status: 'succeeded', inserted: 1, updated: 1, unchanged: 1 });
    expect(await variantsOf(ws)).toEqual(before);
  });

  it('one bad row: nothing is written, and the failed rows CSV names row, field and message with the original values', async () => {
    const { ws, n, cls } = await world();
    const file = csv([
      HEADER,
      [`Butter ${n}`, cls, '', 'Butter 100 g', `B1-${n}`, 50, 45, '', '', '', '', ''],
      [`Butter ${n}`, cls, '', 'Butter 500 g', `B5-${n}`, 200, 250, '', '', '', '', ''],
      [`Butter ${n}`, cls, '', 'Butter 1 kg', `B1-${n}`, 'lots', 400, '', '', '', '', ''],
      [`Cheese ${n}`, 'No such class', '', 'Cheese', `CH-${n}`, 100, 90, '', '', '', '', ''],
    ]);
    const res = await upload(t, 'product-variants', 'butter.csv', file, { token: ws.token });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'failed', total_rows: 4, failed_rows: 3, valid_rows: 1, inserted: 0, updated: 0, unchanged: 0, failed_rows_url: `/imports/${data.id}/failed-rows.csv` });
    expect(data.errors).toEqual([
      { row: 3, field: 'sp', message: 'must not exceed mrp' },
      { row: 4, field: 'mrp', message: 'must be a number' },
      { row: 5, field: 'product_class', message: 'does not name a product class of this workspace' },
    ]);
    expect(await variantsOf(ws)).toEqual([]);

    const failed = await t.request({ method: 'GET', url: `/api/v1${data.failed_rows_url}`, token: ws.token });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.headers['content-type']).toContain('text/csv');
    const lines = failed.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe([...HEADER, 'error'].join(','));
    expect(lines[1]).toBe(`Butter ${n},${cls},,Butter 500 g,B5-${n},200,250,,,,,,sp: must not exceed mrp`);
    expect(lines).toHaveLength(4);
  });

  it('a dry run with a failing row lists it and counts what the valid rows would do', async () => {
    const { ws, n, cls } = await world();
    const file = csv([HEADER, [`Kulfi ${n}`, cls, '', 'Kulfi', `K1-${n}`, 20, 18, '', '', '', '', ''], [`Kulfi ${n}`, cls, '', 'Kulfi big', `K2-${n}`, 20, 18, '', 0, '', '', '']]);
    const res = await upload(t, 'product-variants', 'kulfi.csv', file, { token: ws.token, query: 'dry_run=true' });
    expect(res.json().data).toMatchObject({ dry_run: true, status: 'failed', inserted: 1, failed_rows: 1, error: null, errors: [{ row: 3, field: 'variant_quantity', message: 'must be an integer from 1 to 1000000' }] });
    expect(await variantsOf(ws)).toEqual([]);
  });

  it('partial=true writes the valid rows and lists the failed ones', async () => {
    const { ws, n, cls } = await world();
    const file = csv([HEADER, [`Lassi ${n}`, cls, '', 'Lassi', `L1-${n}`, 20, 18, '', '', '', '', ''], [`Lassi ${n}`, cls, '', 'Lassi big', `L2-${n}`, 20, 30, '', '', '', '', '']]);
    const res = await upload(t, 'product-variants', 'lassi.csv', file, { token: ws.token, query: 'partial=true' });
    expect(res.json().data).toMatchObject({ status: 'partial', inserted: 1, failed_rows: 1 });
    expect((await variantsOf(ws)).map((v) => v.item_sku_code)).toEqual([`L1-${n}`]);
  });

  it('a repeated SKU within the file, and a SKU of another product, fail', async () => {
    const { ws, n, cls, classId } = await world();
    await createProduct(t, ws, { product_name: `Whey ${n}`, product_class_id: classId, variants: [{ variant_name: 'Whey', item_sku_code: `W-${n}`, mrp: 10, sp: 9 }] });
    const file = csv([HEADER, [`Milk ${n}`, cls, '', 'M', `M-${n}`, 10, 9, '', '', '', '', ''], [`Milk ${n}`, cls, '', 'M again', `M-${n}`, 10, 9, '', '', '', '', ''], [`Milk ${n}`, cls, '', 'W', `W-${n}`, 10, 9, '', '', '', '', '']]);
    const res = await upload(t, 'product-variants', 'dups.csv', file, { token: ws.token });
    expect(res.json().data.errors).toEqual([
      { row: 3, field: 'item_sku_code', message: `repeats M-${n} of row 2` },
      { row: 4, field: 'product_name', message: `item_sku_code W-${n} belongs to product "Whey ${n}": an import does not move a variant to another product` },
    ]);
  });

  it('400s name the field: no file, a wrong field, a missing column, an unknown format, too many rows, too many bytes', async () => {
    const { ws, n, cls } = await world();
    const noFile = await t.request({ method: 'POST', url: '/api/v1/imports/product-variants', token: ws.token, payload: { x: 1 } });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toMatch(/^file /);
    const wrongField = await upload(t, 'product-variants', 'a.csv', csv([HEADER]), { token: ws.token, field: 'upload' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toMatch(/^file /);
    const missing = await upload(t, 'product-variants', 'a.csv', csv([['product_name', 'variant_name'], ['x', 'y']]), { token: ws.token });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('file misses the columns item_sku_code, mrp, sp (GET /imports/templates/product-variants has every column)');
    const empty = await upload(t, 'product-variants', 'a.csv', csv([HEADER]), { token: ws.token });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('file has no data rows under its header row');
    const format = await upload(t, 'product-variants', 'a.txt', 'x', { token: ws.token });
    expect(format.statusCode).toBe(400);
    expect(format.json().message).toBe('file must be a .csv or .xlsx file');
    const rows: Array<Array<string | number>> = [HEADER];
    for (let i = 0; i <= 50_000; i++) rows.push([`P ${n}`, cls, '', 'V', `S${i}`, 2, 1, '', '', '', '', '']);
    const many = await upload(t, 'product-variants', 'many.csv', csv(rows), { token: ws.token });
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toMatch(/^file has more than 50000 data rows/);
    const big = await upload(t, 'product-variants', 'big.csv', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), { token: ws.token });
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/^file must be at most 10485760 bytes/);
    const imports = await q<{ n: number }>('select count(*)::int as n from import_job where organization_id = $1', [ws.organizationId]);
    expect(imports[0].n).toBe(0);
  });

  it('admins and keys with the imports scope only; another workspace’s import is not found', async () => {
    const { ws, n, cls } = await world();
    const file = csv([HEADER, [`Tea ${n}`, cls, '', 'Tea', `TEA-${n}`, 10, 9, '', '', '', '', '']]);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expect((await upload(t, 'product-variants', 'a.csv', file, { token: employee.token })).statusCode).toBe(403);
    const other = await createApiKey(t, ws, { scopes: 'read,write,products' });
    expect((await upload(t, 'product-variants', 'a.csv', file, { apiKey: other.key })).statusCode).toBe(403);
    const readOnly = await createApiKey(t, ws, { scopes: 'read,imports' });
    expect((await upload(t, 'product-variants', 'a.csv', file, { apiKey: readOnly.key })).statusCode).toBe(403);
    const key = await createApiKey(t, ws, { scopes: 'read,write,imports' });
    const res = await upload(t, 'product-variants', 'a.csv', file, { apiKey: key.key });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id;
    expect(res.json().data.created_by_api_key_id).toBe(key.id);
    const list = await t.request({ method: 'GET', url: '/api/v1/imports?kind=product-variants', apiKey: key.key });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((i: { id: number }) => i.id)).toEqual([id]);

    const B = await createWorkspace(t);
    expect((await t.request({ method: 'GET', url: `/api/v1/imports/${id}`, token: B.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/imports/${id}/failed-rows.csv`, token: B.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/v1/imports', token: B.token })).json().data).toEqual([]);
  });

  it('the template is an XLSX with the header and an example row that imports as it stands', async () => {
    const { ws } = await world();
    const res = await t.request({ method: 'GET', url: '/api/v1/imports/templates/product-variants', token: ws.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="product-variants-template.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect(sheet.getRow(2).getCell(5).value).toBe('TM-500');
    const unknown = await t.request({ method: 'GET', url: '/api/v1/imports/templates/nope', token: ws.token });
    expect(unknown.statusCode).toBe(404);
  });
});

import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** GET /exports/products (and startExport PRODUCTS): a price list, one row per variant, through the export machinery. */
describe('GET /api/v1/exports/products', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  let otherClassId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    const cls = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: 'Curd', unit: 'kg' } });
    otherClassId = cls.json().data.id;
    const curd = await createProduct(t, ws, { product_name: 'Alpha Curd', product_class_id: otherClassId, variants: [{ variant_name: '400 g', item_sku_code: 'CURD-400', mrp: 40, sp: 36 }] });
    const off = await t.request({ method: 'PUT', url: `/api/v1/products/${curd.id}`, token: ws.token, payload: { status: 0 } });
    expect(off.statusCode, off.body).toBe(200);
  });
  afterAll(() => t.close());

  const get = async (query: string, apiKey: string) => t.request({ method: 'GET', url: `/api/v1/exports/products${query}`, apiKey });

  it('lists every variant with its product, class and prices, by product name; filters by status and class', async () => {
    const key = (await createApiKey(t, ws, { scopes: 'read,exports' })).key;
    const res = await get('', key);
    expect(res.statusCode, res.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const values = (row: number) => Array.from({ length: 11 }, (_, i) => sheet.getRow(row).getCell(i + 1).value ?? null);
    expect(values(1)).toEqual(['Product', 'Class', 'HSN', 'Variant', 'SKU', 'In class unit', 'Unit', 'MRP', 'Selling price', 'Product status', 'Variant status']);
    expect(values(2)).toEqual(['Alpha Curd', 'Curd', null, '400 g', 'CURD-400', 1, 'kg', 40, 36, 'Inactive', 'Active']);
    expect(values(3).slice(3, 11)).toEqual(['500 ml', expect.stringMatching(/^TM-500-/), 1, 'litre', 30, 28.5, 'Active', 'Active']);
    expect(sheet.rowCount).toBe(4);

    const active = parse((await get('?status=1&format=csv', key)).body.replace(/^\uFEFF/, '')) as string[][];
    expect(active.slice(1).map((r) => r[3])).toEqual(['500 ml', '1 l']);
    const curd = parse((await get(`?product_class_id=${otherClassId}&format=csv`, key)).body.replace(/^\uFEFF/, '')) as string[][];
    expect(curd.slice(1).map((r) => r[4])).toEqual(['CURD-400']);
  });

  it('400 naming the filter; customers and employees 403; keys need the exports scope; another workspace’s class is refused', async () => {
    const key = (await createApiKey(t, ws, { scopes: 'read,exports' })).key;
    for (const [query, field] of [
      ['?status=3', 'status'],
      ['?product_class_id=0', 'product_class_id'],
      ['?product_class_id=99999999', 'product_class_id'],
    ]) {
      const res = await get(query, key);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().errors[0].field).toBe(field);
    }
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expect((await t.request({ method: 'GET', url: '/api/v1/exports/products', token: employee.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/exports/products', token: catalog.distributorToken })).statusCode).toBe(403);
    const productsOnly = (await createApiKey(t, ws, { scopes: 'read,products' })).key;
    expect((await get('', productsOnly)).statusCode).toBe(403);
    const other = await createWorkspace(t);
    const res = await t.request({ method: 'GET', url: `/api/v1/exports/products?product_class_id=${catalog.productClassId}`, token: other.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('product_class_id');
  });
});

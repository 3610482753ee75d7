import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { errorEnvelope } from '../helpers/envelope';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Products and variants after create: read one, change it, add and change variants; prices and status over orders. */
describe('REST product and variant edits', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let cat: Catalog;
  let otherCat: Catalog;
  let employeeToken: string;

  const req = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>, token = ws.token) =>
    t.request({ method, url: `/api/v1${url}`, token, payload });
  const snapshot = async (id = cat.productId) => (await req('GET', `/products/${id}`)).json().data;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    otherCat = await seedCatalog(t, other);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
  });
  afterAll(() => t.close());

  describe('GET /products/{id}', () => {
    it('answers the product as the list shows it; another workspace’s id → 404', async () => {
      const res = await req('GET', `/products/${cat.productId}`);
      expect(res.statusCode, res.body).toBe(200);
      const list = (await req('GET', '/products?limit=100')).json().data;
      expect(res.json()).toEqual({ response_code: 200, data: list.find((p: { id: number }) => p.id === cat.productId) });
      expect((await req('GET', `/products/${otherCat.productId}`)).statusCode).toBe(404);
      expect((await req('GET', '/products/999999999')).statusCode).toBe(404);
    });
  });

  describe('PUT /products/{id}', () => {
    it('changes the given fields, keeps the others; image null removes it', async () => {
      const n = unique();
      const cls = await req('POST', '/masters/product-classes', { product_class: `Curd ${n}`, unit: 'kg' });
      const res = await req('PUT', `/products/${cat.productId}`, {
        product_name: `Renamed ${n}`,
        product_class_id: cls.json().data.id,
        product_hsn: '04031000',
        product_color_code: '#AABBCC',
        product_description: 'Now set',
        product_image: 'https://cdn.example.test/p.png',
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        response_code: 200,
        message: 'Product updated',
        data: {
          id: cat.productId,
          product_name: `Renamed ${n}`,
          product_class_id: cls.json().data.id,
          product_hsn: '04031000',
          product_color_code: '#AABBCC',
          product_description: 'Now set',
          product_image: 'https://cdn.example.test/p.png',
          status: 1,
          ProductClass: { id: cls.json().data.id, product_class: `Curd ${n}` },
        },
      });
      expect(body.data.ProductVariants).toHaveLength(2);
      const cleared = await req('PUT', `/products/${cat.productId}`, { product_image: null });
      expect(cleared.json().data).toMatchObject({ product_image: null, product_name: `Renamed ${n}`, product_hsn: '04031000' });
      expect(await snapshot()).toEqual(cleared.json().data);
    });

    it.each([
      ['blank product_name', { product_name: '   ' }, /^product_name /],
      ['bad product_hsn', { product_hsn: '12' }, /^product_hsn must be 4 to 8 digits$/],
      ['bad product_color_code', { product_color_code: 'red' }, /^product_color_code /],
      ['bad product_image', { product_image: 'ftp://x' }, /^product_image /],
      ['bad status', { status: 2 }, /status/],
    ])('%s → 400 naming the field, nothing changed', async (_name, body, message) => {
      const before = await snapshot();
      const res = await req('PUT', `/products/${cat.productId}`, { product_name: 'Would change', ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
      expect(await snapshot()).toEqual(before);
    });

    it('a class of another workspace → 400 naming product_class_id, nothing changed', async () => {
      const before = await snapshot();
      const res = await req('PUT', `/products/${cat.productId}`, { product_name: 'Would change', product_class_id: otherCat.productClassId });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^product_class_id /)));
      expect(await snapshot()).toEqual(before);
    });

    it('another workspace’s product → 404; employees → 403; nothing changed', async () => {
      expect((await req('PUT', `/products/${otherCat.productId}`, { product_name: 'x' })).statusCode).toBe(404);
      const before = await snapshot();
      const res = await req('PUT', `/products/${cat.productId}`, { product_name: 'x' }, employeeToken);
      expect(res.statusCode, res.body).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('variants', () => {
    it('POST /products/{id}/variants adds one (201); a used SKU → 409; bad fields → 400 naming them', async () => {
      const sku = `ADD-${unique()}`;
      const res = await req('POST', `/products/${cat.productId}/variants`, { variant_name: '2 l', item_sku_code: sku, mrp: 110, sp: 105, unit_quantity: 2 });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        response_code: 201,
        message: 'Variant created',
        data: { id: expect.any(Number), variant_name: '2 l', item_sku_code: sku, mrp: 110, sp: 105, variant_size: '', variant_quantity: 1, container_quantity: 1, unit_quantity: 2, status: 1 },
      });
      expect((await snapshot()).ProductVariants.map((v: { id: number }) => v.id)).toContain(res.json().data.id);

      const before = await snapshot();
      const dup = await req('POST', `/products/${cat.productId}/variants`, { variant_name: 'x', item_sku_code: sku, mrp: 1, sp: 1 });
      expect(dup.statusCode, dup.body).toBe(409);
      expect(dup.json()).toEqual({ response_code: 409, message: expect.stringContaining(sku) });
      const bad = await req('POST', `/products/${cat.productId}/variants`, { variant_name: 'x', item_sku_code: `B-${unique()}`, mrp: 1, sp: 2 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual(errorEnvelope(400, 'sp must not exceed mrp'));
      expect((await req('POST', `/products/${otherCat.productId}/variants`, { variant_name: 'x', item_sku_code: `C-${unique()}`, mrp: 1, sp: 1 })).statusCode).toBe(404);
      expect((await req('POST', `/products/${cat.productId}/variants`, { variant_name: 'x', item_sku_code: `D-${unique()}`, mrp: 1, sp: 1 }, employeeToken)).statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('PUT /products/{id}/variants/{variantId} changes the given fields; SKU stays unique (409); sp ≤ mrp either way (400)', async () => {
      const [first, second] = cat.variantIds;
      const res = await req('PUT', `/products/${cat.productId}/variants/${first}`, { variant_name: 'Half litre', variant_size: '500ml' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ response_code: 200, message: 'Variant updated', data: { id: first, variant_name: 'Half litre', variant_size: '500ml', mrp: 30, sp: 28.5, status: 1 } });
      // Its own SKU is no conflict.
      const own = res.json().data.item_sku_code;
      expect((await req('PUT', `/products/${cat.productId}/variants/${first}`, { item_sku_code: own })).statusCode).toBe(200);

      const before = await snapshot();
      const secondSku = before.ProductVariants.find((v: { id: number }) => v.id === second).item_sku_code;
      const dup = await req('PUT', `/products/${cat.productId}/variants/${first}`, { item_sku_code: secondSku, variant_name: 'x' });
      expect(dup.statusCode, dup.body).toBe(409);
      expect(dup.json()).toEqual({ response_code: 409, message: expect.stringContaining(secondSku) });
      const overMrp = await req('PUT', `/products/${cat.productId}/variants/${first}`, { sp: 31 });
      expect(overMrp.json()).toEqual(errorEnvelope(400, 'sp must not exceed mrp'));
      const underSp = await req('PUT', `/products/${cat.productId}/variants/${first}`, { mrp: 20 });
      expect(underSp.json()).toEqual(errorEnvelope(400, 'sp must not exceed mrp'));
      const badCount = await req('PUT', `/products/${cat.productId}/variants/${first}`, { unit_quantity: 0.0001 });
      expect(badCount.statusCode).toBe(400);
      expect(badCount.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^unit_quantity /)));
      // A variant of another product, or of another workspace → 404.
      expect((await req('PUT', `/products/${otherCat.productId}/variants/${first}`, { variant_name: 'x' })).statusCode).toBe(404);
      expect((await req('PUT', `/products/${otherCat.productId}/variants/${otherCat.variantIds[0]}`, { variant_name: 'x' })).statusCode).toBe(404);
      expect((await req('PUT', `/products/${cat.productId}/variants/${first}`, { variant_name: 'x' }, employeeToken)).statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('prices and status over orders', () => {
    const order = (variantId: number, quantity = 2) => ({ user_id: cat.distributorId, items: [{ product_variant_id: variantId, quantity }] });

    it('a new price applies to new orders only: an order keeps its lines and total', async () => {
      const { variantIds } = await seedCatalog(t, ws);
      const placed = await placeOrder(t, ws.token, order(variantIds[1]));
      const before = (await req('GET', `/orders/${placed.id}`)).json().data;
      expect(before).toMatchObject({ order_total_amount: 110, items: [{ unit_price: 55, amount: 110 }] });

      const productId = (await req('GET', '/products?limit=100')).json().data.find((p: { ProductVariants: Array<{ id: number }> }) => p.ProductVariants.some((v) => v.id === variantIds[1])).id;
      const res = await req('PUT', `/products/${productId}/variants/${variantIds[1]}`, { mrp: 70, sp: 60.25 });
      expect(res.statusCode, res.body).toBe(200);

      expect((await req('GET', `/orders/${placed.id}`)).json().data).toEqual(before);
      const next = await placeOrder(t, ws.token, order(variantIds[1]));
      expect((await req('GET', `/orders/${next.id}`)).json().data).toMatchObject({ order_total_amount: 120.5, items: [{ unit_price: 60.25, amount: 120.5 }] });
    });

    it('an inactive variant or product cannot be ordered (400 naming the line); old orders still show it', async () => {
      const c = await seedCatalog(t, ws);
      const placed = await placeOrder(t, ws.token, order(c.variantIds[0]));
      const before = (await req('GET', `/orders/${placed.id}`)).json().data;
      const two = { user_id: cat.distributorId, items: [{ product_variant_id: c.variantIds[1], quantity: 1 }, { product_variant_id: c.variantIds[0], quantity: 1 }] };

      expect((await req('PUT', `/products/${c.productId}/variants/${c.variantIds[0]}`, { status: 0 })).json().data.status).toBe(0);
      const refused = await req('POST', '/orders', two);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^items\[1\]\.product_variant_id /)));
      expect((await req('GET', `/orders/${placed.id}`)).json().data).toEqual(before);

      expect((await req('PUT', `/products/${c.productId}/variants/${c.variantIds[0]}`, { status: 1 })).json().data.status).toBe(1);
      expect((await req('PUT', `/products/${c.productId}`, { status: 0 })).json().data.status).toBe(0);
      const refusedProduct = await req('POST', '/orders', two);
      expect(refusedProduct.statusCode).toBe(400);
      expect(refusedProduct.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^items\[0\]\.product_variant_id /)));
      expect((await req('GET', `/orders/${placed.id}`)).json().data).toEqual(before);
      expect((await req('GET', `/products?status=0&limit=100`)).json().data.map((p: { id: number }) => p.id)).toContain(c.productId);

      // The sales export still lists the inactive product's line.
      const sku = before.items[0].item_sku_code;
      const file = await t.request({ method: 'GET', url: '/api/v1/exports/sales', token: ws.token });
      expect(file.statusCode, file.body.slice(0, 200)).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const cells: unknown[] = [];
      workbook.worksheets[0].eachRow((row) => cells.push(...(row.values as unknown[])));
      expect(cells).toContain(sku);

      expect((await req('PUT', `/products/${c.productId}`, { status: 1 })).statusCode).toBe(200);
      await placeOrder(t, ws.token, two);
    });
  });

  describe('GET /products?product_class_id', () => {
    it('lists the products of that class only; another workspace’s class → 400 naming it', async () => {
      const c = await seedCatalog(t, ws);
      const res = await req('GET', `/products?product_class_id=${c.productClassId}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.map((p: { id: number }) => p.id)).toEqual([c.productId]);
      expect(res.json().pagination.total).toBe(1);
      const bad = await req('GET', `/products?product_class_id=${otherCat.productClassId}`);
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^product_class_id /)));
    });
  });
});

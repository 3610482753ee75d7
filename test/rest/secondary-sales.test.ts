import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { checkInBody } from '../helpers/visit-fixtures';

/** Secondary sales: a distributor's invoices to retailers, idempotent by client_ref; the sell-in vs sell-out view; the export. */
describe('secondary sales', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  type Who = { token?: string; apiKey?: string };
  let distributor: Who & { id: number };
  let distributor2: Who & { id: number };
  let retailer: Who & { id: number };
  let retailer2: Who & { id: number };
  let employee: Who & { id: number };
  let employee2: Who & { id: number };
  let routeId: number;
  let outletId: number;
  let otherOutletId: number;
  let schemeId: number;
  const today = () => new Date().toISOString().slice(0, 10);
  const as = ({ token, apiKey }: Who) => (apiKey ? { apiKey } : { token });
  const req = (who: Who, method: 'GET' | 'POST', url: string, payload?: object) => t.request({ method, url: `/api/v1${url}`, ...as(who), ...(payload ? { payload } : {}) });
  const admin = () => ({ token: ws.token });
  const body = (extra: object = {}) => ({
    client_ref: `ref-${unique()}`,
    retailer_id: retailer.id,
    invoice_no: `INV-${unique()}`,
    invoice_date: today(),
    items: [
      { product_variant_id: cat.variantIds[0], quantity: 10, free_quantity: 1, rate: 27.5, discount_amount: 5, scheme_id: schemeId },
      { product_variant_id: cat.variantIds[1], quantity: 2, rate: 52.25 },
    ],
    ...extra,
  });
  const record = async (who: Who, extra: object = {}) => {
    const res = await req(who, 'POST', '/secondary-sales', body(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const count = async () => {
    const [row] = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from secondary_sale where organization_id = ?', [ws.organizationId]);
    return row.n;
  };
  const post = (path: string, payload: object) => req(admin(), 'POST', path, payload).then((r) => {
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data.id as number;
  });

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    distributor = { id: cat.distributorId, token: cat.distributorToken };
    distributor2 = await createUser(t, ws, UserType.DISTRIBUTOR);
    const n = unique();
    const town = await post('/masters/towns', { town_name: `Town ${n}` });
    routeId = await post('/masters/routes', { route_name: `Route ${n}`, town_id: town });
    const otherRoute = await post('/masters/routes', { route_name: `Route ${n}b`, town_id: town });
    outletId = await post('/masters/outlets', { outlet_name: `Outlet ${n}`, town_id: town, route_id: routeId, phone: '9876543210' });
    otherOutletId = await post('/masters/outlets', { outlet_name: `Outlet ${n}b`, town_id: town, route_id: otherRoute, phone: '9876543210' });
    retailer = await createUser(t, ws, UserType.RETAILER, { town_id: town, route_id: routeId });
    retailer2 = await createUser(t, ws, UserType.RETAILER);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    employee2 = await createUser(t, ws, UserType.EMPLOYEE);
    schemeId = await post('/schemes', {
      name: 'Ten plus one', code: `S${unique()}`, kind: 1, target_kind: 1, target_id: cat.variantIds[0], valid_from: '2026-01-01', slabs: [{ min_qty: 10, discount_percent: 2 }],
    });
  });
  afterAll(() => t.close());

  it('records a distributor’s invoice with totals computed per line and on the sale', async () => {
    const payload = body();
    const res = await req(distributor, 'POST', '/secondary-sales', payload);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      response_code: 201,
      message: 'Secondary sale recorded',
      data: {
        id: expect.any(Number),
        client_ref: payload.client_ref,
        distributor_id: distributor.id,
        retailer_id: retailer.id,
        invoice_no: payload.invoice_no,
        invoice_date: today(),
        source: 1,
        booked_by_user_id: distributor.id,
        visit_id: null,
        items_count: 2,
        gross_amount: 379.5, // 10 × 27.50 + 2 × 52.25
        scheme_discount: 5,
        net_amount: 374.5,
        created_at: expect.any(String),
        items: [
          { product_variant_id: cat.variantIds[0], quantity: 10, free_quantity: 1, rate: 27.5, discount_amount: 5, amount: 270, scheme_id: schemeId },
          { product_variant_id: cat.variantIds[1], quantity: 2, free_quantity: 0, rate: 52.25, discount_amount: 0, amount: 104.5, scheme_id: null },
        ],
      },
    });
    const read = await req(admin(), 'GET', `/secondary-sales/${res.json().data.id}`);
    expect(read.json().data).toEqual(res.json().data);
  });

  it('answers a re-send with the same client_ref as the same sale (200), and 409s a different body or a repeated invoice number', async () => {
    const payload = body();
    const first = await req(distributor, 'POST', '/secondary-sales', payload);
    expect(first.statusCode, first.body).toBe(201);
    const before = await count();
    const again = await req(distributor, 'POST', '/secondary-sales', payload);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toBe('Secondary sale already recorded with this client_ref');
    expect(again.json().data).toEqual(first.json().data);
    // Staff re-sending the distributor's sale under the same client_ref: the same sale too.
    const byStaff = await req(admin(), 'POST', '/secondary-sales', { ...payload, distributor_id: distributor.id });
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect(byStaff.json().data.id).toBe(first.json().data.id);
    const changed = await req(distributor, 'POST', '/secondary-sales', { ...payload, items: [{ product_variant_id: cat.variantIds[0], quantity: 11, rate: 27.5 }] });
    expect(changed.statusCode, changed.body).toBe(409);
    const sameInvoice = await req(distributor, 'POST', '/secondary-sales', { ...payload, client_ref: `ref-${unique()}` });
    expect(sameInvoice.statusCode, sameInvoice.body).toBe(409);
    expect(sameInvoice.json().message).toMatch(/already recorded/);
    // Another distributor may use the same invoice number and the same client_ref.
    const other = await req(distributor2, 'POST', '/secondary-sales', payload);
    expect(other.statusCode, other.body).toBe(201);
    expect(other.json().data.distributor_id).toBe(distributor2.id);
    expect(await count()).toBe(before + 1);
  });

  it('writes one sale when the same send arrives twice at once', async () => {
    const payload = body();
    const before = await count();
    const answers = await Promise.all([req(distributor, 'POST', '/secondary-sales', payload), req(distributor, 'POST', '/secondary-sales', payload)]);
    expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join('\n')).toEqual([200, 201]);
    expect(answers[0].json().data.id).toBe(answers[1].json().data.id);
    expect(await count()).toBe(before + 1);
  });

  it('refuses bad input with a 400 naming the field, writing nothing', async () => {
    const before = await count();
    const line = { product_variant_id: cat.variantIds[0], quantity: 1, rate: 10 };
    const cases: Array<[Who, object, string]> = [
      [distributor, { retailer_id: distributor2.id }, 'retailer_id'],
      [distributor, { retailer_id: 999999 }, 'retailer_id'],
      [distributor, { invoice_no: '' }, 'invoice_no'],
      [distributor, { invoice_date: '2026-02-30' }, 'invoice_date'],
      [distributor, { invoice_date: shiftDay(today(), 2) }, 'invoice_date'],
      [distributor, { items: [] }, 'items'],
      [distributor, { items: [{ ...line, product_variant_id: 999999 }] }, 'items[0].product_variant_id'],
      [distributor, { items: [line, line] }, 'items[1].product_variant_id'],
      [distributor, { items: [{ ...line, quantity: 0 }] }, 'items[0].quantity'],
      [distributor, { items: [{ ...line, quantity: 1.5 }] }, 'items[0].quantity'],
      [distributor, { items: [{ ...line, free_quantity: -1 }] }, 'items[0].free_quantity'],
      [distributor, { items: [{ ...line, rate: -1 }] }, 'items[0].rate'],
      [distributor, { items: [{ ...line, rate: 1.234 }] }, 'items[0].rate'],
      [distributor, { items: [{ ...line, discount_amount: 10.01 }] }, 'items[0].discount_amount'],
      [distributor, { items: [{ ...line, scheme_id: 999999 }] }, 'items[0].scheme_id'],
      [distributor, { distributor_id: distributor2.id }, 'distributor_id'],
      [distributor, { visit_id: 1 }, 'visit_id'],
      [admin(), {}, 'distributor_id'],
      [admin(), { distributor_id: retailer.id }, 'distributor_id'],
    ];
    for (const [who, extra, field] of cases) {
      const res = await req(who, 'POST', '/secondary-sales', body(extra));
      expect(res.statusCode, `${JSON.stringify(extra)}: ${res.body}`).toBe(400);
      expect(res.json().errors[0].field, JSON.stringify(extra)).toBe(field);
    }
    const bad = await req(admin(), 'GET', `/secondary-sales?date_from=${today()}&date_to=${shiftDay(today(), -1)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('date_from');
    expect(await count()).toBe(before);
  });

  it('lets a field employee book with their visit at the retailer, and refuses another’s visit or one elsewhere', async () => {
    const visit = await req(employee, 'POST', '/visits/check-in', checkInBody(outletId));
    expect(visit.statusCode, visit.body).toBe(201);
    const visitId = visit.json().data.id;
    const sale = await record(employee, { distributor_id: distributor.id, visit_id: visitId });
    expect(sale).toMatchObject({ source: 2, booked_by_user_id: employee.id, visit_id: visitId, distributor_id: distributor.id });

    const notTheirs = await req(employee2, 'POST', '/secondary-sales', body({ distributor_id: distributor.id, visit_id: visitId }));
    expect(notTheirs.statusCode, notTheirs.body).toBe(400);
    expect(notTheirs.json().errors[0].field).toBe('visit_id');
    const elsewhere = await req(employee2, 'POST', '/visits/check-in', checkInBody(otherOutletId));
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    const wrongRetailer = await req(employee2, 'POST', '/secondary-sales', body({ distributor_id: distributor.id, visit_id: elsewhere.json().data.id }));
    expect(wrongRetailer.statusCode, wrongRetailer.body).toBe(400);
    expect(wrongRetailer.json().message).toMatch(/^visit_id .*route/);
  });

  it('confines distributors to their own sales and retailers to the sales to them; retailers may not record', async () => {
    const mine = await record(distributor2, { retailer_id: retailer2.id });
    expect((await req(retailer, 'POST', '/secondary-sales', body({ distributor_id: distributor.id }))).statusCode).toBe(403);

    const ofDistributor = (await req(distributor, 'GET', '/secondary-sales?limit=100')).json();
    expect(ofDistributor.data.length).toBeGreaterThan(0);
    expect(ofDistributor.data.every((s: { distributor_id: number }) => s.distributor_id === distributor.id)).toBe(true);
    expect((await req(distributor, 'GET', `/secondary-sales/${mine.id}`)).statusCode).toBe(404);
    // A distributor's filter on another distributor finds nothing of theirs.
    expect((await req(distributor, 'GET', `/secondary-sales?distributor_id=${distributor2.id}`)).json().pagination.total).toBe(0);

    const toRetailer2 = (await req(retailer2, 'GET', '/secondary-sales')).json();
    expect(toRetailer2.data.map((s: { id: number }) => s.id)).toEqual([mine.id]);
    expect((await req(retailer2, 'GET', `/secondary-sales/${mine.id}`)).statusCode).toBe(200);
    expect((await req(retailer, 'GET', `/secondary-sales/${mine.id}`)).statusCode).toBe(404);
    expect((await req(retailer, 'GET', '/secondary-sales/stock')).statusCode).toBe(403);
  });

  it('lists with filters, search by invoice number and sort', async () => {
    const old = await record(distributor, { invoice_no: `OLD-${unique()}`, invoice_date: shiftDay(today(), -10) });
    const list = async (q: string) => (await req(admin(), 'GET', `/secondary-sales?${q}`)).json();
    expect((await list(`search=${old.invoice_no}`)).data.map((s: { id: number }) => s.id)).toEqual([old.id]);
    const ranged = await list(`date_from=${shiftDay(today(), -11)}&date_to=${shiftDay(today(), -9)}`);
    expect(ranged.data.map((s: { id: number }) => s.id)).toEqual([old.id]);
    const byRetailer = await list(`retailer_id=${retailer2.id}`);
    expect(byRetailer.data.every((s: { retailer_id: number }) => s.retailer_id === retailer2.id)).toBe(true);
    const all = await list('sort=invoice_date&limit=100');
    expect(all.data[0].id).toBe(old.id);
    expect(all.pagination).toMatchObject({ page: 1, limit: 100, total: all.data.length });
    expect((await req(admin(), 'GET', '/secondary-sales?sort=bogus')).statusCode).toBe(400);
  });

  it('takes API keys with the secondary_sales scope, which must name the distributor', async () => {
    const key = (await createApiKey(t, ws, { scopes: 'secondary_sales,write' })).key;
    const sale = await record({ apiKey: key }, { distributor_id: distributor.id });
    expect(sale).toMatchObject({ source: 3, booked_by_user_id: null });
    expect((await req({ apiKey: key }, 'GET', `/secondary-sales/${sale.id}`)).statusCode).toBe(200);
    const elsewhere = (await createApiKey(t, ws, { scopes: 'orders,write' })).key;
    expect((await req({ apiKey: elsewhere }, 'GET', '/secondary-sales')).statusCode).toBe(403);
    const readOnly = (await createApiKey(t, ws, { scopes: 'read' })).key;
    expect((await req({ apiKey: readOnly }, 'POST', '/secondary-sales', body({ distributor_id: distributor.id }))).statusCode).toBe(403);
  });

  it('answers another workspace’s sale with 404 and keeps its lists apart', async () => {
    const ws2 = await createWorkspace(t);
    const cat2 = await seedCatalog(t, ws2);
    const theirs = await req({ token: cat2.distributorToken }, 'POST', '/secondary-sales', {
      retailer_id: cat2.retailerId, invoice_no: 'X-1', invoice_date: today(), items: [{ product_variant_id: cat2.variantIds[0], quantity: 1, rate: 1 }],
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect((await req(admin(), 'GET', `/secondary-sales/${theirs.json().data.id}`)).statusCode).toBe(404);
    expect((await req({ token: ws2.token }, 'GET', '/secondary-sales')).json().pagination.total).toBe(1);
    // Their retailer and variant are not this workspace's.
    const cross = await req(distributor, 'POST', '/secondary-sales', body({ retailer_id: cat2.retailerId }));
    expect(cross.json().errors?.[0].field, cross.body).toBe('retailer_id');
    const crossVariant = await req(distributor, 'POST', '/secondary-sales', body({ items: [{ product_variant_id: cat2.variantIds[0], quantity: 1, rate: 1 }] }));
    expect(crossVariant.json().errors?.[0].field, crossVariant.body).toBe('items[0].product_variant_id');
  });

  it('shows sell-in against sell-out per variant, flagging negative implied stock', async () => {
    const ws3 = await createWorkspace(t);
    const c = await seedCatalog(t, ws3);
    const order = await placeOrder(t, ws3.token, { user_id: c.distributorId, items: [{ product_variant_id: c.variantIds[0], quantity: 5 }] });
    for (const status of [2, 3, 4]) expect((await t.request({ method: 'PATCH', url: `/api/v1/orders/${order.id}/status`, token: ws3.token, payload: { order_status: status } })).statusCode).toBe(200);
    // Not delivered: not sell-in.
    await placeOrder(t, ws3.token, { user_id: c.distributorId, items: [{ product_variant_id: c.variantIds[0], quantity: 100 }] });
    const sell = (items: object[], invoice_date = today()) =>
      t.request({ method: 'POST', url: '/api/v1/secondary-sales', token: c.distributorToken, payload: { retailer_id: c.retailerId, invoice_no: `S-${unique()}`, invoice_date, items } });
    expect((await sell([{ product_variant_id: c.variantIds[0], quantity: 3, free_quantity: 1, rate: 30 }])).statusCode).toBe(201);
    expect((await sell([{ product_variant_id: c.variantIds[1], quantity: 2, rate: 60 }])).statusCode).toBe(201);
    expect((await sell([{ product_variant_id: c.variantIds[1], quantity: 7, rate: 60 }], shiftDay(today(), -3))).statusCode).toBe(201);

    const own = await t.request({ method: 'GET', url: '/api/v1/secondary-sales/stock', token: c.distributorToken });
    expect(own.statusCode, own.body).toBe(200);
    const rows = own.json().data.rows;
    expect(own.json().data).toMatchObject({ distributor_id: c.distributorId, date_to: today() });
    expect(rows).toEqual([
      { product_variant_id: c.variantIds[0], product_name: expect.any(String), variant_name: '500 ml', item_sku_code: expect.any(String), sell_in: 5, sell_out: 4, implied_stock: 1, negative: false },
      { product_variant_id: c.variantIds[1], product_name: expect.any(String), variant_name: '1 l', item_sku_code: expect.any(String), sell_in: 0, sell_out: 9, implied_stock: -9, negative: true },
    ]);
    // Up to four days ago: the older sale only (order_date today is after it).
    const earlier = await t.request({ method: 'GET', url: `/api/v1/secondary-sales/stock?distributor_id=${c.distributorId}&date_to=${shiftDay(today(), -2)}`, token: ws3.token });
    expect(earlier.json().data.rows.map((r: { sell_out: number; implied_stock: number }) => [r.sell_out, r.implied_stock])).toEqual([[7, -7]]);
    const noDistributor = await t.request({ method: 'GET', url: '/api/v1/secondary-sales/stock', token: ws3.token });
    expect(noDistributor.json().errors?.[0].field, noDistributor.body).toBe('distributor_id');
    // Another workspace's distributor is not one of this workspace's.
    const cross = await t.request({ method: 'GET', url: `/api/v1/secondary-sales/stock?distributor_id=${c.distributorId}`, token: ws.token });
    expect(cross.json().errors?.[0].field, cross.body).toBe('distributor_id');

    const gql = await t.graphql(`query($d: Int) { secondaryStock(distributorId: $d) { distributorId rows { productVariantId sellIn sellOut impliedStock negative } } }`, { d: c.distributorId }, ws3.token);
    expect(expectGraphqlData(gql).secondaryStock.rows).toEqual([
      { productVariantId: c.variantIds[0], sellIn: 5, sellOut: 4, impliedStock: 1, negative: false },
      { productVariantId: c.variantIds[1], sellIn: 0, sellOut: 9, impliedStock: -9, negative: true },
    ]);
  });

  it('works over GraphQL: record (idempotent), list, read; errors name the field', async () => {
    const input = { clientRef: `g-${unique()}`, retailerId: retailer.id, invoiceNo: `G-${unique()}`, invoiceDate: today(), items: [{ productVariantId: cat.variantIds[0], quantity: 4, freeQuantity: 1, rate: 25, schemeId }] };
    const mutation = `mutation($input: RecordSecondarySaleInput!) { recordSecondarySale(input: $input) { id distributorId retailerId invoiceNo grossAmount netAmount source lines { productVariantId quantity freeQuantity rate amount schemeId } } }`;
    const first = expectGraphqlData(await t.graphql(mutation, { input }, distributor.token!)).recordSecondarySale;
    expect(first).toMatchObject({ distributorId: distributor.id, retailerId: retailer.id, grossAmount: 100, netAmount: 100, source: 'DISTRIBUTOR', lines: [{ productVariantId: cat.variantIds[0], quantity: 4, freeQuantity: 1, rate: 25, amount: 100, schemeId }] });
    const again = expectGraphqlData(await t.graphql(mutation, { input }, distributor.token!)).recordSecondarySale;
    expect(again.id).toBe(first.id);
    expectGraphqlError(await t.graphql(mutation, { input: { ...input, items: [{ ...input.items[0], quantity: 5 }] } }, distributor.token!), 'CONFLICT');
    const bad = await t.graphql(mutation, { input: { ...input, clientRef: null, invoiceNo: 'G-bad', retailerId: distributor2.id } }, distributor.token!);
    expectGraphqlError(bad, 'BAD_USER_INPUT', /^retailerId /);

    const list = expectGraphqlData(await t.graphql(`query($s: String) { secondarySales(search: $s) { nodes { id invoiceNo } pageInfo { total } } }`, { s: input.invoiceNo }, ws.token));
    expect(list.secondarySales.nodes).toEqual([{ id: first.id, invoiceNo: input.invoiceNo }]);
    const one = expectGraphqlData(await t.graphql(`query($id: Int!) { secondarySale(id: $id) { id clientRef bookedByUserId visitId } }`, { id: first.id }, retailer.token!));
    expect(one.secondarySale).toEqual({ id: first.id, clientRef: input.clientRef, bookedByUserId: distributor.id, visitId: null });
    expectGraphqlError(await t.graphql(`query($id: Int!) { secondarySale(id: $id) { id } }`, { id: first.id }, distributor2.token!), 'NOT_FOUND');
  });

  it('exports as XLSX, CSV and PDF with the filters on the title lines', async () => {
    const sale = await record(distributor2, { retailer_id: retailer2.id, invoice_no: `EXP-${unique()}`, invoice_date: shiftDay(today(), -20) });
    const key = (await createApiKey(t, ws, { scopes: 'read,exports' })).key;
    const query = `distributor_id=${distributor2.id}&date_from=${shiftDay(today(), -21)}&date_to=${shiftDay(today(), -19)}`;
    const xlsx = await req({ apiKey: key }, 'GET', `/exports/secondary-sales?${query}`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(/filename="secondary-sales-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const result = (cell: unknown) => (cell !== null && typeof cell === 'object' && 'result' in cell ? cell.result : cell);
    const values = (row: number) => Array.from({ length: 12 }, (_, i) => result(sheet.getRow(row).getCell(i + 1).value ?? null));
    expect(values(1)).toEqual(['Invoice date', 'Invoice no', 'Distributor', 'Distributor store', 'Retailer', 'Retailer store', 'Items', 'Quantity', 'Free quantity', 'Gross amount', 'Scheme discount', 'Net amount']);
    expect(values(2)).toEqual([new Date(`${shiftDay(today(), -20)}T00:00:00Z`), sale.invoice_no, expect.any(String), expect.any(String), expect.any(String), expect.any(String), 2, 12, 1, 379.5, 5, 374.5]);
    expect(values(3)).toEqual(['Total', null, null, null, null, null, 2, 12, 1, 379.5, 5, 374.5]);
    const about = workbook.getWorksheet('About')!;
    const lines = Array.from({ length: about.rowCount }, (_, i) => String(about.getRow(i + 1).getCell(2).value ?? ''));
    expect(lines.find((l) => l.startsWith('Distributor: '))).toMatch(/\(Store \d+\)$/);

    const csv = await req({ apiKey: key }, 'GET', `/exports/secondary-sales?${query}&format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = parse(csv.body.replace(/^\uFEFF/, '')) as string[][];
    expect(rows.map((r) => [r[1], r[11]])).toEqual([['Invoice no', 'Net amount'], [sale.invoice_no, '374.50']]);

    const pdf = await req({ apiKey: key }, 'GET', `/exports/secondary-sales?${query}&format=pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'secondary-pdf-'));
    try {
      await writeFile(path.join(dir, 'sales.pdf'), pdf.rawPayload);
      const { stdout } = await promisify(execFile)('pdftotext', ['-layout', path.join(dir, 'sales.pdf'), '-']);
      for (const text of ['Secondary sales', sale.invoice_no, 'Distributor:', '374.50']) expect(stdout).toContain(text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const badRetailer = await req(admin(), 'GET', `/exports/secondary-sales?retailer_id=${distributor.id}`);
    expect(badRetailer.statusCode).toBe(400);
    expect(badRetailer.json().errors[0].field).toBe('retailer_id');
    expect((await req(distributor, 'GET', '/exports/secondary-sales')).statusCode).toBe(403);
  });
});

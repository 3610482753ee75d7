import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The customer ledger over REST: orders post on delivery and payments on recording (database
 * triggers), notes, opening balances and reversals by the service; the statement's opening,
 * running and closing balances and its FIFO ageing worked out by hand; append-only rows;
 * ledger:verify; every 400, role and tenant rule.
 */
describe('ledger', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  let today: string;
  const sql = <T extends object[]>(query: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute<T>(query, params);
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, who: { token?: string; apiKey?: string } = { token: ws.token }) =>
    t.request({ method, url: `/api/v1${url}`, payload, ...who });
  const ok = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, who?: { token?: string; apiKey?: string }) => {
    const res = await api(method, url, payload, who);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json().data;
  };
  const deliver = async (orderId: number) => {
    for (const status of [2, 3, 4]) await ok('PATCH', `/orders/${orderId}/status`, { order_status: status });
  };
  const daysAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  const rowCount = async () => Number((await sql<{ n: string }[]>('select count(*) as n from ledger_entry where organization_id = ?', [ws.organizationId]))[0].n);

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Ledger Dairy');
    catalog = await seedCatalog(t, ws);
    [{ today }] = await sql<{ today: string }[]>(
      `select to_char((now() at time zone time_zone)::date, 'YYYY-MM-DD') as today from workspace_config where organization_id = ?`,
      [ws.organizationId],
    );
  });
  afterAll(() => t.close());

  it('posts a delivered order as a debit and a payment as a credit; an undelivered or cancelled order posts nothing', async () => {
    const order = await placeOrder(t, ws.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] });
    expect(await rowCount()).toBe(0);
    const payment = await ok('POST', '/payments', { order_id: order.id, amount: 20, mode_of_payment: 'upi', reference: 'UTR-1' });
    await deliver(order.id);
    const cancelled = await placeOrder(t, ws.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[1], quantity: 1 }] });
    await ok('POST', `/orders/${cancelled.id}/cancel`, { reason: 'Duplicate' });

    const s = await ok('GET', `/ledger/statement?customer_id=${catalog.retailerId}`);
    expect(s).toMatchObject({ customer_id: catalog.retailerId, to: today, from: `${today.slice(0, 8)}01`, opening_balance: 0, total_debit: 57, total_credit: 20, closing_balance: 37 });
    expect(s.rows).toEqual([
      expect.objectContaining({ entry_date: today, kind: 2, debit: 0, credit: 20, balance: -20, payment_id: payment.id, order_id: null, reference: 'UTR-1' }),
      expect.objectContaining({ entry_date: today, kind: 1, debit: 57, credit: 0, balance: 37, order_id: order.id, payment_id: null }),
    ]);
    expect(s.ageing).toEqual({ days_0_7: 37, days_8_15: 0, days_16_30: 0, over_30_days: 0, advance: 0 });
    // The same rows in the list, by order and by payment.
    const byOrder = (await api('GET', `/ledger/entries?order_id=${order.id}`)).json();
    expect(byOrder.data.map((e: { kind: number }) => e.kind)).toEqual([1]);
    expect(byOrder.pagination.total).toBe(1);
    expect((await api('GET', `/ledger/entries?payment_id=${payment.id}`)).json().data[0]).toMatchObject({ customer_id: catalog.retailerId, credit: 20 });
    expect((await api('GET', `/ledger/entries?order_id=${cancelled.id}`)).json().data).toEqual([]);
  });

  it('notes, opening balances and reversals; the statement’s opening balance, running balance and FIFO ageing by hand', async () => {
    const customer = await createUser(t, ws, UserType.DISTRIBUTOR);
    const post = (url: string, body: object) => ok('POST', url, body);
    const opening = await post('/ledger/opening-balances', { customer_id: customer.id, amount: 100, as_of: daysAgo(40) });
    expect(opening).toMatchObject({ kind: 5, debit: 100, credit: 0, entry_date: daysAgo(40), narration: 'Opening balance', customer_id: customer.id });
    // A second opening balance while one stands: 409; nothing posted.
    const before = await rowCount();
    expect((await api('POST', '/ledger/opening-balances', { customer_id: customer.id, amount: 5, as_of: daysAgo(1) })).statusCode).toBe(409);
    expect(await rowCount()).toBe(before);
    await post('/ledger/notes', { customer_id: customer.id, note_type: 'debit', amount: 50, entry_date: daysAgo(10), narration: 'Short billing', reference: 'DN-1' });
    await post('/ledger/notes', { customer_id: customer.id, note_type: 'debit', amount: 30, entry_date: daysAgo(3), narration: 'Freight' });
    const credit = await post('/ledger/notes', { customer_id: customer.id, note_type: 'credit', amount: 120, narration: 'Damaged goods' });
    expect(credit).toMatchObject({ kind: 3, credit: 120, debit: 0, entry_date: today });

    // Credits (120) pay the oldest debits first: the opening 100, then 20 of the 50; 30 + 30 stay open.
    const s = await ok('GET', `/ledger/statement?customer_id=${customer.id}&from=${daysAgo(5)}&to=${today}`);
    expect(s).toMatchObject({ opening_balance: 150, total_debit: 30, total_credit: 120, closing_balance: 60 });
    expect(s.rows.map((r: { debit: number; credit: number; balance: number }) => [r.debit, r.credit, r.balance])).toEqual([
      [30, 0, 180],
      [0, 120, 60],
    ]);
    expect(s.ageing).toEqual({ days_0_7: 30, days_8_15: 30, days_16_30: 0, over_30_days: 0, advance: 0 });
    // As of 20 days ago: only the opening balance, 40 − 20 = 20 days old.
    const earlier = await ok('GET', `/ledger/statement?customer_id=${customer.id}&from=${daysAgo(60)}&to=${daysAgo(20)}`);
    expect(earlier).toMatchObject({ opening_balance: 0, closing_balance: 100, ageing: { days_16_30: 100, over_30_days: 0 } });

    // Reversing the credit note: a debit of 120 dated today, once.
    const reversal = await post(`/ledger/entries/${credit.id}/reverse`, { reason: 'Goods were fine' });
    expect(reversal).toMatchObject({ kind: 6, debit: 120, credit: 0, reverses_id: credit.id, entry_date: today, narration: 'Goods were fine' });
    expect((await api('POST', `/ledger/entries/${credit.id}/reverse`, { reason: 'Again' })).statusCode).toBe(409);
    expect((await api('POST', `/ledger/entries/${reversal.id}/reverse`, { reason: 'Undo' })).statusCode).toBe(409);
    expect((await ok('GET', `/ledger/statement?customer_id=${customer.id}`)).closing_balance).toBe(180);
    // The opening balance reversed, a new one may be posted.
    await post(`/ledger/entries/${opening.id}/reverse`, { reason: 'Wrong amount' });
    await post('/ledger/opening-balances', { customer_id: customer.id, amount: -25, as_of: daysAgo(40) });
    const last = await ok('GET', `/ledger/statement?customer_id=${customer.id}&from=${daysAgo(90)}`);
    expect(last.closing_balance).toBe(55); // -25 + 50 + 30 − 120 + 120
    // A customer only in credit: an advance, nothing aged.
    const ahead = await createUser(t, ws, UserType.RETAILER);
    await post('/ledger/notes', { customer_id: ahead.id, note_type: 'credit', amount: 25, narration: 'Rate difference' });
    expect((await ok('GET', `/ledger/statement?customer_id=${ahead.id}`)).ageing).toEqual({ days_0_7: 0, days_8_15: 0, days_16_30: 0, over_30_days: 0, advance: 25 });
  });

  it('pages the statement’s rows as every list: each row keeps its running balance; the figures count every row', async () => {
    const customer = await createUser(t, ws, UserType.RETAILER);
    // Seven debits of 1..7 on seven days, a credit of 10 on the last: balances 1, 3, 6, 10, 15, 21, 28, 18.
    for (let i = 1; i <= 7; i += 1) {
      await ok('POST', '/ledger/notes', { customer_id: customer.id, note_type: 'debit', amount: i, entry_date: daysAgo(20 - i), narration: `D${i}` });
    }
    await ok('POST', '/ledger/notes', { customer_id: customer.id, note_type: 'credit', amount: 10, narration: 'C' });
    const url = (q: string) => `/ledger/statement?customer_id=${customer.id}&from=${daysAgo(30)}${q}`;
    const whole = { opening_balance: 0, total_debit: 28, total_credit: 10, closing_balance: 18 };

    const first = (await api('GET', url('&limit=3'))).json();
    expect(first.data).toMatchObject(whole);
    expect(first.data.rows.map((r: { balance: number }) => r.balance)).toEqual([1, 3, 6]);
    expect(first.pagination).toEqual({ total: 8, page: 1, limit: 3, total_pages: 3 });
    const third = (await api('GET', url('&limit=3&page=3'))).json();
    expect(third.data).toMatchObject({ ...whole, ageing: first.data.ageing });
    expect(third.data.rows.map((r: { narration: string; balance: number }) => [r.narration, r.balance])).toEqual([
      ['D7', 28],
      ['C', 18],
    ]);
    expect((await api('GET', url('&limit=3&page=4'))).json().data).toMatchObject({ ...whole, rows: [] });
    // The default page is the list contract's: 20 rows.
    expect((await api('GET', url(''))).json().pagination).toEqual({ total: 8, page: 1, limit: 20, total_pages: 1 });
    for (const [q, field] of [
      ['&limit=101', 'limit'],
      ['&limit=0', 'limit'],
      ['&page=0', 'page'],
    ]) {
      const res = await api('GET', url(q));
      expect(res.statusCode, q).toBe(400);
      expect(res.json().errors[0].field).toBe(field);
    }
  });

  it('an order’s or a payment’s posting is not reversed here (409); rows are append-only in the database', async () => {
    const [orderRow] = (await api('GET', '/ledger/entries?kind=1')).json().data;
    const res = await api('POST', `/ledger/entries/${orderRow.id}/reverse`, { reason: 'No' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/order posting/);
    await expect(sql('update ledger_entry set debit = 1 where id = ?', [orderRow.id])).rejects.toThrow(/append-only/);
    await expect(sql('delete from ledger_entry where id = ?', [orderRow.id])).rejects.toThrow(/append-only/);
    // A workspace's deletion takes its rows with it (the cascade is allowed).
    const doomed = await createWorkspace(t);
    const c = await seedCatalog(t, doomed);
    await t.request({ method: 'POST', url: '/api/v1/ledger/notes', token: doomed.token, payload: { customer_id: c.retailerId, note_type: 'debit', amount: 5, narration: 'x' } });
    await sql('delete from organization where id = ?', [doomed.organizationId]);
    expect(await sql('select id from ledger_entry where organization_id = ?', [doomed.organizationId])).toEqual([]);
  });

  it('a voided payment: a payment of the negated amount, the ledger’s reversal of its credit, the order owing it again; once', async () => {
    const order = await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[1], quantity: 2 }] });
    await deliver(order.id);
    const stats = async () => (await ok('GET', '/dashboard/stats')).total_collection as number;
    const collectedBefore = await stats();
    const paid = await ok('POST', '/payments', { order_id: order.id, amount: 30, mode_of_payment: 'cash', reference: 'R-30' });
    const closing = async () => (await ok('GET', `/ledger/statement?customer_id=${catalog.distributorId}`)).closing_balance as number;
    const owedAfterPayment = await closing();
    const voided = await ok('POST', `/payments/${paid.id}/void`, { reason: 'Counted twice' });
    expect(voided).toMatchObject({ order_id: order.id, amount: -30, voids_payment_id: paid.id, void_reason: 'Counted twice', reference: 'R-30', mode_of_payment: 'cash' });
    expect(await closing()).toBe(owedAfterPayment + 30);
    expect(await stats()).toBe(collectedBefore);
    const [reversal] = (await api('GET', `/ledger/entries?payment_id=${voided.id}`)).json().data;
    const [credit] = (await api('GET', `/ledger/entries?payment_id=${paid.id}`)).json().data;
    expect(reversal).toMatchObject({ kind: 6, debit: 30, credit: 0, reverses_id: credit.id, narration: 'Payment voided: Counted twice' });
    // The order owes the 30 again: it may be paid in full once more.
    await ok('POST', '/payments', { order_id: order.id, amount: 110 });
    const again = await api('POST', `/payments/${paid.id}/void`, { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect((await api('POST', `/payments/${voided.id}/void`, { reason: 'Undo' })).statusCode).toBe(409);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const other = await ok('POST', '/payments', { order_id: (await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] })).id, amount: 5 });
    expect((await api('POST', `/payments/${other.id}/void`, { reason: 'x' }, { token: employee.token })).statusCode).toBe(403);
    expect((await api('POST', `/payments/${other.id}/void`, { reason: '' })).json().errors[0].field).toBe('reason');
    expect((await api('POST', `/payments/${other.id}/void`, { reason: 'x' }, { token: (await createWorkspace(t)).token })).statusCode).toBe(404);
    const gql = await t.graphql('mutation ($id: Int!) { voidPayment(id: $id, reason: "Bounced") { amount voidsPaymentId voidReason order { id } } }', { id: other.id }, ws.token);
    expect(gql.errors, JSON.stringify(gql.errors)).toBeUndefined();
    expect(gql.data).toEqual({ voidPayment: { amount: -5, voidsPaymentId: other.id, voidReason: 'Bounced', order: { id: expect.any(Number) } } });
  });

  it('ledger:verify proves the invariant, and names a customer whose ledger disagrees', async () => {
    const lines: string[] = [];
    const verify = async () => {
      const saved = process.env.DATABASE_URL;
      process.env.DATABASE_URL = t.db.url; // the CLI opens the database it is told
      try {
        return await runCli(['ledger:verify', ws.slug], (line) => lines.push(line), (line) => lines.push(line));
      } finally {
        process.env.DATABASE_URL = saved;
      }
    };
    expect(await verify(), lines.join('\n')).toBe(0);
    expect(lines.at(-1)).toMatch(/equals delivered orders − payments ± notes/);
    // Break it behind the service's back (the triggers off for one statement): a payment the ledger never saw.
    const [order] = await sql<{ id: number; customer_id: number }[]>(`select id, customer_id from sales_order where organization_id = ? and status = 4 limit 1`, [ws.organizationId]);
    await sql(`alter table payment disable trigger ledger_post_payments`);
    try {
      await sql(`insert into payment (organization_id, order_id, amount, mode_of_payment, paid_at) values (?, ?, 1, 'cash', now())`, [ws.organizationId, order.id]);
    } finally {
      await sql(`alter table payment enable always trigger ledger_post_payments`);
    }
    lines.length = 0;
    expect(await verify()).toBe(1);
    expect(lines.join('\n')).toMatch(new RegExp(`customer ${order.customer_id}: balance .* payments 20\\.00 in the ledger, 21\\.00 by the documents`));
  });

  it('400s naming the field, and nothing is posted', async () => {
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const before = await rowCount();
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const note = { customer_id: catalog.retailerId, note_type: 'credit', amount: 5, narration: 'x' };
    const cases: Array<[string, string, object | undefined, string]> = [
      ['GET', '/ledger/statement', undefined, 'customer_id'],
      ['GET', `/ledger/statement?customer_id=${employee.id}`, undefined, 'customer_id'],
      ['GET', `/ledger/statement?customer_id=${catalog.retailerId}&from=${today}&to=${daysAgo(1)}`, undefined, 'from'],
      ['GET', `/ledger/statement?customer_id=${catalog.retailerId}&to=2026-02-30`, undefined, 'to'],
      ['GET', '/ledger/entries?kind=9', undefined, 'kind'],
      ['GET', `/ledger/entries?date_from=${today}&date_to=${daysAgo(1)}`, undefined, 'date_from'],
      ['GET', '/ledger/entries?sort=balance', undefined, 'sort'],
      ['POST', '/ledger/notes', { ...note, amount: 0 }, 'amount'],
      ['POST', '/ledger/notes', { ...note, amount: 1.234 }, 'amount'],
      ['POST', '/ledger/notes', { ...note, note_type: 'refund' }, 'note_type'],
      ['POST', '/ledger/notes', { ...note, entry_date: tomorrow }, 'entry_date'],
      ['POST', '/ledger/notes', { ...note, narration: '  ' }, 'narration'],
      ['POST', '/ledger/notes', { ...note, customer_id: employee.id }, 'customer_id'],
      ['POST', '/ledger/opening-balances', { customer_id: catalog.distributorId, amount: 0, as_of: today }, 'amount'],
      ['POST', '/ledger/opening-balances', { customer_id: catalog.distributorId, amount: 10, as_of: tomorrow }, 'as_of'],
      ['POST', '/ledger/entries/1/reverse', {}, 'reason'],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await api(method as 'GET' | 'POST', url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
      expect(res.json().errors[0].field, url).toBe(field);
    }
    expect(await rowCount()).toBe(before);
  });

  it('roles: customers read only their own account; employees read; only administrators and keys post', async () => {
    const retailer = await createUser(t, ws, UserType.RETAILER);
    await ok('POST', '/ledger/notes', { customer_id: retailer.id, note_type: 'debit', amount: 12, narration: 'Crate deposit' });
    const own = await ok('GET', '/ledger/statement', undefined, { token: retailer.token });
    expect(own).toMatchObject({ customer_id: retailer.id, closing_balance: 12 });
    expect((await api('GET', `/ledger/statement?customer_id=${catalog.retailerId}`, undefined, { token: retailer.token })).statusCode).toBe(403);
    const ownRows = (await api('GET', '/ledger/entries', undefined, { token: retailer.token })).json();
    expect(ownRows.data.map((e: { customer_id: number }) => e.customer_id)).toEqual([retailer.id]);
    const [foreignRow] = (await api('GET', `/ledger/entries?customer_id=${catalog.retailerId}`)).json().data;
    expect((await api('GET', `/ledger/entries/${foreignRow.id}`, undefined, { token: retailer.token })).statusCode).toBe(404);
    expect((await api('POST', '/ledger/notes', { customer_id: retailer.id, note_type: 'credit', amount: 12, narration: 'mine' }, { token: retailer.token })).statusCode).toBe(403);

    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expect((await api('GET', `/ledger/statement?customer_id=${retailer.id}`, undefined, { token: employee.token })).statusCode).toBe(200);
    expect((await api('POST', '/ledger/notes', { customer_id: retailer.id, note_type: 'credit', amount: 1, narration: 'x' }, { token: employee.token })).statusCode).toBe(403);

    const reader = await createApiKey(t, ws, { scopes: 'read,ledger' });
    expect((await api('GET', `/ledger/statement?customer_id=${retailer.id}`, undefined, { apiKey: reader.key })).statusCode).toBe(200);
    expect((await api('POST', '/ledger/notes', { customer_id: retailer.id, note_type: 'credit', amount: 1, narration: 'x' }, { apiKey: reader.key })).statusCode).toBe(403);
    const writer = await createApiKey(t, ws, { scopes: 'read,write,ledger' });
    expect((await api('POST', '/ledger/notes', { customer_id: retailer.id, note_type: 'credit', amount: 2, narration: 'ERP sync' }, { apiKey: writer.key })).statusCode).toBe(201);
    const ordersOnly = await createApiKey(t, ws, { scopes: 'read,orders' });
    expect((await api('GET', `/ledger/statement?customer_id=${retailer.id}`, undefined, { apiKey: ordersOnly.key })).statusCode).toBe(403);
  });

  it('another workspace: its rows are not found, its customers are not ours to name', async () => {
    const other = await createWorkspace(t);
    const [row] = (await api('GET', '/ledger/entries?kind=3')).json().data;
    const as = { token: other.token };
    expect((await api('GET', `/ledger/entries/${row.id}`, undefined, as)).statusCode).toBe(404);
    expect((await api('POST', `/ledger/entries/${row.id}/reverse`, { reason: 'x' }, as)).statusCode).toBe(404);
    const statement = await api('GET', `/ledger/statement?customer_id=${catalog.retailerId}`, undefined, as);
    expect(statement.statusCode).toBe(400);
    expect(statement.json().errors[0].field).toBe('customer_id');
    expect((await api('GET', '/ledger/entries', undefined, as)).json().data).toEqual([]);
  });
  it('GET /exports/ledger: the statement as XLSX, CSV and PDF, from the same function; 400s naming the filter', async () => {
    const customer = await createUser(t, ws, UserType.RETAILER, { first_name: 'Meena', last_name: 'Stores' });
    await ok('POST', '/ledger/opening-balances', { customer_id: customer.id, amount: 100, as_of: daysAgo(40) });
    await ok('POST', '/ledger/notes', { customer_id: customer.id, note_type: 'debit', amount: 50, entry_date: daysAgo(3), narration: 'Freight', reference: 'DN-9' });
    await ok('POST', '/ledger/notes', { customer_id: customer.id, note_type: 'credit', amount: 20, narration: 'Rebate' });
    const key = (await createApiKey(t, ws, { scopes: 'read,exports' })).key;
    const query = `customer_id=${customer.id}&from=${daysAgo(5)}&to=${today}`;

    const xlsx = await api('GET', `/exports/ledger?${query}`, undefined, { apiKey: key });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(/filename="ledger-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const result = (cell: unknown) => (cell !== null && typeof cell === 'object' && 'result' in cell ? cell.result : cell);
    const values = (row: number) => Array.from({ length: 7 }, (_, i) => result(sheet.getRow(row).getCell(i + 1).value ?? null));
    const day = (d: string) => new Date(`${d}T00:00:00Z`);
    expect(values(1)).toEqual(['Date', 'Type', 'Particulars', 'Reference', 'Debit', 'Credit', 'Balance']);
    expect(values(2)).toEqual([day(daysAgo(5)), 'Opening balance', 'Balance brought forward', null, null, null, 100]);
    expect(values(3)).toEqual([day(daysAgo(3)), 'Debit note', 'Freight', 'DN-9', 50, null, 150]);
    expect(values(4)).toEqual([day(today), 'Credit note', 'Rebate', null, null, 20, 130]);
    expect(values(5)).toEqual([day(today), 'Closing balance', 'Balance carried forward', null, null, null, 130]);
    expect(values(6)).toEqual(['Total', null, null, null, 50, 20, null]);
    const about = workbook.getWorksheet('About')!;
    const lines = Array.from({ length: about.rowCount }, (_, i) => String(about.getRow(i + 1).getCell(2).value ?? ''));
    expect(lines.find((l) => l.startsWith('Customer: '))).toMatch(/^Customer: Meena Stores, /); // with the store's name
    expect(lines).toContain(`Period: ${daysAgo(5)} to ${today}`);
    expect(lines).toContain('Opening balance: 100.00 · Debits: 50.00 · Credits: 20.00 · Closing balance: 130.00');
    // The credit pays the oldest debit first: 80 of the opening balance stays, 40 days old.
    expect(lines).toContain('Outstanding by age: 0–7 days 50.00 · 8–15 days 0.00 · 16–30 days 0.00 · over 30 days 80.00');

    const csv = await api('GET', `/exports/ledger?${query}&format=csv`, undefined, { apiKey: key });
    expect((parse(csv.body.replace(/^\uFEFF/, '')) as string[][]).map((r) => r[6])).toEqual(['Balance', '100', '150', '130', '130']);
    const pdf = await api('GET', `/exports/ledger?${query}&format=pdf`, undefined, { apiKey: key });
    expect(pdf.statusCode, pdf.body).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ledger-pdf-'));
    try {
      await writeFile(path.join(dir, 'statement.pdf'), pdf.rawPayload);
      const { stdout } = await promisify(execFile)('pdftotext', ['-layout', path.join(dir, 'statement.pdf'), '-']);
      for (const text of ['Statement of account', 'Customer: Meena Stores', 'Closing balance', 'DN-9', 'Outstanding by age', 'Balance carried forward']) expect(stdout).toContain(text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const badKey = (await createApiKey(t, ws, { scopes: 'read,exports' })).key; // the exports budget: 5 a minute a caller
    for (const [q, field] of [
      ['', 'customer_id'],
      [`customer_id=${employee.id}`, 'customer_id'],
      [`customer_id=${customer.id}&from=${today}&to=${daysAgo(1)}`, 'from'],
      [`customer_id=${customer.id}&to=2026-02-31`, 'to'],
    ]) {
      const res = await api('GET', `/exports/ledger?${q}`, undefined, { apiKey: badKey });
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
      expect(res.json().errors[0].field, q).toBe(field);
    }
    // A job keeps the days it was asked for (defaults fixed when asked), and refuses a missing customer.
    const jobKey = (await createApiKey(t, ws, { scopes: 'read,exports' })).key;
    const started = await t.graphql('mutation($f: ExportFiltersInput) { startExport(kind: LEDGER, format: CSV, filters: $f) { id rowsTotal } }', { f: { customerId: customer.id } }, { apiKey: jobKey });
    expect(started.errors, JSON.stringify(started.errors)).toBeUndefined();
    const [job] = await sql<{ filters: Record<string, unknown> }[]>('select filters from export_job where id = ?', [(started.data as { startExport: { id: number } }).startExport.id]);
    expect(job.filters).toEqual({ customerId: customer.id, from: `${today.slice(0, 8)}01`, to: today });
    const missing = await t.graphql('mutation { startExport(kind: LEDGER) { id } }', {}, { apiKey: jobKey });
    expect(missing.errors?.[0]?.message).toMatch(/^customerId is required/);
  });
});

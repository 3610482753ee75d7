import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { checkInBody, checkOutBody, createNoSaleReason, createOutlet, northOfOutlet } from '../helpers/visit-fixtures';

type User = Awaited<ReturnType<typeof createUser>>;

/**
 * GET /reports/beat-productivity (and GraphQL beatProductivity) over one small day built by REST:
 * employee A planned on four outlets, employee B planned on two but on approved leave, employee C
 * with one visit and no plan, employee D with nothing (omitted). Every figure is worked out by hand.
 */
describe('GET /api/v1/reports/beat-productivity', () => {
  let t: TestApp;
  let ws: Workspace;
  let a: User;
  let b: User;
  let c: User;
  let retailerToken: string;
  let reason: { id: number; name: string };
  let orderTotal: number;
  let today: string;
  let beatPlanA: number;
  let routeId: number;
  let routeName: string;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    a = await createUser(t, ws, UserType.EMPLOYEE, { first_name: 'Asha', last_name: 'Rep' });
    b = await createUser(t, ws, UserType.EMPLOYEE, { first_name: 'Bina', last_name: 'Rep' });
    c = await createUser(t, ws, UserType.EMPLOYEE, { first_name: 'Chetan', last_name: 'Rep' });
    await createUser(t, ws, UserType.EMPLOYEE, { first_name: 'Dev', last_name: 'Idle' });
    const [o1, o2, o3, o4, o5] = [await createOutlet(t, ws), await createOutlet(t, ws), await createOutlet(t, ws), await createOutlet(t, ws), await createOutlet(t, ws)];
    const db = t.orm.em.fork().getConnection();
    const [route] = await db.execute<{ id: number; name: string }[]>('select r.id, r.name from outlet o join route r on r.id = o.route_id where o.id = ?', [o1]);
    routeId = route.id;
    routeName = route.name;
    // All five outlets on o1's route (a plan lists outlets of its route).
    await db.execute('update outlet set route_id = x.route_id, town_id = x.town_id from outlet x where x.id = ? and outlet.id = any(?::int[])', [o1, `{${[o2, o3, o4, o5].join(',')}}`]);

    // Visits are checked in "now" by the device, so that their local day is the server's today even
    // just after midnight; with no minimum dwell, distance alone decides geo-verification here (the
    // times the figures use are set below).
    const dwell = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { visit_min_dwell_minutes: 0 } });
    expect(dwell.statusCode, dwell.body).toBe(200);

    // Plans written last week (revised_on moved back), so reading today freezes today's day.
    const weekday = ((new Date().getUTCDay() + 6) % 7) + 1;
    const day0 = new Date().toISOString().slice(0, 10);
    const template = async (userId: number, outlets: number[]) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/beat-plans/templates', token: ws.token, payload: { user_id: userId, route_id: routeId, weekday, effective_from: day0, outlets } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as number;
    };
    beatPlanA = await template(a.id, [o1, o2, o3, o4]);
    await template(b.id, [o1, o2]);
    await db.execute('update beat_plan set revised_on = revised_on - 7 where organization_id = ?', [ws.organizationId]);

    // B: approved leave today.
    const applied = await t.request({ method: 'POST', url: '/api/v1/leaves', token: b.token, payload: { leave_type: 1, from_date: day0, to_date: day0, half_day: false, reason: 'Family' } });
    expect(applied.statusCode, applied.body).toBe(201);
    expect((await t.request({ method: 'POST', url: `/api/v1/leaves/${applied.json().data.id}/approve`, token: ws.token, payload: {} })).statusCode).toBe(200);

    const catalog = await seedCatalog(t, ws);
    retailerToken = (await createUser(t, ws, UserType.RETAILER)).token;
    const order = await placeOrder(t, a.token, {
      user_id: catalog.retailerId,
      items: [
        { product_variant_id: catalog.variantIds[0], quantity: 2 },
        { product_variant_id: catalog.variantIds[1], quantity: 1 },
      ],
    });
    orderTotal = 2 * 28.5 + 55; // the variants' selling prices
    const toBeCancelled = await placeOrder(t, a.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 5 }] });
    reason = { id: await createNoSaleReason(t, ws, 'Owner away'), name: 'Owner away' };

    const far = northOfOutlet(500);
    const visit = async (who: User, outletId: number, at: Record<string, unknown>, outcome: Record<string, unknown>, window: [string, string]) => {
      const inRes = await t.request({ method: 'POST', url: '/api/v1/visits/check-in', token: who.token, payload: checkInBody(outletId, 0, at) });
      expect(inRes.statusCode, inRes.body).toBe(201);
      const id = inRes.json().data.id as number;
      today = inRes.json().data.visit_date;
      const out = await t.request({ method: 'POST', url: `/api/v1/visits/${id}/check-out`, token: who.token, payload: checkOutBody({ ...at, ...outcome }) });
      expect(out.statusCode, out.body).toBe(200);
      // The server's clock times the field day: set it to known times of the visit's day.
      await db.execute(`update visit set check_in_at = visit_date + ?::time, check_out_at = visit_date + ?::time where id = ?`, [window[0], window[1], id]);
      return out.json().data;
    };
    // A: o1 in person with the order (verified); o2 from 500 m with a no-sale reason (not verified);
    // o5 (not planned) in person with an order cancelled afterwards; o3 by phone from 500 m; o4 not visited.
    expect((await visit(a, o1, {}, { outcome: 1, order_id: order.id }, ['09:00', '09:20'])).geo_verified).toBe(true);
    expect((await visit(a, o2, far, { outcome: 2, no_sale_reason_id: reason.id }, ['10:00', '10:15'])).geo_verified).toBe(false);
    expect((await visit(a, o5, {}, { outcome: 1, order_id: toBeCancelled.id }, ['11:00', '11:30'])).geo_verified).toBe(true);
    expect((await visit(a, o3, far, { outcome: 4 }, ['11:40', '12:00'])).geo_verified).toBe(false);
    expect((await t.request({ method: 'POST', url: `/api/v1/orders/${toBeCancelled.id}/cancel`, token: ws.token, payload: { reason: 'Test' } })).statusCode).toBe(200);
    // C: no plan, one visit in person, collection only.
    expect((await visit(c, o5, {}, { outcome: 3 }, ['10:00', '10:30'])).geo_verified).toBe(true);
    // E: a visit, then deactivated: left out (only active employees are reported).
    const e = await createUser(t, ws, UserType.EMPLOYEE, { first_name: 'Esha', last_name: 'Gone' });
    await visit(e, o4, {}, { outcome: 3 }, ['09:00', '09:30']);
    await db.execute('update app_user set status = 0 where id = ?', [e.id]);
  });
  afterAll(() => t.close());

  const get = (query: string, who: { token?: string; apiKey?: string } = { token: ws.token }) =>
    t.request({ method: 'GET', url: `/api/v1/reports/beat-productivity${query}`, ...who });
  const at = (time: string) => new Date(`${today}T${time}:00.000Z`).toISOString();
  const component = (name: string, value: number, target: number, weight: number, points: number) => ({ name, value, target, weight, points });

  it('scores each active employee with a plan or a visit, by hand; the idle and the inactive employees are omitted', async () => {
    const res = await get('');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d.date).toBe(today);
    expect(d.user_id).toBeNull();
    expect(d.rows.map((r: { user_id: number }) => r.user_id)).toEqual([a.id, b.id, c.id]);
    const [rowA, rowB, rowC] = d.rows;
    expect(rowA).toEqual({
      date: today,
      user_id: a.id,
      user_name: 'Asha Rep',
      beat_plan_id: beatPlanA,
      route_id: routeId,
      route_name: routeName,
      planned_calls: 4,
      total_calls: 4,
      productive_calls: 1, // the cancelled order's call is not productive
      geo_verified_calls: 2,
      phone_calls: 1,
      call_rate: 25, // only o1 of the 4 planned was visited and verified (o5 was not planned)
      strike_rate: 25,
      lines_per_call: 2,
      order_value: orderTotal,
      first_check_in: at('09:00'),
      last_check_out: at('12:00'),
      time_in_field_minutes: 180,
      no_sale_reasons: [{ id: reason.id, name: 'Owner away', count: 1 }],
      on_leave: 0,
      // coverage 3 of 4 planned (o1, o2, o3) → 22.5; strike 25% → 7.5; geo 2 of 3 in person → 13.33;
      // lines 2 of 3 → 6.67; 180 of 360 minutes → 5. Sum 55.
      score: 55,
      components: [
        component('coverage', 75, 100, 30, 22.5),
        component('strike_rate', 25, 100, 30, 7.5),
        component('geo_verification', 66.67, 100, 20, 13.33),
        component('lines_per_call', 2, 3, 10, 6.67),
        component('time_in_field', 180, 360, 10, 5),
      ],
      reasons: ['Strike rate: orders on 25% of the calls due (target 100%). 7.5 of 30 points.'],
    });
    expect(rowB).toMatchObject({ user_name: 'Bina Rep', planned_calls: 2, total_calls: 0, on_leave: 1, score: null, components: [], first_check_in: null, time_in_field_minutes: null });
    expect(rowB.reasons).toEqual(['On approved leave all day: not scored.']);
    // C, no plan: scored on the calls made (1): in person 1 of 1 → 30; strike 0 → 0; verified 1 of 1 → 20;
    // no lines → 0; 30 of 360 minutes → 0.83. Sum 50.83 → 50.8.
    expect(rowC).toMatchObject({
      beat_plan_id: null,
      route_name: null,
      planned_calls: 0,
      total_calls: 1,
      productive_calls: 0,
      geo_verified_calls: 1,
      call_rate: 100,
      strike_rate: 0,
      lines_per_call: 0,
      order_value: 0,
      time_in_field_minutes: 30,
      no_sale_reasons: [],
      score: 50.8,
    });
    expect(rowC.components.map((x: { points: number }) => x.points)).toEqual([30, 0, 20, 0, 0.83]);
    expect(rowC.reasons).toHaveLength(3);
    // The same day asked by date and by employee.
    expect((await get(`?date=${today}&user_id=${a.id}`)).json().data.rows).toEqual([rowA]);
    // Another day: no plan on that weekday, no visits.
    const nextDay = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await get(`?date=${nextDay}`)).json().data.rows).toEqual([]);
  });

  it('400s naming the field', async () => {
    const retailer = await createUser(t, ws, UserType.RETAILER);
    const cases: Array<[string, string]> = [
      ['?date=2026-02-30', 'date'],
      ['?date=today', 'date'],
      ['?user_id=0', 'user_id'],
      ['?user_id=abc', 'user_id'],
      [`?user_id=${retailer.id}`, 'user_id'],
      ['?user_id=99999999', 'user_id'],
      ['?date_from=2026-01-01', 'date_from'],
    ];
    for (const [query, field] of cases) {
      const res = await get(query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().errors[0].field, query).toBe(field);
    }
  });

  it('roles: employees see themselves (another’s id → 403); customers 403; API keys need the reports scope', async () => {
    const own = await get('', { token: a.token });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data.user_id).toBe(a.id);
    expect(own.json().data.rows.map((r: { user_id: number }) => r.user_id)).toEqual([a.id]);
    expect((await get(`?user_id=${b.id}`, { token: a.token })).json()).toEqual({ response_code: 403, message: 'Employees see only their own productivity' });
    expect((await get('', { token: retailerToken })).statusCode).toBe(403);
    const reportsKey = await createApiKey(t, ws, { scopes: 'read,reports' });
    const byKey = await get(`?user_id=${c.id}`, { apiKey: reportsKey.key });
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json().data.rows.map((r: { user_id: number }) => r.user_id)).toEqual([c.id]);
    const ordersOnly = await createApiKey(t, ws, { scopes: 'read,orders' });
    expect((await get('', { apiKey: ordersOnly.key })).statusCode).toBe(403);
  });

  it('another workspace sees only its own day and cannot name this one’s employees', async () => {
    const other = await createWorkspace(t);
    const res = await get(`?date=${today}`, { token: other.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.rows).toEqual([]);
    const foreign = await get(`?user_id=${a.id}`, { token: other.token });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0].field).toBe('user_id');
  });

  it('GraphQL beatProductivity answers the same rows', async () => {
    const res = await t.graphql(
      'query($f: BeatProductivityInput) { beatProductivity(filter: $f) { date userId rows { userId plannedCalls productiveCalls orderValue score onLeave components { name points } reasons } } }',
      { f: { userId: a.id } },
      ws.token,
    );
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const report = (res.data as { beatProductivity: { date: string; userId: number; rows: Array<Record<string, unknown>> } }).beatProductivity;
    expect(report).toMatchObject({ date: today, userId: a.id });
    expect(report.rows).toEqual([
      {
        userId: a.id,
        plannedCalls: 4,
        productiveCalls: 1,
        orderValue: orderTotal,
        score: 55,
        onLeave: 0,
        components: [
          { name: 'coverage', points: 22.5 },
          { name: 'strike_rate', points: 7.5 },
          { name: 'geo_verification', points: 13.33 },
          { name: 'lines_per_call', points: 6.67 },
          { name: 'time_in_field', points: 5 },
        ],
        reasons: ['Strike rate: orders on 25% of the calls due (target 100%). 7.5 of 30 points.'],
      },
    ]);
    const bad = await t.graphql('{ beatProductivity(filter: { date: "2026-13-01" }) { date } }', {}, ws.token);
    expect(JSON.stringify(bad.errors)).toContain('date');
    const asCustomer = await t.graphql('{ beatProductivity { date } }', {}, retailerToken);
    expect(asCustomer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
  describe('GET /api/v1/exports/beat-productivity (xlsx, pdf, csv) and export jobs', () => {
    const HEADERS = [
      'Date', 'Employee', 'Route', 'Leave', 'Planned', 'Calls', 'Productive', 'Geo-verified', 'Phone calls', 'Call rate %', 'Strike rate %', 'Lines per call', 'Order value',
      'First check-in', 'Last check-out', 'Minutes in field', 'No-sale reasons', 'Score', 'Coverage of 30', 'Strike of 30', 'Geo of 20', 'Lines of 10', 'Time of 10', 'Why the score is low',
    ];
    /** Exports spend a budget of 5 a minute per caller: each test takes keys of its own. */
    const exportKey = async () => (await createApiKey(t, ws, { scopes: 'read,exports' })).key;
    const download = (query: string, apiKey: string) => t.request({ method: 'GET', url: `/api/v1/exports/beat-productivity${query}`, apiKey });
    /** An instant as the workspace's wall clock, as a spreadsheet keeps it (a UTC-based Date). */
    const wallClock = async (iso: string) => {
      const [{ local }] = await t.orm.em.fork().getConnection().execute<{ local: string }[]>(
        `select to_char(?::timestamptz at time zone c.time_zone, 'YYYY-MM-DD"T"HH24:MI:SS') as local from workspace_config c where c.organization_id = ?`,
        [iso, ws.organizationId],
      );
      return local;
    };

    it('XLSX: the report’s rows, a column per figure and per score component, the day fixed on the title lines', async () => {
      const res = await download(`?date=${today}`, await exportKey());
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="beat-productivity-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      expect(sheet.name).toBe('Beat productivity');
      const values = (row: number) => Array.from({ length: HEADERS.length }, (_, i) => sheet.getRow(row).getCell(i + 1).value ?? null);
      expect(values(1)).toEqual(HEADERS);
      const [first, last] = [await wallClock(at('09:00')), await wallClock(at('12:00'))];
      expect(values(2)).toEqual([
        new Date(`${today}T00:00:00Z`), 'Asha Rep', routeName, null, 4, 4, 1, 2, 1, 25, 25, 2, orderTotal,
        new Date(`${first}Z`), new Date(`${last}Z`), 180, 'Owner away 1', 55, 22.5, 7.5, 13.33, 6.67, 5,
        'Strike rate: orders on 25% of the calls due (target 100%). 7.5 of 30 points.',
      ]);
      // B on leave: figures, no score or points.
      expect(values(3).slice(1, 6)).toEqual(['Bina Rep', routeName, 'All day', 2, 0]);
      expect(values(3).slice(17, 23)).toEqual([null, null, null, null, null, null]);
      expect(values(3)[23]).toBe('On approved leave all day: not scored.');
      expect(values(4).slice(1, 3)).toEqual(['Chetan Rep', null]);
      expect(values(4)[17]).toBe(50.8);
      // The totals row sums the counts and the order value (as formulas with their results).
      const result = (cell: unknown) => (cell !== null && typeof cell === 'object' && 'result' in cell ? cell.result : cell);
      expect(values(5).slice(0, 13).map(result)).toEqual(['Total', null, null, null, 6, 5, 1, 3, 1, null, null, null, orderTotal]);
      expect(values(5)[4]).toMatchObject({ formula: 'SUM(E2:E4)' });
      const about = workbook.getWorksheet('About')!;
      const lines = Array.from({ length: about.rowCount }, (_, i) => about.getRow(i + 1).values).flat();
      expect(lines).toContain(`Day: ${today}`);
    });

    it('CSV and PDF: the same rows; user_id narrows to one employee, named on the title lines', async () => {
      const key = await exportKey();
      const csv = await download(`?date=${today}&format=csv`, key);
      expect(csv.statusCode, csv.body).toBe(200);
      const rows = parse(csv.body.replace(/^\uFEFF/, '')) as string[][];
      expect(rows[0]).toEqual(HEADERS);
      expect(rows.map((r) => r[1])).toEqual(['Employee', 'Asha Rep', 'Bina Rep', 'Chetan Rep']);
      expect(rows[1].slice(4, 13)).toEqual(['4', '4', '1', '2', '1', '25', '25', '2', String(orderTotal)]);
      expect(rows[1][13]).toBe((await wallClock(at('09:00'))).replace('T', ' '));
      expect(rows[1][17]).toBe('55');

      const pdf = await download(`?date=${today}&user_id=${a.id}&format=pdf`, key);
      expect(pdf.statusCode, pdf.body).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const dir = await mkdtemp(path.join(os.tmpdir(), 'beat-pdf-'));
      try {
        await writeFile(path.join(dir, 'report.pdf'), pdf.rawPayload);
        const { stdout } = await promisify(execFile)('pdftotext', ['-layout', path.join(dir, 'report.pdf'), '-']);
        expect(stdout).toContain('Beat productivity');
        expect(stdout).toContain(`Day: ${today}`);
        expect(stdout).toContain('Employee: Asha Rep');
        expect(stdout).toContain('Asha Rep');
        expect(stdout).not.toContain('Chetan Rep');
        // The reasons column (its cells wrap, so pdftotext interleaves their lines with the next columns').
        expect(stdout).toContain('Strike rate:');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('400s naming the filter; employees and customers 403; keys need the exports scope; another workspace cannot name this one’s employees', async () => {
      const key = await exportKey();
      const retailer = await createUser(t, ws, UserType.RETAILER);
      for (const [query, field] of [
        ['?date=2026-02-30', 'date'],
        [`?user_id=${retailer.id}`, 'user_id'],
        ['?user_id=0', 'user_id'],
        ['?format=docx', 'format'],
      ] as const) {
        const res = await download(query, key);
        expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
        expect(res.json().errors[0].field, query).toBe(field);
      }
      const viaSession = (token: string) => t.request({ method: 'GET', url: '/api/v1/exports/beat-productivity', token });
      expect((await viaSession(a.token)).statusCode).toBe(403);
      expect((await viaSession(retailerToken)).statusCode).toBe(403);
      const reportsOnly = await createApiKey(t, ws, { scopes: 'read,reports' });
      expect((await download('', reportsOnly.key)).statusCode).toBe(403);
      const other = await createWorkspace(t);
      const foreign = await t.request({ method: 'GET', url: `/api/v1/exports/beat-productivity?user_id=${a.id}`, token: other.token });
      expect(foreign.statusCode, foreign.body).toBe(400);
      expect(foreign.json().errors[0].field).toBe('user_id');
      const theirs = await t.request({ method: 'GET', url: `/api/v1/exports/beat-productivity?date=${today}&format=csv`, token: other.token });
      expect(theirs.statusCode, theirs.body).toBe(200);
      expect(parse(theirs.body.replace(/^\uFEFF/, ''))).toEqual([HEADERS]);
    });

    it('an export job with no date keeps the day it was asked for, and its file downloads by the pre-signed link', async () => {
      const key = await exportKey();
      const started = await t.graphql(
        'mutation($f: ExportFiltersInput) { startExport(kind: BEAT_PRODUCTIVITY, format: CSV, filters: $f) { id status rowsTotal fileName } }',
        { f: { userId: a.id } },
        { apiKey: key },
      );
      const job = (expectGraphqlData(started) as { startExport: { id: number; status: string; rowsTotal: number } }).startExport;
      expect(job).toMatchObject({ status: 'QUEUED', rowsTotal: 1 });
      const [stored] = await t.orm.em.fork().getConnection().execute<{ filters: Record<string, unknown> }[]>('select filters from export_job where id = ?', [job.id]);
      expect(stored.filters).toEqual({ userId: a.id, date: today });
      const badDate = await t.graphql('mutation { startExport(kind: BEAT_PRODUCTIVITY, filters: { date: "2026-13-01" }) { id } }', {}, { apiKey: key });
      expectGraphqlError(badDate, 'BAD_USER_INPUT', /^date /);
      await t.startWorker(); // stopped by t.close()
      let ready: { status: string; downloadUrl: string | null } = { status: 'QUEUED', downloadUrl: null };
      for (let i = 0; i < 100 && ready.status !== 'READY' && ready.status !== 'FAILED'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ready = (expectGraphqlData(await t.graphql(`{ export(id: ${job.id}) { status downloadUrl } }`, {}, { apiKey: key })) as { export: typeof ready }).export;
      }
      expect(ready.status).toBe('READY');
      const file = await t.request({ method: 'GET', url: new URL(ready.downloadUrl!).pathname + new URL(ready.downloadUrl!).search });
      expect(file.statusCode, file.body).toBe(200);
      const rows = parse(file.body.replace(/^\uFEFF/, '')) as string[][];
      expect(rows.map((r) => [r[0], r[1], r[17]])).toEqual([['Date', 'Employee', 'Score'], [today, 'Asha Rep', '55']]);
    });
  });
});

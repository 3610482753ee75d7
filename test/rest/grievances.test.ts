import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { warnNearingBreaches } from '../../src/domains/grievances/grievance-breaches';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { multipart } from '../helpers/imports';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Smallest valid-looking images: the magic bytes are what counts. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 2)]);
const HOUR = 3_600_000;

/** Grievances over REST: raising, visibility, SLA clocks and breaches, transitions, photos, resolutions. */
describe('grievances', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let cat: Catalog;
  let retailer: { id: number; token: string };
  let employee: { id: number; token: string };
  let orderOfDistributor: number;
  let orderOfRetailer: number;
  type Who = { token?: string; apiKey?: string };
  const as = ({ token, apiKey }: Who) => (apiKey ? { apiKey } : { token });
  const req = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url: `/api/v1${url}`, ...as(who), ...(payload ? { payload } : {}) });
  const admin = () => ({ token: ws.token });
  const distributor = () => ({ token: cat.distributorToken });
  const raise = async (who: Who, extra: object = {}) => {
    const res = await req(who, 'POST', '/grievances', { category: 1, description: 'Soured milk in 3 packs', ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const act = (who: Who, id: number, action: string, payload?: object) => req(who, 'POST', `/grievances/${id}/${action}`, payload);
  const upload = (who: Who, id: number, name: string, content: Buffer, field = 'file') => {
    const body = multipart(name, content, field);
    return t.request({ method: 'POST', url: `/api/v1/grievances/${id}/photos`, ...as(who), payload: body.payload, headers: body.headers });
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    retailer = await createUser(t, ws, UserType.RETAILER);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    orderOfDistributor = (await placeOrder(t, ws.token, { user_id: cat.distributorId, items: [{ product_variant_id: cat.variantIds[0], quantity: 2 }] })).id;
    orderOfRetailer = (await placeOrder(t, ws.token, { user_id: retailer.id, items: [{ product_variant_id: cat.variantIds[0], quantity: 1 }] })).id;
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  it('a customer raises one for themselves: deadlines 48 hours and 30 days from opening, not breached', async () => {
    const before = Date.now();
    const g = await raise(distributor(), { category: 4, order_id: orderOfDistributor });
    expect(g).toMatchObject({
      customer_id: cat.distributorId,
      raised_via: 'customer',
      category: 4,
      category_name: 'missed_delivery',
      order_id: orderOfDistributor,
      status: 1,
      status_name: 'open',
      assignee_user_id: null,
      acknowledged_at: null,
      ack_breached: false,
      resolve_breached: false,
      breached: false,
      resolution_action: 'none',
      credit_note_entry_id: null,
      foc_request_id: null,
      photos: [],
    });
    const opened = new Date(g.created_at).getTime();
    expect(opened).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(g.ack_due_at).getTime() - opened).toBe(48 * HOUR);
    expect(new Date(g.resolve_due_at).getTime() - opened).toBe(30 * 24 * HOUR);
  });

  it('staff raise one for a customer with an assignee; bad input is 400 naming the field, nothing written', async () => {
    const g = await raise(admin(), { customer_id: retailer.id, order_id: orderOfRetailer, assignee_user_id: employee.id, category: 3 });
    expect(g).toMatchObject({ customer_id: retailer.id, raised_via: 'staff', assignee_user_id: employee.id });
    const total = async () => (await req(admin(), 'GET', '/grievances')).json().pagination.total;
    const before = await total();
    const cases: Array<[Who, object, string]> = [
      [admin(), { customer_id: retailer.id, order_id: orderOfDistributor }, 'order_id'], // another customer's order
      [distributor(), { order_id: orderOfRetailer }, 'order_id'],
      [admin(), { customer_id: retailer.id, order_id: 999999 }, 'order_id'],
      [admin(), {}, 'customer_id'],
      [admin(), { customer_id: employee.id }, 'customer_id'],
      [admin(), { customer_id: retailer.id, assignee_user_id: cat.distributorId }, 'assignee_user_id'],
      [distributor(), { customer_id: retailer.id }, 'customer_id'],
      [distributor(), { assignee_user_id: employee.id }, 'assignee_user_id'],
      [admin(), { customer_id: retailer.id, category: 8 }, 'category'],
      [admin(), { customer_id: retailer.id, description: '' }, 'description'],
    ];
    for (const [who, extra, field] of cases) {
      const res = await req(who, 'POST', '/grievances', { category: 1, description: 'x', ...extra });
      expect(res.statusCode, `${JSON.stringify(extra)}: ${res.body}`).toBe(400);
      expect(JSON.stringify(res.json())).toContain(field);
    }
    expect(await total()).toBe(before);
  });

  it('customers see only their own (another customer’s: 404); staff see the workspace’s; another workspace: 404', async () => {
    const mine = await raise(distributor());
    const theirs = await raise({ token: retailer.token });
    expect((await req(distributor(), 'GET', `/grievances/${theirs.id}`)).statusCode).toBe(404);
    expect((await req({ token: retailer.token }, 'GET', `/grievances/${mine.id}`)).statusCode).toBe(404);
    expect((await act({ token: retailer.token }, mine.id, 'close')).statusCode).toBe(404);
    const listed = (await req(distributor(), 'GET', '/grievances?limit=100')).json().data.map((g: { customer_id: number }) => g.customer_id);
    expect(new Set(listed)).toEqual(new Set([cat.distributorId]));
    const all = (await req(admin(), 'GET', '/grievances?limit=100')).json().data.map((g: { customer_id: number }) => g.customer_id);
    expect(new Set(all)).toEqual(new Set([cat.distributorId, retailer.id]));
    expect((await req({ token: other.token }, 'GET', `/grievances/${mine.id}`)).statusCode).toBe(404);
    expect((await req({ token: other.token }, 'GET', '/grievances')).json().pagination.total).toBe(0);
    // A customer may not move it on (only close/reopen their own).
    expect((await act(distributor(), mine.id, 'acknowledge')).statusCode).toBe(403);
  });

  it('API keys reach it with the grievances scope token; a key confined elsewhere is 403', async () => {
    const scoped = await createApiKey(t, ws, { scopes: 'read,write,grievances' });
    const g = await raise({ apiKey: scoped.key }, { customer_id: cat.distributorId });
    expect(g).toMatchObject({ raised_via: 'api_key', raised_by_user_id: null });
    expect((await req({ apiKey: scoped.key }, 'GET', `/grievances/${g.id}`)).statusCode).toBe(200);
    const elsewhere = await createApiKey(t, ws, { scopes: 'read,write,foc' });
    expect((await req({ apiKey: elsewhere.key }, 'GET', `/grievances/${g.id}`)).statusCode).toBe(403);
  });

  it('walks open → acknowledged → in progress → on hold → in progress → resolved → closed; illegal moves are 409 naming the state', async () => {
    const g = await raise(admin(), { customer_id: cat.distributorId });
    expect((await act(admin(), g.id, 'hold')).statusCode).toBe(409);
    expect((await act(admin(), g.id, 'close')).json().message).toMatch(/is open/);
    const acked = (await act(admin(), g.id, 'acknowledge')).json().data;
    expect(acked).toMatchObject({ status: 2, status_name: 'acknowledged', ack_breached: false });
    expect(acked.acknowledged_at).not.toBeNull();
    const again = await act(admin(), g.id, 'acknowledge');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/is acknowledged/);
    expect((await act({ token: employee.token }, g.id, 'start')).json().data.status).toBe(3);
    expect((await act(admin(), g.id, 'hold')).json().data.status).toBe(4);
    expect((await act(admin(), g.id, 'start')).json().data.status).toBe(3);
    expect((await act(admin(), g.id, 'resolve', {})).statusCode).toBe(400);
    const resolved = (await act(admin(), g.id, 'resolve', { resolution: 'Replaced at the next drop' })).json().data;
    expect(resolved).toMatchObject({ status: 5, resolution: 'Replaced at the next drop', resolution_action: 'none' });
    expect((await act(admin(), g.id, 'resolve', { resolution: 'again' })).json().message).toMatch(/is resolved/);
    // The customer confirms by closing.
    const closed = (await act(distributor(), g.id, 'close')).json().data;
    expect(closed.status).toBe(6);
    expect(closed.closed_at).not.toBeNull();
    const late = await act(admin(), g.id, 'start');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/is closed/);
  });

  it('reopens within 7 days of resolving/closing (back in progress); after that 409 naming the state', async () => {
    const g = await raise(admin(), { customer_id: cat.distributorId });
    expect((await act(admin(), g.id, 'reopen')).json().message).toMatch(/is open/);
    await act(admin(), g.id, 'resolve', { resolution: 'Credited' });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start + 6 * 24 * HOUR });
    const reopened = (await act(distributor(), g.id, 'reopen')).json().data;
    expect(reopened).toMatchObject({ status: 3, reopen_count: 1, resolved_at: null, closed_at: null });
    await act(admin(), g.id, 'resolve', { resolution: 'Credited, really' });
    await act(admin(), g.id, 'close');
    vi.useFakeTimers({ toFake: ['Date'], now: start + 6 * 24 * HOUR + 7 * 24 * HOUR + 60_000 });
    const refused = await act(distributor(), g.id, 'reopen');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/is closed since .* within 7 days/);
    expect((await req(admin(), 'GET', `/grievances/${g.id}`)).json().data.status).toBe(6);
  });

  it('breach flags with a fixed clock and the workspace’s own deadlines: acknowledged late, not resolved by the deadline', async () => {
    const set = await req(admin(), 'PUT', '/workspace/config', { grievance_ack_hours: 2, grievance_resolve_days: 1 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ grievance_ack_hours: 2, grievance_resolve_days: 1 });
    expect((await req(admin(), 'PUT', '/workspace/config', { grievance_ack_hours: 0 })).statusCode).toBe(400);
    try {
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'], now: start });
      const g = await raise(admin(), { customer_id: cat.distributorId });
      expect(new Date(g.ack_due_at).getTime() - new Date(g.created_at).getTime()).toBe(2 * HOUR);
      const onTime = await raise(admin(), { customer_id: cat.distributorId });
      expect((await act(admin(), onTime.id, 'acknowledge')).json().data.ack_breached).toBe(false);
      vi.useFakeTimers({ toFake: ['Date'], now: start + 2 * HOUR + 60_000 });
      expect((await req(admin(), 'GET', `/grievances/${g.id}`)).json().data).toMatchObject({ ack_breached: true, resolve_breached: false, breached: true });
      const acked = (await act(admin(), g.id, 'acknowledge')).json().data;
      expect(acked).toMatchObject({ ack_breached: true, breached: true }); // acknowledged after the deadline stays breached
      expect((await req(admin(), 'GET', `/grievances/${onTime.id}`)).json().data).toMatchObject({ ack_breached: false, breached: false });
      vi.useFakeTimers({ toFake: ['Date'], now: start + 25 * HOUR });
      expect((await req(admin(), 'GET', `/grievances/${onTime.id}`)).json().data).toMatchObject({ ack_breached: false, resolve_breached: true, breached: true });
    } finally {
      vi.useRealTimers();
      await req(admin(), 'PUT', '/workspace/config', { grievance_ack_hours: 48, grievance_resolve_days: 30 });
    }
  });

  it('the cron task warns the assignee once per deadline, within 4 hours of it (fixed clock)', async () => {
    const g = await raise(admin(), { customer_id: cat.distributorId, assignee_user_id: employee.id });
    const unassigned = await raise(admin(), { customer_id: cat.distributorId });
    const opened = new Date(g.created_at).getTime();
    const em = () => t.orm.em.fork();
    const stamps = async (id: number) => {
      const read = (await req(admin(), 'GET', `/grievances/${id}`)).json().data;
      return { ack: read.ack_warned_at, resolve: read.resolve_warned_at };
    };
    // 43 hours in: the acknowledge-by deadline is 5 hours away, no warning yet.
    await warnNearingBreaches(em(), new Date(opened + 43 * HOUR));
    expect(await stamps(g.id)).toEqual({ ack: null, resolve: null });
    // 44.5 hours in: within 4 hours of it.
    const at = new Date(opened + 44.5 * HOUR);
    expect(await warnNearingBreaches(em(), at)).toBeGreaterThanOrEqual(1);
    expect(await stamps(g.id)).toEqual({ ack: at.toISOString(), resolve: null });
    expect(await stamps(unassigned.id)).toEqual({ ack: null, resolve: null });
    // Once: a later run leaves it alone.
    await warnNearingBreaches(em(), new Date(opened + 47 * HOUR));
    expect((await stamps(g.id)).ack).toBe(at.toISOString());
    // Acknowledged, then near its resolve-by: warned for that one too, once.
    await act(admin(), g.id, 'start');
    const near = new Date(opened + 30 * 24 * HOUR - 3 * HOUR);
    await warnNearingBreaches(em(), near);
    expect(await stamps(g.id)).toEqual({ ack: at.toISOString(), resolve: near.toISOString() });
    // Each warning is one notification in the assignee's inbox.
    const inbox = (await req({ token: employee.token }, 'GET', '/portal/notifications?limit=100')).json().data as Array<{ type: string; title: string; entity_id: number }>;
    const warnings = inbox.filter((n) => n.type === 'grievance_deadline' && n.entity_id === g.id);
    expect(warnings.map((n) => n.title.split(':')[1].trim().split(' ')[0]).sort()).toEqual(['acknowledge', 'resolve']);
  });

  it('every change notifies the customer and the assignee, but not whoever made it', async () => {
    const inboxOf = async (token: string, id: number) =>
      ((await req({ token }, 'GET', '/portal/notifications?limit=100')).json().data as Array<{ type: string; title: string; entity_type: string; entity_id: number }>)
        .filter((n) => n.type === 'grievance_updated' && n.entity_type === 'grievance' && n.entity_id === id)
        .map((n) => n.title);
    const g = await raise(distributor());
    expect(await inboxOf(cat.distributorToken, g.id)).toEqual([]);
    await req(admin(), 'POST', `/grievances/${g.id}/assign`, { assignee_user_id: employee.id });
    await act({ token: employee.token }, g.id, 'acknowledge');
    expect(await inboxOf(cat.distributorToken, g.id)).toEqual([`Quality grievance #${g.id} acknowledged`, `Quality grievance #${g.id} assigned`]);
    expect(await inboxOf(employee.token, g.id)).toEqual([`Quality grievance #${g.id} assigned`]);
  });

  it('photos: JPEG/PNG by content, at most 5 MB (400 naming file), served through a pre-signed link', async () => {
    const g = await raise(distributor());
    const bad = await upload(distributor(), g.id, 'evil.jpg', Buffer.from('GIF89a not an image at all'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message + JSON.stringify(bad.json())).toContain('file');
    const big = await upload(distributor(), g.id, 'big.jpg', Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024)]));
    expect(big.statusCode, big.body).toBe(400);
    expect(JSON.stringify(big.json())).toContain('file');
    expect((await upload(distributor(), g.id, 'x.jpg', JPEG, 'photo')).statusCode).toBe(400);
    const up = await upload(distributor(), g.id, 'pack.png', PNG); // named .png, judged by content
    expect(up.statusCode, up.body).toBe(201);
    const photo = up.json().data.photos[0];
    expect(photo).toMatchObject({ file_name: 'pack.png', content_type: 'image/png', byte_size: PNG.length, uploaded_by_user_id: cat.distributorId });
    expect((await upload(admin(), g.id, 'shot.bin', JPEG)).json().data.photos[1]).toMatchObject({ content_type: 'image/jpeg' });
    // Another customer's grievance is 404, as is the link request.
    expect((await upload({ token: retailer.token }, g.id, 'x.jpg', JPEG)).statusCode).toBe(404);
    expect((await req({ token: retailer.token }, 'GET', `/grievances/${g.id}/photos/${photo.id}`)).statusCode).toBe(404);
    const link = (await req(distributor(), 'GET', `/grievances/${g.id}/photos/${photo.id}`)).json().data;
    expect(link.url).toMatch(new RegExp(`/api/v1/grievances/photo-files/${photo.id}\\?expires=\\d+&signature=`));
    const url = new URL(link.url);
    const file = await t.request({ method: 'GET', url: url.pathname + url.search, headers: { 'user-agent': 'curl/8.0' } });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    // A forged signature is 403; a credential of another workspace is 404; an expired link is 403.
    const forged = await t.request({ method: 'GET', url: `${url.pathname}?expires=${url.searchParams.get('expires')}&signature=AAAA${url.searchParams.get('signature')!.slice(4)}` });
    expect(forged.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: url.pathname + url.search, token: other.token })).statusCode).toBe(404);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60_000 });
    expect((await t.request({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(403);
  });

  it('photos go to UPLOAD_DIR when it is set', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'grievance-uploads-'));
    const withDir = await buildTestApp({ UPLOAD_DIR: dir });
    try {
      const w = await createWorkspace(withDir);
      const c = await seedCatalog(withDir, w);
      const created = await withDir.request({ method: 'POST', url: '/api/v1/grievances', token: c.distributorToken, payload: { category: 3, description: 'Puffed packs' } });
      const id = created.json().data.id;
      const body = multipart('a.jpg', JPEG);
      const up = await withDir.request({ method: 'POST', url: `/api/v1/grievances/${id}/photos`, token: c.distributorToken, payload: body.payload, headers: body.headers });
      expect(up.statusCode, up.body).toBe(201);
      const photoId = up.json().data.photos[0].id;
      expect(readdirSync(path.join(dir, 'grievances', String(w.organizationId)))).toHaveLength(1);
      const [row] = await withDir.orm.em.fork().getConnection().execute('select data, storage_path from grievance_photo where id = ?', [photoId]);
      expect(row.data).toBeNull();
      expect(row.storage_path).toMatch(/^grievances\/\d+\/[\w-]+\.jpg$/);
      const link = (await withDir.request({ method: 'GET', url: `/api/v1/grievances/${id}/photos/${photoId}`, token: c.distributorToken })).json().data;
      const url = new URL(link.url);
      const file = await withDir.request({ method: 'GET', url: url.pathname + url.search });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(JPEG)).toBe(true);
      // At most 10 photos: the 11th is 409 and leaves no file behind.
      for (let i = 1; i < 10; i++) {
        const more = multipart(`a${i}.jpg`, JPEG);
        expect((await withDir.request({ method: 'POST', url: `/api/v1/grievances/${id}/photos`, token: c.distributorToken, payload: more.payload, headers: more.headers })).statusCode).toBe(201);
      }
      const eleventh = multipart('a11.jpg', JPEG);
      const refused = await withDir.request({ method: 'POST', url: `/api/v1/grievances/${id}/photos`, token: c.distributorToken, payload: eleventh.payload, headers: eleventh.headers });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(readdirSync(path.join(dir, 'grievances', String(w.organizationId)))).toHaveLength(10);
    } finally {
      await withDir.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolution with a credit note posts the ledger row in the same transaction and links it (admins and keys)', async () => {
    const g = await raise(admin(), { customer_id: cat.distributorId, order_id: orderOfDistributor });
    expect((await act({ token: employee.token }, g.id, 'resolve', { resolution: 'Credit', action: 'credit_note', credit_note_amount: 57 })).statusCode).toBe(403);
    expect((await act(admin(), g.id, 'resolve', { resolution: 'Credit', action: 'credit_note' })).statusCode).toBe(400);
    expect((await req(admin(), 'GET', `/grievances/${g.id}`)).json().data.status).toBe(1);
    const res = await act(admin(), g.id, 'resolve', { resolution: '2 packs soured: credited', action: 'credit_note', credit_note_amount: 57 });
    expect(res.statusCode, res.body).toBe(200);
    const resolved = res.json().data;
    expect(resolved).toMatchObject({ status: 5, resolution_action: 'credit_note', credit_note_entry_id: expect.any(Number) });
    const entry = (await req(admin(), 'GET', `/ledger/entries/${resolved.credit_note_entry_id}`));
    expect(entry.statusCode, entry.body).toBe(200);
    expect(entry.json().data).toMatchObject({ customer_id: cat.distributorId, credit: 57, debit: 0, reference: `grievance:${g.id}` });
    // Reopened and resolved again: the action is not issued twice.
    await act(admin(), g.id, 'reopen');
    const twice = await act(admin(), g.id, 'resolve', { resolution: 'more', action: 'credit_note', credit_note_amount: 10 });
    expect(twice.statusCode).toBe(409);
    expect((await act(admin(), g.id, 'resolve', { resolution: 'Done' })).json().data.credit_note_entry_id).toBe(resolved.credit_note_entry_id);
  });

  it('resolution with an FOC replacement submits the request (reason replacement) and links it; a bad line changes nothing', async () => {
    const g = await raise(admin(), { customer_id: cat.distributorId });
    const bad = await act({ token: employee.token }, g.id, 'resolve', { resolution: 'Replace', action: 'replacement', replacement_items: [{ product_variant_id: 999999, quantity: 2 }] });
    expect(bad.statusCode).toBe(400);
    expect((await req(admin(), 'GET', `/grievances/${g.id}`)).json().data).toMatchObject({ status: 1, foc_request_id: null });
    const res = await act({ token: employee.token }, g.id, 'resolve', { resolution: 'Replace 2 packs', action: 'replacement', replacement_items: [{ product_variant_id: cat.variantIds[0], quantity: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    const resolved = res.json().data;
    expect(resolved).toMatchObject({ status: 5, resolution_action: 'replacement', foc_request_id: expect.any(Number) });
    const foc = (await req(admin(), 'GET', `/foc/requests/${resolved.foc_request_id}`)).json().data;
    expect(foc).toMatchObject({ customer_id: cat.distributorId, reason: 2, total_cost: 57, requested_by_user_id: employee.id });
  });

  it('assigns to a staff user (staff only); a customer is not an assignee', async () => {
    const g = await raise(distributor());
    expect((await req(distributor(), 'POST', `/grievances/${g.id}/assign`, { assignee_user_id: employee.id })).statusCode).toBe(403);
    expect((await req(admin(), 'POST', `/grievances/${g.id}/assign`, { assignee_user_id: retailer.id })).statusCode).toBe(400);
    expect((await req(admin(), 'POST', `/grievances/${g.id}/assign`, { assignee_user_id: employee.id })).json().data.assignee_user_id).toBe(employee.id);
    expect((await req(admin(), 'GET', `/grievances?assignee_user_id=${employee.id}&limit=100`)).json().data.map((x: { id: number }) => x.id)).toContain(g.id);
    expect((await req(admin(), 'POST', `/grievances/${g.id}/assign`, { assignee_user_id: null })).json().data.assignee_user_id).toBeNull();
  });
});

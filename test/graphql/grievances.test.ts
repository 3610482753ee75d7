import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { multipart } from '../helpers/imports';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const G = `id customerId raisedByUserId raisedVia category orderId description status assigneeUserId ackDueAt resolveDueAt acknowledgedAt resolvedAt closedAt
  reopenedAt reopenCount ackBreached resolveBreached breached ackWarnedAt resolveWarnedAt resolution resolutionAction creditNoteEntryId focRequestId
  photos { id grievanceId fileName contentType byteSize }`;
const RAISE = `mutation ($input: RaiseGrievanceInput!) { raiseGrievance(input: $input) { ${G} } }`;
const GET = `query ($id: Int!) { grievance(id: $id) { ${G} } }`;
const LIST = `query ($status: GrievanceStatus, $customerId: Int) { grievances(status: $status, customerId: $customerId, limit: 100) { nodes { id customerId } pageInfo { total } } }`;
const MOVE = `mutation ($id: Int!, $action: GrievanceAction!, $resolve: ResolveGrievanceInput) { transitionGrievance(id: $id, action: $action, resolve: $resolve) { ${G} } }`;
const ASSIGN = `mutation ($id: Int!, $assigneeUserId: Int) { assignGrievance(id: $id, assigneeUserId: $assigneeUserId) { id assigneeUserId } }`;
const LINK = `query ($grievanceId: Int!, $photoId: Int!) { grievancePhotoLink(grievanceId: $grievanceId, photoId: $photoId) { photoId url expiresAt } }`;
const HOUR = 3_600_000;

/** Grievances over GraphQL: the same service as REST. */
describe('grievances (GraphQL)', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let cat: Catalog;
  let retailer: { id: number; token: string };
  let employee: { id: number; token: string };
  let orderId: number;
  const raise = async (credential: string | { apiKey: string }, input: object) => expectGraphqlData(await t.graphql(RAISE, { input: { category: 'QUALITY', description: 'Soured', ...input } }, credential)).raiseGrievance;
  const move = (credential: string, id: number, action: string, resolve?: object) => t.graphql(MOVE, { id, action, resolve }, credential);

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    retailer = await createUser(t, ws, UserType.RETAILER);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    orderId = (await placeOrder(t, ws.token, { user_id: cat.distributorId, items: [{ product_variant_id: cat.variantIds[0], quantity: 2 }] })).id;
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  it('raises for oneself (customer) or for a customer (staff); 400 naming orderId for another customer’s order', async () => {
    const mine = await raise(cat.distributorToken, { orderId, category: 'MISSED_DELIVERY' });
    expect(mine).toMatchObject({ customerId: cat.distributorId, raisedVia: 'CUSTOMER', category: 'MISSED_DELIVERY', orderId, status: 'OPEN', breached: false, photos: [] });
    expect(new Date(mine.ackDueAt).getTime() - new Date(mine.resolveDueAt).getTime()).toBe(48 * HOUR - 30 * 24 * HOUR);
    const forRetailer = await raise(ws.token, { customerId: retailer.id, assigneeUserId: employee.id });
    expect(forRetailer).toMatchObject({ customerId: retailer.id, raisedVia: 'STAFF', assigneeUserId: employee.id });
    const bad = await t.graphql(RAISE, { input: { customerId: retailer.id, orderId, category: 'QUALITY', description: 'x' } }, ws.token);
    expectGraphqlError(bad, 'BAD_USER_INPUT', /orderId/);
  });

  it('customers see their own; another customer’s and another workspace’s are NOT_FOUND', async () => {
    const mine = await raise(cat.distributorToken, {});
    const theirs = await raise(retailer.token, {});
    expectGraphqlError(await t.graphql(GET, { id: theirs.id }, cat.distributorToken), 'NOT_FOUND');
    expectGraphqlError(await t.graphql(GET, { id: mine.id }, other.token), 'NOT_FOUND');
    const own = expectGraphqlData(await t.graphql(LIST, {}, cat.distributorToken)).grievances.nodes;
    expect(new Set(own.map((g: { customerId: number }) => g.customerId))).toEqual(new Set([cat.distributorId]));
    const all = expectGraphqlData(await t.graphql(LIST, {}, ws.token)).grievances;
    expect(all.pageInfo.total).toBeGreaterThan(own.length);
    expect(expectGraphqlData(await t.graphql(LIST, {}, other.token)).grievances.pageInfo.total).toBe(0);
    const key = await createApiKey(t, ws, { scopes: 'read,grievances' });
    expect(expectGraphqlData(await t.graphql(GET, { id: mine.id }, { apiKey: key.key })).grievance.id).toBe(mine.id);
    const elsewhere = await createApiKey(t, ws, { scopes: 'read,foc' });
    expectGraphqlError(await t.graphql(GET, { id: mine.id }, { apiKey: elsewhere.key }), 'FORBIDDEN');
  });

  it('transitions with 409 naming the state, and the reopen window', async () => {
    const g = await raise(ws.token, { customerId: cat.distributorId });
    expectGraphqlError(await move(ws.token, g.id, 'close'), 'CONFLICT', /is open/);
    expectGraphqlError(await move(cat.distributorToken, g.id, 'acknowledge'), 'FORBIDDEN');
    expect(expectGraphqlData(await move(ws.token, g.id, 'acknowledge')).transitionGrievance.status).toBe('ACKNOWLEDGED');
    expect(expectGraphqlData(await move(employee.token, g.id, 'hold')).transitionGrievance.status).toBe('ON_HOLD');
    expect(expectGraphqlData(await move(employee.token, g.id, 'start')).transitionGrievance.status).toBe('IN_PROGRESS');
    expectGraphqlError(await move(ws.token, g.id, 'resolve'), 'BAD_USER_INPUT', /resolution/);
    const resolved = expectGraphqlData(await move(ws.token, g.id, 'resolve', { resolution: 'Replaced' })).transitionGrievance;
    expect(resolved).toMatchObject({ status: 'RESOLVED', resolution: 'Replaced', resolutionAction: 'NONE' });
    expect(expectGraphqlData(await move(cat.distributorToken, g.id, 'close')).transitionGrievance.status).toBe('CLOSED');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 7 * 24 * HOUR + 60_000 });
    expectGraphqlError(await move(cat.distributorToken, g.id, 'reopen'), 'CONFLICT', /is closed since/);
    vi.useRealTimers();
    expect(expectGraphqlData(await move(cat.distributorToken, g.id, 'reopen')).transitionGrievance).toMatchObject({ status: 'IN_PROGRESS', reopenCount: 1 });
  });

  it('breach flags with a fixed clock', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const g = await raise(ws.token, { customerId: cat.distributorId });
    vi.useFakeTimers({ toFake: ['Date'], now: start + 48 * HOUR + 1000 });
    expect(expectGraphqlData(await t.graphql(GET, { id: g.id }, ws.token)).grievance).toMatchObject({ ackBreached: true, resolveBreached: false, breached: true });
    vi.useFakeTimers({ toFake: ['Date'], now: start + 47 * HOUR });
    expect(expectGraphqlData(await t.graphql(GET, { id: g.id }, ws.token)).grievance).toMatchObject({ ackBreached: false, breached: false });
  });

  it('resolves with a credit note (a ledger row) or an FOC replacement, linked', async () => {
    const a = await raise(ws.token, { customerId: cat.distributorId });
    const credited = expectGraphqlData(await move(ws.token, a.id, 'resolve', { resolution: 'Credited', action: 'credit_note', creditNoteAmount: 28.5 })).transitionGrievance;
    expect(credited).toMatchObject({ resolutionAction: 'CREDIT_NOTE', creditNoteEntryId: expect.any(Number) });
    const entry = await t.request({ method: 'GET', url: `/api/v1/ledger/entries/${credited.creditNoteEntryId}`, token: ws.token });
    expect(entry.json().data).toMatchObject({ credit: 28.5, customer_id: cat.distributorId });
    const b = await raise(ws.token, { customerId: cat.distributorId });
    expectGraphqlError(await move(employee.token, b.id, 'resolve', { resolution: 'x', action: 'credit_note', creditNoteAmount: 1 }), 'FORBIDDEN');
    const replaced = expectGraphqlData(
      await move(employee.token, b.id, 'resolve', { resolution: 'Replaced', action: 'replacement', replacementItems: [{ productVariantId: cat.variantIds[1], quantity: 1 }] }),
    ).transitionGrievance;
    expect(replaced).toMatchObject({ resolutionAction: 'REPLACEMENT', focRequestId: expect.any(Number) });
    const foc = await t.request({ method: 'GET', url: `/api/v1/foc/requests/${replaced.focRequestId}`, token: ws.token });
    expect(foc.json().data).toMatchObject({ reason: 2, total_cost: 55 });
  });

  it('assigns, and hands out a pre-signed photo link', async () => {
    const g = await raise(cat.distributorToken, {});
    expectGraphqlError(await t.graphql(ASSIGN, { id: g.id, assigneeUserId: employee.id }, cat.distributorToken), 'FORBIDDEN');
    expect(expectGraphqlData(await t.graphql(ASSIGN, { id: g.id, assigneeUserId: employee.id }, ws.token)).assignGrievance.assigneeUserId).toBe(employee.id);
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xdb]), Buffer.alloc(32, 7)]);
    const body = multipart('leak.jpg', jpeg);
    const up = await t.request({ method: 'POST', url: `/api/v1/grievances/${g.id}/photos`, token: cat.distributorToken, payload: body.payload, headers: body.headers });
    expect(up.statusCode, up.body).toBe(201);
    const photo = expectGraphqlData(await t.graphql(GET, { id: g.id }, ws.token)).grievance.photos[0];
    expect(photo).toMatchObject({ grievanceId: g.id, fileName: 'leak.jpg', contentType: 'image/jpeg', byteSize: jpeg.length });
    const link = expectGraphqlData(await t.graphql(LINK, { grievanceId: g.id, photoId: photo.id }, cat.distributorToken)).grievancePhotoLink;
    const url = new URL(link.url);
    const file = await t.request({ method: 'GET', url: url.pathname + url.search });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(jpeg)).toBe(true);
    expectGraphqlError(await t.graphql(LINK, { grievanceId: g.id, photoId: photo.id }, retailer.token), 'NOT_FOUND');
  });
});

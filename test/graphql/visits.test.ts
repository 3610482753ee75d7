import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { createNoSaleReason, createOutlet, northOfOutlet, OUTLET_AT, visitCount } from '../helpers/visit-fixtures';

const FIELDS = `id clientRef status visitDate distanceFromOutletM dwellSeconds geoVerified radiusM minDwellMinutes outcome remarks
  user { id } outlet { id name } order { id } noSaleReason { id name }`;
const CHECK_IN = `mutation ($input: CheckInVisitInput!) { checkInVisit(input: $input) { ${FIELDS} } }`;
const CHECK_OUT = `mutation ($id: Int!, $input: CheckOutVisitInput!) { checkOutVisit(id: $id, input: $input) { ${FIELDS} } }`;
const ABANDON = `mutation ($id: Int!) { abandonVisit(id: $id) { id status } }`;
const VISIT = `query ($id: Int!) { visit(id: $id) { ${FIELDS} } }`;
const VISITS = `query ($userId: Int, $status: VisitStatus, $outcome: VisitOutcome, $date: String, $sort: [VisitSort!]) {
  visits(userId: $userId, status: $status, outcome: $outcome, date: $date, sort: $sort) { nodes { id user { id } } pageInfo { total } }
}`;

/** Visits over GraphQL: the same service as REST, camelCase fields and enums. */
describe('visits over GraphQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const inInput = (outletId: number, minutesAgo = 10, extra: Record<string, unknown> = {}) => ({
    clientRef: randomUUID(),
    outletId,
    deviceTime: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    ...OUTLET_AT,
    ...extra,
  });
  const outInput = (extra: Record<string, unknown> = {}) => ({ deviceTime: new Date().toISOString(), ...OUTLET_AT, outcome: 'COLLECTION_ONLY', ...extra });

  it('checks in idempotently, keeps one visit open, and checks out with geo-verification', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const outletId = await createOutlet(t, ws);
    const input = inInput(outletId, 10, northOfOutlet(60));
    const first = expectGraphqlData(await t.graphql(CHECK_IN, { input }, employee.token)).checkInVisit;
    expect(first).toMatchObject({ clientRef: input.clientRef, status: 'IN_PROGRESS', user: { id: employee.id }, outlet: { id: outletId }, geoVerified: null, order: null });
    expect(first.distanceFromOutletM).toBeCloseTo(60, 0);
    const again = expectGraphqlData(await t.graphql(CHECK_IN, { input: { ...input, latitude: 0 } }, employee.token)).checkInVisit;
    expect(again).toEqual(first);
    expectGraphqlError(await t.graphql(CHECK_IN, { input: inInput(outletId) }, employee.token), 'CONFLICT', new RegExp(`^Visit ${first.id} `));
    expect(await visitCount(t, ws)).toBe(1);

    const done = expectGraphqlData(await t.graphql(CHECK_OUT, { id: first.id, input: outInput({ remarks: 'Paid cash' }) }, employee.token)).checkOutVisit;
    expect(done).toMatchObject({ status: 'COMPLETED', outcome: 'COLLECTION_ONLY', geoVerified: true, radiusM: 100, minDwellMinutes: 2, remarks: 'Paid cash' });
    expectGraphqlError(await t.graphql(CHECK_OUT, { id: first.id, input: outInput() }, employee.token), 'CONFLICT', `Visit ${first.id} is completed, not in progress`);
    expectGraphqlError(await t.graphql(ABANDON, { id: first.id }, employee.token), 'CONFLICT');

    // Outside the radius, or too short: not verified.
    const far = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(outletId, 10, northOfOutlet(400)) }, employee.token)).checkInVisit;
    expect(expectGraphqlData(await t.graphql(CHECK_OUT, { id: far.id, input: outInput() }, employee.token)).checkOutVisit.geoVerified).toBe(false);
    const short = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(outletId, 1) }, employee.token)).checkInVisit;
    expect(expectGraphqlData(await t.graphql(CHECK_OUT, { id: short.id, input: outInput() }, employee.token)).checkOutVisit).toMatchObject({ geoVerified: false, dwellSeconds: 60 });
    const untagged = await createOutlet(t, ws, { tagged: false });
    const blind = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(untagged, 30) }, employee.token)).checkInVisit;
    expect(blind.distanceFromOutletM).toBeNull();
    expect(expectGraphqlData(await t.graphql(CHECK_OUT, { id: blind.id, input: outInput() }, employee.token)).checkOutVisit.geoVerified).toBe(false);

    const abandoned = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(outletId) }, employee.token)).checkInVisit;
    expect(expectGraphqlData(await t.graphql(ABANDON, { id: abandoned.id }, employee.token)).abandonVisit).toEqual({ id: abandoned.id, status: 'ABANDONED' });
  });

  it('checks outcomes (BAD_USER_INPUT naming the camelCase field, nothing changed) and links the order or reason', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const outletId = await createOutlet(t, ws);
    const catalog = await seedCatalog(t, ws);
    const orderId = (await placeOrder(t, employee.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] })).id;
    const reasonId = await createNoSaleReason(t, ws, 'Owner absent');
    const visit = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(outletId) }, employee.token)).checkInVisit;
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ outcome: 'ORDER' }, 'orderId is required (a positive integer)'],
      [{ outcome: 'NO_SALE' }, 'noSaleReasonId is required (a positive integer)'],
      [{ outcome: 'PHONE_CALL', orderId }, 'orderId is only for outcome 1 (order)'],
      [{ outcome: 'ORDER', orderId: orderId + 1000 }, 'orderId does not name an order of yours that is not cancelled'],
      [{ outcome: 'NO_SALE', noSaleReasonId: reasonId + 1000 }, 'noSaleReasonId does not name an active no-sale reason of this workspace'],
      [{ remarks: 'x'.repeat(501) }, 'remarks must be at most 500 characters'],
      [{ deviceTime: new Date(Date.now() - 3_600_000).toISOString() }, 'deviceTime must not be before the check-in’s device time'],
    ];
    for (const [change, message] of bad) expectGraphqlError(await t.graphql(CHECK_OUT, { id: visit.id, input: outInput(change) }, employee.token), 'BAD_USER_INPUT', message);
    expect(expectGraphqlData(await t.graphql(VISIT, { id: visit.id }, employee.token)).visit).toMatchObject({ status: 'IN_PROGRESS', outcome: null });
    const ordered = expectGraphqlData(await t.graphql(CHECK_OUT, { id: visit.id, input: outInput({ outcome: 'ORDER', orderId }) }, employee.token)).checkOutVisit;
    expect(ordered).toMatchObject({ outcome: 'ORDER', order: { id: orderId }, noSaleReason: null });
    const next = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(outletId) }, employee.token)).checkInVisit;
    const noSale = expectGraphqlData(await t.graphql(CHECK_OUT, { id: next.id, input: outInput({ outcome: 'NO_SALE', noSaleReasonId: reasonId }) }, employee.token)).checkOutVisit;
    expect(noSale).toMatchObject({ outcome: 'NO_SALE', noSaleReason: { id: reasonId, name: 'Owner absent' }, order: null });
    // The master's GraphQL operations come with the kind.
    const reasons = expectGraphqlData(await t.graphql('{ noSaleReasons { nodes { id name status } } }', {}, employee.token)).noSaleReasons.nodes;
    expect(reasons).toEqual([{ id: reasonId, name: 'Owner absent', status: 'ACTIVE' }]);
    expectGraphqlData(await t.graphql('mutation ($id: Int!) { deactivateNoSaleReason(id: $id) { status } }', { id: reasonId }, ws.token));
  });

  it('lists by role and filter; refuses customers and API keys on writes; another workspace’s visit is NOT_FOUND', async () => {
    const ws = await createWorkspace(t);
    const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    const outletId = await createOutlet(t, ws);
    const va = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(outletId) }, a.token)).checkInVisit;
    const vb = expectGraphqlData(await t.graphql(CHECK_IN, { input: inInput(outletId) }, b.token)).checkInVisit;
    expectGraphqlData(await t.graphql(CHECK_OUT, { id: vb.id, input: outInput({ outcome: 'PHONE_CALL' }) }, b.token));

    const all = expectGraphqlData(await t.graphql(VISITS, { sort: [{ field: 'CHECK_IN_AT', direction: 'ASC' }] }, ws.token)).visits;
    expect(all.nodes.map((n: { id: number }) => n.id)).toEqual([va.id, vb.id]);
    expect(expectGraphqlData(await t.graphql(VISITS, { status: 'IN_PROGRESS' }, ws.token)).visits.nodes.map((n: { id: number }) => n.id)).toEqual([va.id]);
    expect(expectGraphqlData(await t.graphql(VISITS, { outcome: 'PHONE_CALL' }, ws.token)).visits.nodes.map((n: { id: number }) => n.id)).toEqual([vb.id]);
    expectGraphqlError(await t.graphql(VISITS, { date: 'today' }, ws.token), 'BAD_USER_INPUT', /^date /);
    expect(expectGraphqlData(await t.graphql(VISITS, {}, a.token)).visits.nodes.map((n: { id: number }) => n.id)).toEqual([va.id]);
    expectGraphqlError(await t.graphql(VISITS, { userId: b.id }, a.token), 'FORBIDDEN');
    expectGraphqlError(await t.graphql(VISIT, { id: vb.id }, a.token), 'NOT_FOUND');
    expectGraphqlError(await t.graphql(CHECK_OUT, { id: va.id, input: outInput() }, b.token), 'NOT_FOUND');

    const retailer = await createUser(t, ws, UserType.RETAILER);
    expectGraphqlError(await t.graphql(CHECK_IN, { input: inInput(outletId) }, retailer.token), 'FORBIDDEN');
    expectGraphqlError(await t.graphql(VISITS, {}, retailer.token), 'FORBIDDEN');
    const key = await createApiKey(t, ws, { scopes: 'write,visits' });
    expectGraphqlError(await t.graphql(CHECK_IN, { input: inInput(outletId) }, { apiKey: key.key }), 'FORBIDDEN');
    expect(expectGraphqlData(await t.graphql(VISITS, {}, { apiKey: key.key })).visits.pageInfo.total).toBe(2);
    const elsewhere = await createApiKey(t, ws, { scopes: 'read,tracking' });
    expectGraphqlError(await t.graphql(VISITS, {}, { apiKey: elsewhere.key }), 'FORBIDDEN');

    const stranger = await createWorkspace(t);
    expectGraphqlError(await t.graphql(VISIT, { id: va.id }, stranger.token), 'NOT_FOUND', `Visit ${va.id} not found`);
    expectGraphqlError(await t.graphql(ABANDON, { id: va.id }, stranger.token), 'NOT_FOUND');
    expect(expectGraphqlData(await t.graphql(VISITS, {}, stranger.token)).visits.pageInfo.total).toBe(0);
    expect(expectGraphqlData(await t.graphql(VISIT, { id: va.id }, a.token)).visit.status).toBe('IN_PROGRESS');
  });

  it('sets the workspace’s visit radius and minimum dwell', async () => {
    const ws = await createWorkspace(t);
    expect(expectGraphqlData(await t.graphql('{ workspaceConfig { visitRadiusM visitMinDwellMinutes } }', {}, ws.token)).workspaceConfig).toEqual({ visitRadiusM: 100, visitMinDwellMinutes: 2 });
    const set = `mutation ($r: Int, $d: Int) { updateWorkspaceConfig(input: { visitRadiusM: $r, visitMinDwellMinutes: $d }) { visitRadiusM visitMinDwellMinutes } }`;
    expectGraphqlError(await t.graphql(set, { r: 9 }, ws.token), 'BAD_USER_INPUT', 'visitRadiusM must be an integer from 10 to 5000');
    expectGraphqlError(await t.graphql(set, { d: 241 }, ws.token), 'BAD_USER_INPUT', 'visitMinDwellMinutes must be an integer from 0 to 240');
    expect(expectGraphqlData(await t.graphql(set, { r: 250, d: 0 }, ws.token)).updateWorkspaceConfig).toEqual({ visitRadiusM: 250, visitMinDwellMinutes: 0 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const FOC = 'id customerId requestedByUserId reason remarks totalCost status approvalId fulfilledOrderId fulfilledAt cancelledAt lines { productVariantId quantity unitCost amount }';
const APPROVAL = 'id kind entityId amount requestedByUserId status currentTier steps { tier approverUserId approverRoleId status actedByUserId delegatedFromUserId comment }';
const SUBMIT = `mutation ($input: SubmitFocInput!) { submitFocRequest(input: $input) { ${FOC} } }`;
const FULFIL = `mutation ($id: Int!) { fulfilFocRequest(id: $id) { ${FOC} } }`;
const CANCEL = `mutation ($id: Int!) { cancelFocRequest(id: $id) { ${FOC} } }`;
const GET_FOC = `query ($id: Int!) { focRequest(id: $id) { ${FOC} } }`;
const LIST_FOC = `query ($status: FocStatus, $reason: FocReason, $customerId: Int, $dateFrom: String, $dateTo: String) {
  focRequests(status: $status, reason: $reason, customerId: $customerId, dateFrom: $dateFrom, dateTo: $dateTo, limit: 100) { nodes { id } pageInfo { total } } }`;
const INBOX = `query { approvalInbox(limit: 100) { nodes { ${APPROVAL} } pageInfo { total } } }`;
const GET_APPROVAL = `query ($id: Int!) { approval(id: $id) { ${APPROVAL} } }`;
const APPROVE = `mutation ($id: Int!, $comment: String) { approveApproval(id: $id, comment: $comment) { ${APPROVAL} } }`;
const REJECT = `mutation ($id: Int!, $comment: String) { rejectApproval(id: $id, comment: $comment) { ${APPROVAL} } }`;
const SET_POLICY = `mutation ($kind: String!, $tiers: [ApprovalPolicyTierInput!]!) { setApprovalPolicy(kind: $kind, tiers: $tiers) { kind isDefault tiers { minAmount approverUserId approverRoleId } } }`;
const POLICY = `query ($kind: String!) { approvalPolicy(kind: $kind) { kind isDefault tiers { minAmount approverUserId approverRoleId } } }`;
const SET_DELEGATE = `mutation ($userId: Int!, $delegateUserId: Int) { setApprovalDelegate(userId: $userId, delegateUserId: $delegateUserId) { userId delegateUserId } }`;

/** FOC requests and approvals over GraphQL: the same services as REST. */
describe('foc and approvals (GraphQL)', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  let manager: { id: number; token: string };
  let employee: { id: number; token: string };
  let stand: { id: number; token: string };
  let admin2: { id: number; token: string };
  const gql = (query: string, variables: Record<string, unknown>, credential: string | { apiKey: string }) => t.graphql(query, variables, credential);
  const input = (quantity: number, extra: object = {}) => ({ customerId: cat.distributorId, reason: 'SAMPLE', items: [{ productVariantId: cat.variantIds[1], quantity }], ...extra });
  const submit = async (token: string, quantity: number) => expectGraphqlData(await gql(SUBMIT, { input: input(quantity) }, token)).submitFocRequest;
  const inbox = async (token: string) => expectGraphqlData(await gql(INBOX, {}, token)).approvalInbox.nodes.map((a: { id: number }) => a.id);
  const today = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    manager = await createUser(t, ws, UserType.EMPLOYEE);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    stand = await createUser(t, ws, UserType.EMPLOYEE);
    admin2 = await createUser(t, ws, UserType.ADMIN);
  });
  afterAll(() => t.close());

  it('runs the default policy: submit, approve by another admin, fulfil once as a zero-priced order', async () => {
    expect(expectGraphqlData(await gql(POLICY, { kind: 'foc' }, ws.token)).approvalPolicy).toEqual({ kind: 'foc', isDefault: true, tiers: [{ minAmount: 0, approverUserId: null, approverRoleId: null }] });
    const foc = await submit(employee.token, 2);
    expect(foc).toMatchObject({ customerId: cat.distributorId, requestedByUserId: employee.id, reason: 'SAMPLE', totalCost: 110, status: 'SUBMITTED', lines: [{ productVariantId: cat.variantIds[1], quantity: 2, unitCost: 55, amount: 110 }] });
    expect(await inbox(admin2.token)).toContain(foc.approvalId);
    expectGraphqlError(await gql(FULFIL, { id: foc.id }, ws.token), 'CONFLICT');
    const approved = expectGraphqlData(await gql(APPROVE, { id: foc.approvalId, comment: 'fine' }, admin2.token)).approveApproval;
    expect(approved).toMatchObject({ kind: 'foc', entityId: foc.id, status: 'APPROVED', steps: [{ tier: 1, status: 'APPROVED', actedByUserId: admin2.id, comment: 'fine' }] });
    expectGraphqlError(await gql(APPROVE, { id: foc.approvalId }, ws.token), 'CONFLICT');
    expectGraphqlError(await gql(FULFIL, { id: foc.id }, employee.token), 'FORBIDDEN');
    const done = expectGraphqlData(await gql(FULFIL, { id: foc.id }, ws.token)).fulfilFocRequest;
    expect(done).toMatchObject({ status: 'FULFILLED', fulfilledOrderId: expect.any(Number) });
    const order = expectGraphqlData(await gql('query ($id: Int!) { order(id: $id) { totalAmount items { quantity unitPrice amount } } }', { id: done.fulfilledOrderId }, ws.token)).order;
    expect(order).toEqual({ totalAmount: 0, items: [{ quantity: 2, unitPrice: 0, amount: 0 }] });
    expectGraphqlError(await gql(FULFIL, { id: foc.id }, ws.token), 'CONFLICT');
    expectGraphqlError(await gql(CANCEL, { id: foc.id }, ws.token), 'CONFLICT');
  });

  it('applies thresholds: auto, one tier, two tiers; turns; rejection; a delegate while the approver is on leave', async () => {
    const policy = expectGraphqlData(
      await gql(SET_POLICY, { kind: 'foc', tiers: [{ minAmount: 100, approverUserId: manager.id }, { minAmount: 1000 }] }, ws.token),
    ).setApprovalPolicy;
    expect(policy).toMatchObject({ isDefault: false, tiers: [{ minAmount: 100, approverUserId: manager.id }, { minAmount: 1000, approverUserId: null }] });
    expect((await submit(employee.token, 1)).status).toBe('APPROVED');
    const one = await submit(employee.token, 2);
    expect(one.status).toBe('SUBMITTED');
    expect(await inbox(manager.token)).toContain(one.approvalId);
    expect(await inbox(ws.token)).not.toContain(one.approvalId);
    expectGraphqlError(await gql(APPROVE, { id: one.approvalId }, ws.token), 'CONFLICT');
    expect(expectGraphqlData(await gql(REJECT, { id: one.approvalId, comment: 'no' }, manager.token)).rejectApproval.status).toBe('REJECTED');
    expect(expectGraphqlData(await gql(GET_FOC, { id: one.id }, ws.token)).focRequest.status).toBe('REJECTED');

    const two = await submit(employee.token, 20);
    expect(expectGraphqlData(await gql(GET_APPROVAL, { id: two.approvalId }, ws.token)).approval.steps.map((s: { status: string }) => s.status)).toEqual(['PENDING', 'WAITING']);
    // The manager goes on leave today with a delegate: the delegate decides tier 1.
    expect(expectGraphqlData(await gql(SET_DELEGATE, { userId: manager.id, delegateUserId: stand.id }, manager.token)).setApprovalDelegate).toEqual({ userId: manager.id, delegateUserId: stand.id });
    expect(await inbox(stand.token)).not.toContain(two.approvalId);
    const leave = expectGraphqlData(
      await gql('mutation ($input: ApplyLeaveInput!) { applyLeave(input: $input) { id } }', { input: { leaveType: 'CASUAL', fromDate: today(), toDate: today(), reason: 'Away' } }, manager.token),
    ).applyLeave;
    expectGraphqlData(await gql('mutation ($id: Int!) { approveLeave(id: $id) { id } }', { id: leave.id }, ws.token));
    expect(await inbox(stand.token)).toContain(two.approvalId);
    const first = expectGraphqlData(await gql(APPROVE, { id: two.approvalId }, stand.token)).approveApproval;
    expect(first).toMatchObject({ status: 'PENDING', currentTier: 2, steps: [{ actedByUserId: stand.id, delegatedFromUserId: manager.id }, { status: 'PENDING' }] });
    expect(await inbox(admin2.token)).toContain(two.approvalId);
    expect(expectGraphqlData(await gql(APPROVE, { id: two.approvalId }, admin2.token)).approveApproval.status).toBe('APPROVED');
    expect(expectGraphqlData(await gql(GET_FOC, { id: two.id }, ws.token)).focRequest.status).toBe('APPROVED');
    expect(expectGraphqlData(await gql(CANCEL, { id: two.id }, employee.token)).cancelFocRequest.status).toBe('CANCELLED');
  });

  it('names the bad field, lists with filters, refuses customers, and hides another workspace', async () => {
    const bad = await gql(SUBMIT, { input: input(1, { items: [{ productVariantId: cat.variantIds[0], quantity: 1, unitCost: -1 }] }) }, ws.token);
    expectGraphqlError(bad, 'BAD_USER_INPUT');
    expect(JSON.stringify(bad.errors)).toContain('items[0].unitCost');
    const badPolicy = await gql(SET_POLICY, { kind: 'foc', tiers: [{ minAmount: 5 }, { minAmount: 1 }] }, ws.token);
    expectGraphqlError(badPolicy, 'BAD_USER_INPUT');
    expect(JSON.stringify(badPolicy.errors)).toContain('tiers[1].minAmount');
    const foc = await submit(ws.token, 1);
    const listed = expectGraphqlData(await gql(LIST_FOC, { reason: 'SAMPLE', customerId: cat.distributorId, dateFrom: today(), dateTo: today() }, ws.token)).focRequests;
    expect(listed.nodes.map((n: { id: number }) => n.id)).toContain(foc.id);
    expect(expectGraphqlData(await gql(LIST_FOC, { reason: 'PROMOTION' }, ws.token)).focRequests.pageInfo.total).toBe(0);
    expect(expectGraphqlData(await gql(LIST_FOC, {}, employee.token)).focRequests.nodes.every((n: { id: number }) => n.id !== foc.id)).toBe(true);
    expectGraphqlError(await gql(SUBMIT, { input: input(1) }, cat.distributorToken), 'FORBIDDEN');
    expectGraphqlError(await gql(INBOX, {}, cat.distributorToken), 'FORBIDDEN');
    expectGraphqlError(await gql(GET_APPROVAL, { id: foc.approvalId }, cat.distributorToken), 'FORBIDDEN');
    const key = await createApiKey(t, ws, { scopes: 'read,write,approvals' });
    expectGraphqlError(await gql(INBOX, {}, { apiKey: key.key }), 'FORBIDDEN');
    const other = await createWorkspace(t);
    expectGraphqlError(await gql(GET_FOC, { id: foc.id }, other.token), 'NOT_FOUND');
    expectGraphqlError(await gql(GET_APPROVAL, { id: foc.approvalId }, other.token), 'NOT_FOUND');
    expectGraphqlError(await gql(CANCEL, { id: foc.id }, other.token), 'NOT_FOUND');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createApiKey, createUser, createWorkspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const FIELDS = 'id leaveType fromDate toDate halfDay days reason status decidedAt decisionNote cancelledAt user { id } decidedBy { id }';
const APPLY = `mutation ($input: ApplyLeaveInput!) { applyLeave(input: $input) { ${FIELDS} } }`;
const APPROVE = `mutation ($id: Int!, $note: String) { approveLeave(id: $id, note: $note) { ${FIELDS} } }`;
const REJECT = `mutation ($id: Int!, $note: String) { rejectLeave(id: $id, note: $note) { ${FIELDS} } }`;
const CANCEL = `mutation ($id: Int!) { cancelLeave(id: $id) { ${FIELDS} } }`;
const LEAVE = `query ($id: Int!) { leave(id: $id) { ${FIELDS} } }`;
const LEAVES = `query ($userId: Int, $status: LeaveStatus, $leaveType: LeaveType, $dateFrom: String, $dateTo: String, $sort: [LeaveSort!]) {
  leaves(userId: $userId, status: $status, leaveType: $leaveType, dateFrom: $dateFrom, dateTo: $dateTo, sort: $sort) { nodes { id user { id } } pageInfo { total } } }`;

/** Leaves over GraphQL: the same service as REST, camelCase fields, enums for type and status. */
describe('leaves (GraphQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const day = (offset: number) => shiftDay(new Date().toISOString().slice(0, 10), offset);
  const input = (from: number, to = from, extra: object = {}) => ({ leaveType: 'CASUAL', fromDate: day(from), toDate: day(to), reason: 'Travel', ...extra });
  const gql = (query: string, variables: Record<string, unknown>, credential: string | { apiKey: string }) => t.graphql(query, variables, credential);

  it('applies, reads, approves, rejects and cancels', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const { applyLeave } = expectGraphqlData(await gql(APPLY, { input: input(2, 4, { leaveType: 'SICK' }) }, employee.token));
    expect(applyLeave).toEqual({
      id: expect.any(Number),
      leaveType: 'SICK',
      fromDate: day(2),
      toDate: day(4),
      halfDay: false,
      days: 3,
      reason: 'Travel',
      status: 'OPEN',
      decidedAt: null,
      decisionNote: null,
      cancelledAt: null,
      user: { id: employee.id },
      decidedBy: null,
    });
    expect(expectGraphqlData(await gql(LEAVE, { id: applyLeave.id }, employee.token)).leave).toEqual(applyLeave);
    const { approveLeave } = expectGraphqlData(await gql(APPROVE, { id: applyLeave.id, note: 'Get well' }, ws.token));
    expect(approveLeave).toMatchObject({ status: 'APPROVED', decisionNote: 'Get well', decidedBy: { id: ws.adminId }, decidedAt: expect.any(String) });
    expectGraphqlError(await gql(REJECT, { id: applyLeave.id }, ws.token), 'CONFLICT', `Leave ${applyLeave.id} is approved: only an open leave can be rejected`);
    expect(expectGraphqlData(await gql(CANCEL, { id: applyLeave.id }, employee.token)).cancelLeave).toMatchObject({ status: 'CANCELLED', cancelledAt: expect.any(String) });
    expectGraphqlError(await gql(CANCEL, { id: applyLeave.id }, employee.token), 'CONFLICT');

    const half = expectGraphqlData(await gql(APPLY, { input: input(2, 2, { halfDay: true }) }, employee.token)).applyLeave;
    expect(half).toMatchObject({ days: 0.5, halfDay: true, status: 'OPEN' });
    expect(expectGraphqlData(await gql(REJECT, { id: half.id }, ws.token)).rejectLeave).toMatchObject({ status: 'REJECTED', decisionNote: null });
  });

  it('answers bad input as BAD_USER_INPUT naming the camelCase field, and records nothing', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    for (const [variables, message] of [
      [input(5, 4), 'toDate must not be before fromDate'],
      [input(1, 61), /^toDate must be at most 60 days from fromDate/],
      [input(1, 2, { halfDay: true }), 'halfDay is only allowed for a one-day leave (fromDate = toDate)'],
      [input(1, 1, { reason: ' ' }), 'reason is required'],
      [input(1, 1, { reason: 'x'.repeat(501) }), 'reason must be at most 500 characters'],
      [input(1, 1, { fromDate: '2026-02-30' }), 'fromDate must be a date in the form YYYY-MM-DD'],
      [input(400), /^fromDate must be within 365 days of today/],
      [input(1, 1, { userId: ws.adminId }), 'userId must be your own user id: employees apply for themselves'],
    ] as const) {
      expectGraphqlError(await gql(APPLY, { input: variables }, employee.token), 'BAD_USER_INPUT', message);
    }
    const wrongEnum = await gql(APPLY, { input: input(1, 1, { leaveType: 'HOLIDAY' }) }, employee.token);
    expect(wrongEnum.errors?.[0].message).toMatch(/leaveType/);
    const { applyLeave } = expectGraphqlData(await gql(APPLY, { input: input(1) }, employee.token));
    expectGraphqlError(await gql(APPROVE, { id: applyLeave.id, note: 'x'.repeat(501) }, ws.token), 'BAD_USER_INPUT', 'note must be at most 500 characters');
    expectGraphqlError(await gql(LEAVES, { dateFrom: day(2), dateTo: day(1) }, ws.token), 'BAD_USER_INPUT', 'dateFrom must not be after dateTo');
    const { leaves } = expectGraphqlData(await gql(LEAVES, {}, ws.token));
    expect(leaves.pageInfo.total).toBe(1);
    expect(expectGraphqlData(await gql(LEAVE, { id: applyLeave.id }, ws.token)).leave.status).toBe('OPEN');
  });

  it('refuses overlaps (CONFLICT), also when applications race', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const first = expectGraphqlData(await gql(APPLY, { input: input(10, 12) }, employee.token)).applyLeave;
    expectGraphqlError(await gql(APPLY, { input: input(12, 13) }, employee.token), 'CONFLICT', `Overlaps leave ${first.id} (${day(10)} to ${day(12)}, open) of user ${employee.id}`);
    const raced = await Promise.all(Array.from({ length: 6 }, (_, i) => gql(APPLY, { input: input(20 + i, 30) }, employee.token)));
    expect(raced.filter((r) => r.errors === undefined)).toHaveLength(1);
    for (const r of raced.filter((r) => r.errors !== undefined)) expect(r.errors?.[0].extensions?.code).toBe('CONFLICT');
  });

  it('keeps employees to their own, customers out, decisions to other admins’ sessions, and workspaces apart', async () => {
    const ws = await createWorkspace(t);
    const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    const retailer = await createUser(t, ws, UserType.RETAILER);
    const ofA = expectGraphqlData(await gql(APPLY, { input: input(1) }, a.token)).applyLeave;
    const ofB = expectGraphqlData(await gql(APPLY, { input: input(3, 4, { leaveType: 'EARNED' }) }, b.token)).applyLeave;
    const ofAdmin = expectGraphqlData(await gql(APPLY, { input: input(5, 5, { leaveType: 'UNPAID', userId: a.id }) }, ws.token)).applyLeave;
    expect(ofAdmin.user).toEqual({ id: a.id });
    const own = expectGraphqlData(await gql(APPLY, { input: input(7) }, ws.token)).applyLeave;

    const ids = async (variables: Record<string, unknown>, token: string) => expectGraphqlData(await gql(LEAVES, variables, token)).leaves.nodes.map((n: { id: number }) => n.id);
    expect(await ids({}, a.token)).toEqual([ofAdmin.id, ofA.id]);
    expect(await ids({}, ws.token)).toEqual([own.id, ofAdmin.id, ofB.id, ofA.id]);
    expect(await ids({ leaveType: 'EARNED' }, ws.token)).toEqual([ofB.id]);
    expect(await ids({ userId: b.id, status: 'OPEN' }, ws.token)).toEqual([ofB.id]);
    expect(await ids({ dateFrom: day(2), dateTo: day(5) }, ws.token)).toEqual([ofAdmin.id, ofB.id]);
    expect(await ids({ sort: [{ field: 'FROM_DATE', direction: 'ASC' }] }, ws.token)).toEqual([ofA.id, ofB.id, ofAdmin.id, own.id]);
    expectGraphqlError(await gql(LEAVE, { id: ofB.id }, a.token), 'NOT_FOUND', `Leave ${ofB.id} not found`);
    expectGraphqlError(await gql(CANCEL, { id: ofB.id }, a.token), 'NOT_FOUND');

    expectGraphqlError(await gql(LEAVES, {}, retailer.token), 'FORBIDDEN');
    expectGraphqlError(await gql(APPLY, { input: input(9) }, retailer.token), 'FORBIDDEN');
    expectGraphqlError(await gql(APPROVE, { id: ofA.id }, b.token), 'FORBIDDEN', 'Only workspace administrators may do this');
    expectGraphqlError(await gql(APPROVE, { id: own.id }, ws.token), 'FORBIDDEN', 'An administrator cannot approve or reject their own leave: another administrator decides it');
    const key = await createApiKey(t, ws, { scopes: 'read,write,leaves' });
    expectGraphqlError(await gql(REJECT, { id: ofA.id }, { apiKey: key.key }), 'FORBIDDEN');
    expectGraphqlError(await gql(APPLY, { input: input(9) }, { apiKey: key.key }), 'BAD_USER_INPUT', 'userId is required when an API key applies: whose leave it is');
    expect(expectGraphqlData(await gql(APPLY, { input: input(9, 9, { userId: b.id }) }, { apiKey: key.key })).applyLeave.user).toEqual({ id: b.id });
    const readOnly = await createApiKey(t, ws, { scopes: 'read,leaves' });
    expect(expectGraphqlData(await gql(LEAVES, {}, { apiKey: readOnly.key })).leaves.pageInfo.total).toBe(5);
    expectGraphqlError(await gql(CANCEL, { id: ofA.id }, { apiKey: readOnly.key }), 'FORBIDDEN');
    const elsewhere = await createApiKey(t, ws, { scopes: 'read,orders' });
    expectGraphqlError(await gql(LEAVES, {}, { apiKey: elsewhere.key }), 'FORBIDDEN');

    const other = await createWorkspace(t);
    for (const query of [LEAVE, APPROVE, REJECT, CANCEL]) expectGraphqlError(await gql(query, { id: ofA.id }, other.token), 'NOT_FOUND');
    expect(expectGraphqlData(await gql(LEAVES, {}, other.token)).leaves.pageInfo.total).toBe(0);
    expect(expectGraphqlData(await gql(LEAVE, { id: ofA.id }, ws.token)).leave.status).toBe('OPEN');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const FIELDS = 'id kind quantity occurredAt note ledgerEntryId recordedByApiKeyId reversesId reversedById customer { id } crateType { id name depositValue } order { id } recordedBy { id }';
const RECORD = `mutation ($input: RecordCrateMovementInput!) { recordCrateMovement(input: $input) { ${FIELDS} } }`;
const REVERSE = `mutation ($id: Int!, $note: String) { reverseCrateMovement(id: $id, note: $note) { ${FIELDS} } }`;
const MOVEMENT = `query ($id: Int!) { crateMovement(id: $id) { ${FIELDS} } }`;
const MOVEMENTS = `query ($customerId: Int, $crateTypeId: Int, $kind: CrateMovementKind, $orderId: Int, $dateFrom: String, $dateTo: String, $sort: [CrateMovementSort!]) {
  crateMovements(customerId: $customerId, crateTypeId: $crateTypeId, kind: $kind, orderId: $orderId, dateFrom: $dateFrom, dateTo: $dateTo, sort: $sort) { nodes { id quantity } pageInfo { total } } }`;
const BALANCES = `query ($customerId: Int, $crateTypeId: Int, $held: Boolean, $sort: [CrateBalanceSort!]) {
  crateBalances(customerId: $customerId, crateTypeId: $crateTypeId, held: $held, sort: $sort) {
    nodes { customerId crateTypeId balance outstandingValue oldestOutstandingAt oldestOutstandingAgeDays lastMovementAt customer { id } crateType { id name } }
    pageInfo { total } } }`;
const CREATE_TYPE = `mutation ($input: CrateTypeInput!) { createCrateType(input: $input) { id name depositValue status } }`;

/** Crates over GraphQL: the same service as REST, camelCase fields, an enum for the kind. */
describe('crates (GraphQL)', () => {
  let t: TestApp;
  let ws: Workspace;
  let customer: { id: number; token: string };
  let other: { id: number; token: string };
  let employee: { id: number; token: string };
  let order: number;

  const gql = (query: string, variables: Record<string, unknown>, credential: string | { apiKey: string } = ws.token) => t.graphql(query, variables, credential);
  const newType = async (depositValue = 80) =>
    expectGraphqlData(await gql(CREATE_TYPE, { input: { name: `Crate ${unique()}`, depositValue } })).createCrateType as { id: number; name: string };
  const move = async (input: Record<string, unknown>, credential: string | { apiKey: string } = ws.token) =>
    expectGraphqlData(await gql(RECORD, { input }, credential)).recordCrateMovement;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    customer = { id: catalog.distributorId, token: catalog.distributorToken };
    other = await createUser(t, ws, UserType.RETAILER);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    order = (await placeOrder(t, ws.token, { user_id: customer.id, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] })).id;
    for (const order_status of [2, 3, 4]) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${order}/status`, token: ws.token, payload: { order_status } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => t?.close());

  it('creates crate types as masters and records every kind, signed', async () => {
    const type = await newType(80.5);
    expect(type).toMatchObject({ depositValue: 80.5, status: 'ACTIVE' });
    const base = { customerId: customer.id, crateTypeId: type.id };
    const issue = await move({ ...base, kind: 'ISSUE', quantity: 12, orderId: order, note: 'Morning drop' }, employee.token);
    expect(issue).toEqual({
      id: expect.any(Number),
      kind: 'ISSUE',
      quantity: 12,
      occurredAt: expect.any(String),
      note: 'Morning drop',
      ledgerEntryId: null,
      recordedByApiKeyId: null,
      reversesId: null,
      reversedById: null,
      customer: { id: customer.id },
      crateType: { id: type.id, name: type.name, depositValue: 80.5 },
      order: { id: order },
      recordedBy: { id: employee.id },
    });
    const signs: Array<[string, number, number]> = [
      ['RETURN', 3, -3],
      ['DAMAGE', 1, -1],
      ['LOSS', 1, -1],
      ['COUNT_CORRECTION', -2, -2],
      ['COUNT_CORRECTION', 1, 1],
      ['OPENING_BALANCE', 4, 4],
    ];
    for (const [kind, quantity, signed] of signs) expect((await move({ ...base, kind, quantity })).quantity).toBe(signed);
    const { crateBalances } = expectGraphqlData(await gql(BALANCES, { crateTypeId: type.id }));
    expect(crateBalances.nodes).toEqual([
      {
        customerId: customer.id,
        crateTypeId: type.id,
        balance: 10,
        outstandingValue: 805,
        oldestOutstandingAt: expect.any(String),
        oldestOutstandingAgeDays: 0,
        lastMovementAt: expect.any(String),
        customer: { id: customer.id },
        crateType: { id: type.id, name: type.name },
      },
    ]);
    expect(expectGraphqlData(await gql(MOVEMENT, { id: issue.id })).crateMovement).toEqual(issue);
  });

  it('refuses over-returns (CONFLICT, also concurrent), reverses once, never a reversal', async () => {
    const type = await newType();
    const base = { customerId: other.id, crateTypeId: type.id };
    const issue = await move({ ...base, kind: 'ISSUE', quantity: 4 });
    expectGraphqlError(await gql(RECORD, { input: { ...base, kind: 'LOSS', quantity: 5 } }), 'CONFLICT', /holds 4 crates of type ".*": a loss of 5 would take more than that/);
    const raced = await Promise.all(Array.from({ length: 4 }, () => gql(RECORD, { input: { ...base, kind: 'RETURN', quantity: 3 } })));
    expect(raced.filter((r) => r.errors === undefined)).toHaveLength(1);
    for (const r of raced.filter((r) => r.errors !== undefined)) expect(r.errors?.[0].extensions?.code).toBe('CONFLICT');
    const returned = expectGraphqlData(await gql(MOVEMENTS, { crateTypeId: type.id, kind: 'RETURN' })).crateMovements.nodes[0];
    const reversal = expectGraphqlData(await gql(REVERSE, { id: returned.id, note: 'Wrong customer' })).reverseCrateMovement;
    expect(reversal).toMatchObject({ kind: 'REVERSAL', quantity: 3, reversesId: returned.id, note: 'Wrong customer' });
    expect(expectGraphqlData(await gql(MOVEMENT, { id: returned.id })).crateMovement.reversedById).toBe(reversal.id);
    expectGraphqlError(await gql(REVERSE, { id: returned.id }), 'CONFLICT', `Crate movement ${returned.id} was already reversed by movement ${reversal.id}`);
    expectGraphqlError(await gql(REVERSE, { id: reversal.id }), 'CONFLICT', /a reversal cannot be reversed/);
    expect(expectGraphqlData(await gql(REVERSE, { id: issue.id })).reverseCrateMovement.quantity).toBe(-4);
    expect(expectGraphqlData(await gql(BALANCES, { crateTypeId: type.id, held: true })).crateBalances.pageInfo.total).toBe(0);
  });

  it('answers bad input as BAD_USER_INPUT naming the camelCase field, and records nothing', async () => {
    const type = await newType();
    const base = { customerId: customer.id, crateTypeId: type.id, kind: 'ISSUE', quantity: 1 };
    for (const [input, message] of [
      [{ ...base, customerId: employee.id }, /^customerId does not name a customer/],
      [{ ...base, crateTypeId: 99_999_999 }, /^crateTypeId does not name a crate type/],
      [{ ...base, kind: 'REVERSAL' }, /^kind a reversal is recorded with/],
      [{ ...base, quantity: 0 }, /^quantity must be > 0/],
      [{ ...base, kind: 'COUNT_CORRECTION', quantity: 0 }, /^quantity a count correction/],
      [{ ...base, kind: 'RETURN', orderId: order }, 'orderId only an issue goes with a delivered order'],
      [{ ...base, customerId: other.id, orderId: order }, 'orderId is an order of another customer'],
      [{ ...base, occurredAt: new Date(Date.now() + 86_400_000).toISOString() }, 'occurredAt must not be in the future'],
      [{ ...base, note: 'x'.repeat(501) }, /^note must be at most 500 characters/],
    ] as const) {
      expectGraphqlError(await gql(RECORD, { input }), 'BAD_USER_INPUT', message);
    }
    expectGraphqlError(await gql(MOVEMENTS, { dateFrom: '2026-02-02', dateTo: '2026-02-01' }), 'BAD_USER_INPUT', 'dateFrom must not be after dateTo');
    expect(expectGraphqlData(await gql(MOVEMENTS, { crateTypeId: type.id })).crateMovements.pageInfo.total).toBe(0);
  });

  it('keeps customers to their own reads, refuses their writes, scopes keys, and keeps workspaces apart', async () => {
    const type = await newType();
    const mine = await move({ customerId: customer.id, crateTypeId: type.id, kind: 'ISSUE', quantity: 2 });
    const theirs = await move({ customerId: other.id, crateTypeId: type.id, kind: 'ISSUE', quantity: 5 });
    const ids = async (variables: Record<string, unknown>, credential: string | { apiKey: string }) =>
      expectGraphqlData(await gql(MOVEMENTS, variables, credential)).crateMovements.nodes.map((n: { id: number }) => n.id);
    expect(await ids({ crateTypeId: type.id }, customer.token)).toEqual([mine.id]);
    expect(await ids({ crateTypeId: type.id, customerId: other.id }, customer.token)).toEqual([]);
    expect(await ids({ crateTypeId: type.id, sort: [{ field: 'QUANTITY', direction: 'DESC' }] }, ws.token)).toEqual([theirs.id, mine.id]);
    expectGraphqlError(await gql(MOVEMENT, { id: theirs.id }, customer.token), 'NOT_FOUND');
    expectGraphqlError(await gql(RECORD, { input: { customerId: customer.id, crateTypeId: type.id, kind: 'RETURN', quantity: 1 } }, customer.token), 'FORBIDDEN');
    expectGraphqlError(await gql(REVERSE, { id: mine.id }, customer.token), 'FORBIDDEN');
    const { crateBalances } = expectGraphqlData(await gql(BALANCES, { crateTypeId: type.id }, customer.token));
    expect(crateBalances.nodes.map((b: { customerId: number }) => b.customerId)).toEqual([customer.id]);

    const key = await createApiKey(t, ws, { scopes: 'read,write,crates' });
    expect((await move({ customerId: other.id, crateTypeId: type.id, kind: 'RETURN', quantity: 1 }, { apiKey: key.key })).recordedByApiKeyId).toBe(key.id);
    const readOnly = await createApiKey(t, ws, { scopes: 'read,crates' });
    expect((await ids({ crateTypeId: type.id }, { apiKey: readOnly.key })).length).toBe(3);
    expectGraphqlError(await gql(REVERSE, { id: mine.id }, { apiKey: readOnly.key }), 'FORBIDDEN');
    const elsewhere = await createApiKey(t, ws, { scopes: 'read,write,orders' });
    expectGraphqlError(await gql(BALANCES, {}, { apiKey: elsewhere.key }), 'FORBIDDEN');

    const stranger = await createWorkspace(t);
    for (const query of [MOVEMENT, REVERSE]) expectGraphqlError(await gql(query, { id: mine.id }, stranger.token), 'NOT_FOUND');
    expect(expectGraphqlData(await gql(BALANCES, {}, stranger.token)).crateBalances.pageInfo.total).toBe(0);
    expect(expectGraphqlData(await gql(MOVEMENT, { id: mine.id })).crateMovement.reversedById).toBeNull();
  });
});

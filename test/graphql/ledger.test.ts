import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const ENTRY = 'id entryDate kind debit credit order payment reverses narration reference customer { id }';
const NOTE = `mutation ($input: LedgerNoteInput!) { postLedgerNote(input: $input) { ${ENTRY} } }`;
const OPENING = `mutation ($input: OpeningBalanceInput!) { postOpeningBalance(input: $input) { ${ENTRY} } }`;
const REVERSE = `mutation ($id: Int!, $reason: String!) { reverseLedgerEntry(id: $id, reason: $reason) { ${ENTRY} } }`;
const STATEMENT = `query ($customerId: Int, $from: String, $to: String, $page: Int, $limit: Int) { ledgerStatement(customerId: $customerId, from: $from, to: $to, page: $page, limit: $limit) {
  customerId from to openingBalance closingBalance totalDebit totalCredit rowCount page limit rows { id kind debit credit balance orderId reversesId } ageing { days0To7 days8To15 days16To30 over30Days advance } } }`;
const ENTRIES = `query ($customerId: Int, $kind: LedgerEntryKind, $sort: [LedgerEntrySort!]) { ledgerEntries(customerId: $customerId, kind: $kind, sort: $sort) { nodes { id kind debit credit } pageInfo { total } } }`;

/** The ledger over GraphQL: the same service and statement function as REST, camelCase fields, the kind enum. */
describe('ledger (GraphQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('posts, reverses, lists and states an account; refuses bad input, customers posting, and another workspace', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const order = await placeOrder(t, ws.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[1], quantity: 2 }] });
    for (const status of [2, 3, 4]) await t.request({ method: 'PATCH', url: `/api/v1/orders/${order.id}/status`, token: ws.token, payload: { order_status: status } });
    const customerId = catalog.retailerId;

    const { postLedgerNote: note } = expectGraphqlData(await t.graphql(NOTE, { input: { customerId, noteType: 'credit', amount: 10, narration: 'Leakage', reference: 'CN-7' } }, ws.token));
    expect(note).toMatchObject({ kind: 'CREDIT_NOTE', debit: 0, credit: 10, reference: 'CN-7', customer: { id: customerId }, reverses: null });
    const { postOpeningBalance: opening } = expectGraphqlData(await t.graphql(OPENING, { input: { customerId, amount: 40, asOf: '2026-01-01' } }, ws.token));
    expect(opening).toMatchObject({ kind: 'OPENING_BALANCE', debit: 40, entryDate: '2026-01-01' });
    const { reverseLedgerEntry: reversal } = expectGraphqlData(await t.graphql(REVERSE, { id: note.id, reason: 'Issued twice' }, ws.token));
    expect(reversal).toMatchObject({ kind: 'REVERSAL', debit: 10, credit: 0, reverses: note.id });

    const { ledgerStatement: s } = expectGraphqlData(await t.graphql(STATEMENT, { customerId, from: '2026-01-02' }, ws.token));
    // 40 opening before `from`; then the order's 110, the note's −10 and its reversal's +10.
    expect(s).toMatchObject({ customerId, from: '2026-01-02', openingBalance: 40, totalDebit: 120, totalCredit: 10, closingBalance: 150 });
    expect(s.rows.map((r: { kind: string; balance: number }) => [r.kind, r.balance])).toEqual([
      ['ORDER', 150],
      ['CREDIT_NOTE', 140],
      ['REVERSAL', 150],
    ]);
    expect(s.ageing.advance).toBe(0);
    expect(s).toMatchObject({ rowCount: 3, page: 1, limit: 20 });
    // A page of the rows: the same figures, the running balance carried.
    const { ledgerStatement: second } = expectGraphqlData(await t.graphql(STATEMENT, { customerId, from: '2026-01-02', page: 2, limit: 2 }, ws.token));
    expect(second).toMatchObject({ openingBalance: 40, closingBalance: 150, rowCount: 3, page: 2, limit: 2, rows: [{ kind: 'REVERSAL', balance: 150 }] });
    expectGraphqlError(await t.graphql(STATEMENT, { customerId, limit: 500 }, ws.token), 'BAD_USER_INPUT', /^limit /);

    const { ledgerEntries } = expectGraphqlData(await t.graphql(ENTRIES, { customerId, sort: [{ field: 'ID', direction: 'ASC' }] }, ws.token));
    expect(ledgerEntries.pageInfo.total).toBe(4);
    expect(ledgerEntries.nodes.map((e: { kind: string }) => e.kind)).toEqual(['ORDER', 'CREDIT_NOTE', 'OPENING_BALANCE', 'REVERSAL']);

    expectGraphqlError(await t.graphql(NOTE, { input: { customerId, noteType: 'credit', amount: -1, narration: 'x' } }, ws.token), 'BAD_USER_INPUT', /^amount /);
    expectGraphqlError(await t.graphql(NOTE, { input: { customerId, noteType: 'refund', amount: 1, narration: 'x' } }, ws.token), 'BAD_USER_INPUT', /^noteType /);
    expectGraphqlError(await t.graphql(STATEMENT, {}, ws.token), 'BAD_USER_INPUT', /^customerId /);
    expectGraphqlError(await t.graphql(REVERSE, { id: note.id, reason: 'Again' }, ws.token), 'CONFLICT');

    const retailer = await createUser(t, ws, UserType.RETAILER);
    expectGraphqlError(await t.graphql(NOTE, { input: { customerId: retailer.id, noteType: 'credit', amount: 1, narration: 'x' } }, retailer.token), 'FORBIDDEN');
    expect(expectGraphqlData(await t.graphql(STATEMENT, {}, retailer.token)).ledgerStatement).toMatchObject({ customerId: retailer.id, closingBalance: 0 });

    const reader = await createApiKey(t, ws, { scopes: 'read,ledger' });
    expect(expectGraphqlData(await t.graphql(STATEMENT, { customerId }, { apiKey: reader.key })).ledgerStatement.closingBalance).toBe(150);

    const other = await createWorkspace(t);
    expectGraphqlError(await t.graphql(`query ($id: Int!) { ledgerEntry(id: $id) { id } }`, { id: note.id }, other.token), 'NOT_FOUND');
    expectGraphqlError(await t.graphql(STATEMENT, { customerId }, other.token), 'BAD_USER_INPUT', /^customerId /);
  });
});

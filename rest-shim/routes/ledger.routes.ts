import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { created, ok, pagedRecord, paginated } from '../envelope';
import { exportRoute } from '../export-route';
import { LEDGER_KIND_TEXT, LedgerEntryBody, LedgerStatementBody, presentLedgerEntry, presentStatement } from '../presenters/ledger.presenter';
import { createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pagedRecordResponse, PageQuery, pageRequestOf } from '../schemas';
import { LEDGER_ENTRY_KINDS } from '../../src/domains/ledger/ledger-entry.entity';
import { LEDGER_ENTRY_SORT, NOTE_TYPES } from '../../src/domains/ledger/ledger.service';
import { ledgerExport } from '../../src/domains/ledger/ledger.export';

const Id = Type.Integer({ minimum: 1 });

const StatementQuery = Type.Object({
  customer_id: Type.Optional({ ...Id, description: 'Required for staff and API keys; a customer reads their own' }),
  from: Type.Optional({ ...DateString, description: 'First day, YYYY-MM-DD (default: the 1st of to’s month)' }),
  to: Type.Optional({ ...DateString, description: 'Last day (default: today, the workspace’s local day)' }),
  ...PageQuery,
});

const EntryQuery = listQuery(
  {
    customer_id: Type.Optional(Id),
    kind: Type.Optional(Type.Integer({ enum: LEDGER_ENTRY_KINDS, description: LEDGER_KIND_TEXT })),
    date_from: Type.Optional({ ...DateString, description: 'Rows on or after it' }),
    date_to: Type.Optional({ ...DateString, description: 'Rows on or before it' }),
    order_id: Type.Optional(Id),
    payment_id: Type.Optional(Id),
  },
  { sort: LEDGER_ENTRY_SORT },
);

const NoteBody = Type.Object({
  customer_id: { ...Id, description: 'A customer (distributor or retailer) of the workspace' },
  note_type: Type.String({ enum: [...NOTE_TYPES], description: 'credit (lowers what the customer owes) or debit (raises it)' }),
  amount: Type.Number({ description: 'Greater than 0, at most two decimals' }),
  entry_date: Type.Optional({ ...DateString, description: 'Not after today (default: today)' }),
  reference: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  narration: Type.String({ maxLength: 500, description: 'Why: required' }),
});

const OpeningBody = Type.Object({
  customer_id: Id,
  amount: Type.Number({ description: 'Positive: the customer owes; negative: the customer is in credit; not 0' }),
  as_of: { ...DateString, description: 'The day it counts on, not after today' },
  narration: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
});

const ReverseBody = Type.Object({ reason: Type.String({ maxLength: 500, description: 'Required' }) });

/** The ledger: statements, rows, notes, opening balances and reversals (see the README's API notes). */
export const ledgerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Ledger'];

  app.get(
    '/ledger/statement',
    {
      schema: {
        tags,
        summary:
          'A customer’s statement of account: opening balance, a page of the rows with a running balance, closing balance and ageing (staff and keys: any customer; a customer: their own)',
        querystring: StatementQuery,
        response: pagedRecordResponse(LedgerStatementBody),
      },
    },
    async (request) => {
      const q = request.query;
      const statement = await app.services.ledger.statement(request.ctx, { customerId: q.customer_id, from: q.from, to: q.to }, { page: q.page, limit: q.limit });
      return pagedRecord(presentStatement(statement), { total: statement.rowCount, page: statement.page, limit: statement.limit });
    },
  );

  app.get(
    '/ledger/entries',
    { schema: { tags, summary: 'Ledger rows, newest day first (customers: their own)', querystring: EntryQuery, response: listResponse(LedgerEntryBody) } },
    async (request) => {
      const q = request.query;
      const filter = { customerId: q.customer_id, kind: q.kind, dateFrom: q.date_from, dateTo: q.date_to, orderId: q.order_id, paymentId: q.payment_id };
      return paginated(await app.services.ledger.list(request.ctx, filter, pageRequestOf(q)), presentLedgerEntry);
    },
  );

  app.get(
    '/ledger/entries/:id',
    { schema: { tags, summary: 'One ledger row (customers: their own)', params: IdParams, response: okResponse(LedgerEntryBody) } },
    async (request) => ok(presentLedgerEntry(await app.services.ledger.get(request.ctx, request.params.id))),
  );

  app.post(
    '/ledger/notes',
    { schema: { tags, summary: 'Post a credit or debit note (administrators and API keys)', body: NoteBody, response: createdResponse(LedgerEntryBody) } },
    async (request, reply) => {
      const b = request.body;
      const entry = await app.services.ledger.postNote(request.ctx, {
        customerId: b.customer_id,
        noteType: b.note_type,
        amount: b.amount,
        entryDate: b.entry_date,
        reference: b.reference,
        narration: b.narration,
      });
      return reply.code(201).send(created('Note posted', presentLedgerEntry(entry)));
    },
  );

  app.post(
    '/ledger/opening-balances',
    { schema: { tags, summary: 'Post a customer’s opening balance, once while it stands (administrators and API keys)', body: OpeningBody, response: createdResponse(LedgerEntryBody) } },
    async (request, reply) => {
      const b = request.body;
      const entry = await app.services.ledger.postOpeningBalance(request.ctx, { customerId: b.customer_id, amount: b.amount, asOf: b.as_of, narration: b.narration });
      return reply.code(201).send(created('Opening balance posted', presentLedgerEntry(entry)));
    },
  );

  app.post(
    '/ledger/entries/:id/reverse',
    {
      schema: {
        tags,
        summary: 'Reverse a note or an opening balance with a row on the other side, once (administrators and API keys)',
        params: IdParams,
        body: ReverseBody,
        response: createdResponse(LedgerEntryBody),
      },
    },
    async (request, reply) => {
      const entry = await app.services.ledger.reverse(request.ctx, request.params.id, request.body.reason);
      return reply.code(201).send(created('Entry reversed', presentLedgerEntry(entry)));
    },
  );

  exportRoute(app, {
    source: ledgerExport,
    summary: 'A customer’s statement of account as XLSX, PDF or CSV: the statement’s rows with running balance, opening and closing rows, balances and ageing on the title lines (administrators and API keys)',
    query: {
      customer_id: { ...Id, description: 'Required: a customer (distributor or retailer) of the workspace' },
      from: Type.Optional({ ...DateString, description: 'First day (default: the 1st of to’s month)' }),
      to: Type.Optional({ ...DateString, description: 'Last day (default: today, the workspace’s local day)' }),
    },
    filters: (q) => ({ customerId: q.customer_id, from: q.from, to: q.to }),
  });
};

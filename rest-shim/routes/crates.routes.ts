import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CRATE_BALANCE_SORT } from '../../src/domains/crates/crate-balances';
import { CRATE_MOVEMENT_KINDS } from '../../src/domains/crates/crate-movement.entity';
import { MAX_CRATE_NOTE, MAX_CRATE_QUANTITY, RECORDABLE_KINDS } from '../../src/domains/crates/crate-rules';
import { CRATE_MOVEMENT_SORT } from '../../src/domains/crates/crate.service';
import { changed, created, ok, paginated } from '../envelope';
import { CRATE_KIND_TEXT, CrateBalanceBody, CrateMovementBody, presentCrateBalance, presentCrateMovement } from '../presenters/crate.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf, Timestamp } from '../schemas';

const MovementBody = Type.Object({
  customer_id: Type.Integer({ minimum: 1, description: 'A distributor or retailer of the workspace' }),
  crate_type_id: Type.Integer({ minimum: 1 }),
  kind: Type.Integer({ enum: RECORDABLE_KINDS, description: `${CRATE_KIND_TEXT} (a reversal: POST /crates/movements/{id}/reverse)` }),
  quantity: Type.Integer({
    minimum: -MAX_CRATE_QUANTITY,
    maximum: MAX_CRATE_QUANTITY,
    description: 'Crates, > 0 (the kind gives the sign); a count correction (5): the signed difference from the balance, not 0',
  }),
  order_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'An issue only: the delivered order of this customer the crates went with' }))),
  occurred_at: Type.Optional(Nullable({ ...Timestamp, description: 'When the crates moved (ISO 8601); default now, never in the future' })),
  note: Type.Optional(Nullable(Type.String({ maxLength: MAX_CRATE_NOTE }))),
  charge: Type.Optional(Nullable(Type.Boolean({ description: 'A damage (3) or loss (4) only: charge the customer the crate type’s deposit value per crate, as a ledger debit (default false)' }))),
});

const ReverseBody = Type.Object({ note: Type.Optional(Nullable(Type.String({ maxLength: MAX_CRATE_NOTE }))) });

const MovementQuery = listQuery(
  {
    customer_id: Type.Optional(Type.Integer({ minimum: 1 })),
    crate_type_id: Type.Optional(Type.Integer({ minimum: 1 })),
    kind: Type.Optional(Type.Integer({ enum: CRATE_MOVEMENT_KINDS, description: CRATE_KIND_TEXT })),
    order_id: Type.Optional(Type.Integer({ minimum: 1 })),
    date_from: Type.Optional({ ...DateString, description: 'YYYY-MM-DD, the workspace’s local day: movements that occurred on or after it' }),
    date_to: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: movements that occurred on or before it' }),
  },
  { sort: CRATE_MOVEMENT_SORT },
);

const BalanceQuery = listQuery(
  {
    customer_id: Type.Optional(Type.Integer({ minimum: 1 })),
    crate_type_id: Type.Optional(Type.Integer({ minimum: 1 })),
    held: Type.Optional(Type.Boolean({ description: 'Only balances above 0 (default false: every customer and type with a movement)' })),
  },
  { sort: CRATE_BALANCE_SORT },
);

/** Crates: movements (record, reverse, list, read) and balances (see the README's API notes). */
export const crateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Crates'];
  const emptyBody = async (request: { body: unknown }) => {
    request.body ??= {};
  };

  app.post(
    '/crates/movements',
    {
      schema: {
        tags,
        summary: 'Record a crate movement (staff and API keys); 409 when it takes more than the customer holds',
        body: MovementBody,
        response: createdResponse(CrateMovementBody),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const movement = await app.services.crates.record(request.ctx, {
        customerId: b.customer_id,
        crateTypeId: b.crate_type_id,
        kind: b.kind,
        quantity: b.quantity,
        orderId: b.order_id,
        occurredAt: b.occurred_at,
        note: b.note,
        charge: b.charge,
      });
      return reply.code(201).send(created('Crate movement recorded', presentCrateMovement(movement)));
    },
  );

  app.get(
    '/crates/movements',
    { schema: { tags, summary: 'Crate movements, latest first (a customer: their own)', querystring: MovementQuery, response: listResponse(CrateMovementBody) } },
    async (request) => {
      const q = request.query;
      const filter = { customerId: q.customer_id, crateTypeId: q.crate_type_id, kind: q.kind, orderId: q.order_id, dateFrom: q.date_from, dateTo: q.date_to };
      return paginated(await app.services.crates.listMovements(request.ctx, filter, pageRequestOf(q)), presentCrateMovement);
    },
  );

  app.get(
    '/crates/movements/:id',
    { schema: { tags, summary: 'One crate movement (a customer: their own)', params: IdParams, response: okResponse(CrateMovementBody) } },
    async (request) => ok(presentCrateMovement(await app.services.crates.getMovement(request.ctx, request.params.id))),
  );

  app.post(
    '/crates/movements/:id/reverse',
    {
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'Reverse a crate movement once (staff and API keys): a reversal row with its negated quantity; a reversal cannot be reversed',
        params: IdParams,
        body: ReverseBody,
        response: changedResponse(CrateMovementBody),
      },
    },
    async (request) => changed('Crate movement reversed', presentCrateMovement(await app.services.crates.reverse(request.ctx, request.params.id, request.body.note))),
  );

  app.get(
    '/crates/balances',
    {
      schema: {
        tags,
        summary: 'Crate balances per customer and type with the age of the oldest outstanding crates, oldest first (a customer: their own)',
        querystring: BalanceQuery,
        response: listResponse(CrateBalanceBody),
      },
    },
    async (request) => {
      const q = request.query;
      return paginated(await app.services.crates.listBalances(request.ctx, { customerId: q.customer_id, crateTypeId: q.crate_type_id, held: q.held }, pageRequestOf(q)), presentCrateBalance);
    },
  );
};

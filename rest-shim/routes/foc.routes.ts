import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import { FOC_REASON_TEXT, FOC_STATUS_TEXT, FocBody, presentFoc } from '../presenters/foc.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';
import { FOC_REASONS, FOC_STATUSES } from '../../src/domains/foc/foc.entity';
import { FOC_SORT, MAX_FOC_REMARKS } from '../../src/domains/foc/foc.service';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from '../../src/domains/orders/order-pricing';

const SubmitBody = Type.Object({
  customer_id: Type.Integer({ minimum: 1, description: 'An active distributor or retailer' }),
  reason: Type.Integer({ enum: FOC_REASONS, description: FOC_REASON_TEXT }),
  remarks: Type.Optional(Nullable(Type.String({ maxLength: MAX_FOC_REMARKS }))),
  items: Type.Array(
    Type.Object({
      product_variant_id: Type.Integer({ minimum: 1 }),
      quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }),
      unit_cost: Type.Optional(Nullable(Type.Number({ minimum: 0, description: "Cost of one unit (default: the variant's selling price)" }))),
    }),
    { minItems: 1, maxItems: MAX_ORDER_LINES },
  ),
});

const FocQuery = listQuery(
  {
    status: Type.Optional(Type.Integer({ enum: FOC_STATUSES, description: FOC_STATUS_TEXT })),
    customer_id: Type.Optional(Type.Integer({ minimum: 1 })),
    reason: Type.Optional(Type.Integer({ enum: FOC_REASONS, description: FOC_REASON_TEXT })),
    date_from: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: created on or after this local day' }),
    date_to: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: created on or before this local day' }),
  },
  { sort: FOC_SORT },
);

/** FOC requests: submit, list, read, cancel, fulfil (see the README's API notes). */
export const focRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['FOC requests'];

  app.post(
    '/foc/requests',
    { schema: { tags, summary: 'Submit a FOC request (staff); asks for its approval', body: SubmitBody, response: createdResponse(FocBody) } },
    async (request, reply) => {
      const b = request.body;
      const read = await app.services.foc.submit(request.ctx, {
        customerId: b.customer_id,
        reason: b.reason,
        remarks: b.remarks,
        items: b.items.map((i) => ({ productVariantId: i.product_variant_id, quantity: i.quantity, unitCost: i.unit_cost })),
      });
      return reply.code(201).send(created('FOC request submitted', presentFoc(read)));
    },
  );

  app.get(
    '/foc/requests',
    { schema: { tags, summary: 'FOC requests, newest first (staff; employees see their own)', querystring: FocQuery, response: listResponse(FocBody) } },
    async (request) => {
      const q = request.query;
      const filter = { status: q.status, customerId: q.customer_id, reason: q.reason, dateFrom: q.date_from, dateTo: q.date_to };
      return paginated(await app.services.foc.list(request.ctx, filter, pageRequestOf(q)), presentFoc);
    },
  );

  app.get(
    '/foc/requests/:id',
    { schema: { tags, summary: 'One FOC request (employees: their own)', params: IdParams, response: okResponse(FocBody) } },
    async (request) => ok(presentFoc(await app.services.foc.get(request.ctx, request.params.id))),
  );

  app.post(
    '/foc/requests/:id/cancel',
    { schema: { tags, summary: 'Cancel a submitted or approved request (the requester or an admin)', params: IdParams, response: changedResponse(FocBody) } },
    async (request) => changed('FOC request cancelled', presentFoc(await app.services.foc.cancel(request.ctx, request.params.id))),
  );

  app.post(
    '/foc/requests/:id/fulfil',
    { schema: { tags, summary: 'Fulfil an approved request once (admins): a zero-priced order, linked', params: IdParams, response: changedResponse(FocBody) } },
    async (request) => changed('FOC request fulfilled', presentFoc(await app.services.foc.fulfil(request.ctx, request.params.id))),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import { presentVisit, VisitBody } from '../presenters/visit.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';
import { VISIT_SORT } from '../../src/domains/visits/visit.service';

const MAX_ID = 2_147_483_647;
const id = (description?: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...(description ? { description } : {}) });

/** Where and when the device was, at a check-in or check-out. */
const POINT = {
  device_time: Type.String({ format: 'date-time', description: 'The device’s time, ISO 8601 with an offset; at most 5 minutes ahead of the server' }),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  accuracy_m: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100_000, description: 'Metres' }))),
  is_mock: Type.Optional(Nullable(Type.Boolean({ description: 'The device reported a mock location' }))),
};

const CheckInBody = Type.Object({
  client_ref: Type.String({ maxLength: 64, description: 'A UUID the device generated for the visit: sent again, it answers the first visit (200)' }),
  outlet_id: id('An active outlet of the workspace'),
  ...POINT,
});

const CheckOutBody = Type.Object({
  ...POINT,
  outcome: Type.Integer({ enum: [1, 2, 3, 4], description: '1 order (order_id), 2 no_sale (no_sale_reason_id), 3 collection_only, 4 phone_call' }),
  order_id: Type.Optional(Nullable(id('Outcome 1: a non-cancelled order you created'))),
  no_sale_reason_id: Type.Optional(Nullable(id('Outcome 2: an active no-sale reason'))),
  remarks: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
});

const VisitQuery = listQuery(
  {
    user_id: Type.Optional(id('Only this user’s visits (employees: only their own)')),
    outlet_id: Type.Optional(id()),
    date: Type.Optional(DateString),
    status: Type.Optional(Type.Integer({ enum: [1, 2, 3, 4], description: '2 in_progress, 3 completed, 4 abandoned (1 planned: none stored)' })),
    outcome: Type.Optional(Type.Integer({ enum: [1, 2, 3, 4], description: '1 order, 2 no_sale, 3 collection_only, 4 phone_call' })),
  },
  { sort: VISIT_SORT },
);

/** Visits: check-in, check-out, abandon and the list (extension resources; see the README's "Visits"). */
export const visitRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Visits'];

  app.post(
    '/visits/check-in',
    {
      schema: {
        tags,
        summary: 'Check in on an outlet (signed-in staff); 201, or 200 with the first visit when its client_ref was sent before; 409 while another visit is in progress',
        body: CheckInBody,
        response: { ...createdResponse(VisitBody), ...changedResponse(VisitBody) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const { read, created: isNew } = await app.services.visits.checkIn(request.ctx, {
        clientRef: b.client_ref,
        outletId: b.outlet_id,
        deviceTime: b.device_time,
        latitude: b.latitude,
        longitude: b.longitude,
        accuracyM: b.accuracy_m,
        isMock: b.is_mock,
      });
      if (!isNew) return reply.code(200).send(changed('Already checked in with this client_ref', presentVisit(read)));
      return reply.code(201).send(created('Checked in', presentVisit(read)));
    },
  );

  app.post(
    '/visits/:id/check-out',
    {
      schema: {
        tags,
        summary: 'Check out of your visit with its outcome; geo-verification is decided here; 409 when not in progress',
        params: IdParams,
        body: CheckOutBody,
        response: changedResponse(VisitBody),
      },
    },
    async (request) => {
      const b = request.body;
      const read = await app.services.visits.checkOut(request.ctx, request.params.id, {
        deviceTime: b.device_time,
        latitude: b.latitude,
        longitude: b.longitude,
        accuracyM: b.accuracy_m,
        isMock: b.is_mock,
        outcome: b.outcome,
        orderId: b.order_id,
        noSaleReasonId: b.no_sale_reason_id,
        remarks: b.remarks,
      });
      return changed('Checked out', presentVisit(read));
    },
  );

  app.post(
    '/visits/:id/abandon',
    { schema: { tags, summary: 'Abandon a visit in progress (its visitor or an admin); 409 otherwise', params: IdParams, response: changedResponse(VisitBody) } },
    async (request) => changed('Visit abandoned', presentVisit(await app.services.visits.abandon(request.ctx, request.params.id))),
  );

  app.get(
    '/visits',
    { schema: { tags, summary: 'Visits, newest check-in first (staff; employees see their own)', querystring: VisitQuery, response: listResponse(VisitBody) } },
    async (request) => {
      const q = request.query;
      const page = await app.services.visits.list(
        request.ctx,
        { userId: q.user_id, outletId: q.outlet_id, date: q.date, status: q.status, outcome: q.outcome },
        pageRequestOf(q),
      );
      return paginated(page, presentVisit);
    },
  );

  app.get(
    '/visits/:id',
    { schema: { tags, summary: 'One visit (employees: their own)', params: IdParams, response: okResponse(VisitBody) } },
    async (request) => ok(presentVisit(await app.services.visits.get(request.ctx, request.params.id))),
  );
};

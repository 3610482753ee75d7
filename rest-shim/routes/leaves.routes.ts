import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import { LEAVE_STATUS_TEXT, LEAVE_TYPE_TEXT, LeaveBody, presentLeave } from '../presenters/leave.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';
import { LEAVE_STATUSES, LEAVE_TYPES } from '../../src/domains/leaves/leave.entity';
import { MAX_LEAVE_SPAN_DAYS, MAX_LEAVE_TEXT } from '../../src/domains/leaves/leave-rules';
import { LEAVE_SORT } from '../../src/domains/leaves/leave.service';

const ApplyBody = Type.Object({
  user_id: Type.Optional(Type.Integer({ minimum: 1, description: "Whose leave: default the signed-in user's own; admins and API keys may name any active employee or admin (keys must)" })),
  leave_type: Type.Integer({ enum: LEAVE_TYPES, description: LEAVE_TYPE_TEXT }),
  from_date: { ...DateString, description: 'YYYY-MM-DD, the workspace’s local day; within 365 days of today' },
  to_date: { ...DateString, description: `YYYY-MM-DD, inclusive, not before from_date; at most ${MAX_LEAVE_SPAN_DAYS} days from it` },
  half_day: Type.Optional(Type.Boolean({ description: 'Half a day; only when from_date = to_date (default false)' })),
  reason: Type.String({ maxLength: MAX_LEAVE_TEXT }),
});

const DecisionBody = Type.Object({ note: Type.Optional(Nullable(Type.String({ maxLength: MAX_LEAVE_TEXT }))) });

const LeaveQuery = listQuery(
  {
    user_id: Type.Optional(Type.Integer({ minimum: 1 })),
    status: Type.Optional(Type.Integer({ enum: LEAVE_STATUSES, description: LEAVE_STATUS_TEXT })),
    leave_type: Type.Optional(Type.Integer({ enum: LEAVE_TYPES, description: LEAVE_TYPE_TEXT })),
    date_from: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: leaves with a day on or after it' }),
    date_to: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: leaves with a day on or before it' }),
  },
  { sort: LEAVE_SORT },
);

/** Leaves: apply, list, read, approve, reject, cancel (see the README's API notes). */
export const leaveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Leaves'];
  // The decision's body is optional: without one, no note.
  const emptyBody = async (request: { body: unknown }) => {
    request.body ??= {};
  };

  app.post(
    '/leaves',
    { schema: { tags, summary: 'Apply for leave (staff; employees for themselves); open until an admin decides', body: ApplyBody, response: createdResponse(LeaveBody) } },
    async (request, reply) => {
      const b = request.body;
      const leave = await app.services.leaves.apply(request.ctx, {
        userId: b.user_id,
        leaveType: b.leave_type,
        fromDate: b.from_date,
        toDate: b.to_date,
        halfDay: b.half_day,
        reason: b.reason,
      });
      return reply.code(201).send(created('Leave applied', presentLeave(leave)));
    },
  );

  app.get(
    '/leaves',
    { schema: { tags, summary: 'Leaves, latest first day first (staff; employees see their own)', querystring: LeaveQuery, response: listResponse(LeaveBody) } },
    async (request) => {
      const q = request.query;
      const filter = { userId: q.user_id, status: q.status, leaveType: q.leave_type, dateFrom: q.date_from, dateTo: q.date_to };
      return paginated(await app.services.leaves.list(request.ctx, filter, pageRequestOf(q)), presentLeave);
    },
  );

  app.get(
    '/leaves/:id',
    { schema: { tags, summary: 'One leave (employees: their own)', params: IdParams, response: okResponse(LeaveBody) } },
    async (request) => ok(presentLeave(await app.services.leaves.get(request.ctx, request.params.id))),
  );

  app.post(
    '/leaves/:id/approve',
    {
      preValidation: emptyBody,
      schema: { tags, summary: 'Approve an open leave (a signed-in admin; not their own)', params: IdParams, body: DecisionBody, response: changedResponse(LeaveBody) },
    },
    async (request) => changed('Leave approved', presentLeave(await app.services.leaves.approve(request.ctx, request.params.id, request.body.note))),
  );

  app.post(
    '/leaves/:id/reject',
    {
      preValidation: emptyBody,
      schema: { tags, summary: 'Reject an open leave (a signed-in admin; not their own)', params: IdParams, body: DecisionBody, response: changedResponse(LeaveBody) },
    },
    async (request) => changed('Leave rejected', presentLeave(await app.services.leaves.reject(request.ctx, request.params.id, request.body.note))),
  );

  app.post(
    '/leaves/:id/cancel',
    { schema: { tags, summary: 'Cancel an open or approved leave with a day left (the applicant or an admin)', params: IdParams, response: changedResponse(LeaveBody) } },
    async (request) => changed('Leave cancelled', presentLeave(await app.services.leaves.cancel(request.ctx, request.params.id))),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, paginated } from '../envelope';
import { AttendanceBody, presentAttendance } from '../presenters/attendance.presenter';
import { changedResponse, createdResponse, DateString, listResponse, Nullable, listQuery, pageRequestOf } from '../schemas';
import { ATTENDANCE_SORT } from '../../src/domains/attendance/attendance.service';

const CheckInBody = Type.Object({
  latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
  longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
});

const AttendanceQuery = listQuery(
  {
    date: Type.Optional(DateString),
    user_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { sort: ATTENDANCE_SORT },
);

/** Check-in, check-out and the attendance list (extension resources; see the README). */
export const attendanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Attendance'];

  app.post(
    '/attendance/check-in',
    {
      // The body is optional: a request without one checks in without a location.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Check in for today (the workspace’s local day); once per day, signed-in staff only',
        body: CheckInBody,
        response: createdResponse(AttendanceBody),
      },
    },
    async (request, reply) => {
      const record = await app.services.attendance.checkIn(request.ctx, request.body);
      return reply.code(201).send(created('Checked in', presentAttendance(record)));
    },
  );

  app.post(
    '/attendance/check-out',
    { schema: { tags, summary: 'Check out of today; once, after checking in', response: changedResponse(AttendanceBody) } },
    async (request) => changed('Checked out', presentAttendance(await app.services.attendance.checkOut(request.ctx))),
  );

  app.get(
    '/attendance',
    {
      schema: {
        tags,
        summary: 'Attendance records, newest day first (staff; employees see their own)',
        querystring: AttendanceQuery,
        response: listResponse(AttendanceBody),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await app.services.attendance.list(request.ctx, { date: q.date, userId: q.user_id }, pageRequestOf(q));
      return paginated(page, presentAttendance);
    },
  );
};

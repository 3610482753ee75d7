import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import { LivePositionBody, presentLivePosition, presentTrackResult, presentTrail, TrackResultBody, TrailBody } from '../presenters/tracking.presenter';
import { changedResponse, createdResponse, DateString, listQuery, Nullable, okResponse, pageRequestOf, listResponse } from '../schemas';
import { MAX_POSITIONS_PER_BATCH } from '../../src/domains/tracking/position-input';
import { LIVE_SORT } from '../../src/domains/tracking/tracking-statements';

const PositionItem = Type.Object({
  device_time: Type.String({ format: 'date-time', description: 'The device’s time of the fix, ISO 8601 with an offset' }),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  accuracy_m: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100_000, description: 'Metres' }))),
  speed_mps: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000, description: 'Metres per second' }))),
  heading: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 360, description: 'Degrees from north' }))),
  battery_pct: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
  is_charging: Type.Optional(Nullable(Type.Boolean())),
  is_mock: Type.Optional(Nullable(Type.Boolean({ description: 'The device reported a mock location' }))),
});

const TrackBody = Type.Object({
  positions: Type.Array(PositionItem, { minItems: 1, maxItems: MAX_POSITIONS_PER_BATCH }),
});

const LiveQuery = listQuery(
  {
    user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Only this employee or admin' })),
    on_duty: Type.Optional(Type.Boolean({ description: 'Only users checked in now (true) or not (false)' })),
  },
  { sort: LIVE_SORT },
);

const TrailQuery = Type.Object({
  user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Default: the signed-in user (required with an API key)' })),
  date: Type.Optional(DateString),
});

/** Live tracking (extension resources; see the README's "Live tracking"). */
export const trackingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Tracking'];

  app.post(
    '/tracking/positions',
    {
      schema: {
        tags,
        summary: 'Post a batch of 1–500 positions of the signed-in staff member; only while checked in (409 otherwise)',
        body: TrackBody,
        response: { ...createdResponse(TrackResultBody), ...changedResponse(TrackResultBody) },
      },
    },
    async (request, reply) => {
      const result = await app.services.tracking.track(request.ctx, {
        positions: request.body.positions.map((p) => ({
          deviceTime: p.device_time,
          latitude: p.latitude,
          longitude: p.longitude,
          accuracyM: p.accuracy_m,
          speedMps: p.speed_mps,
          heading: p.heading,
          batteryPct: p.battery_pct,
          isCharging: p.is_charging,
          isMock: p.is_mock,
        })),
      });
      // 201 when the batch stored something; 200 when every position was skipped (see `rejected`).
      if (result.accepted === 0) return reply.code(200).send(changed('No positions stored', presentTrackResult(result)));
      return reply.code(201).send(created(`${result.accepted} positions stored`, presentTrackResult(result)));
    },
  );

  app.get(
    '/tracking/live',
    {
      schema: {
        tags,
        summary: 'The latest position of each staff member who has one (staff; employees see their own)',
        querystring: LiveQuery,
        response: listResponse(LivePositionBody),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await app.services.tracking.live(request.ctx, { userId: q.user_id, onDuty: q.on_duty }, pageRequestOf(q));
      return paginated(page, presentLivePosition);
    },
  );

  app.get(
    '/tracking/trail',
    {
      schema: {
        tags,
        summary: 'One user’s positions of a local day (default today), oldest first, at most 20,000, with the distance',
        querystring: TrailQuery,
        response: okResponse(TrailBody),
      },
    },
    async (request) => ok(presentTrail(await app.services.tracking.trail(request.ctx, { userId: request.query.user_id, date: request.query.date }))),
  );
};

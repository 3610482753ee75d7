import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import { BeatPlanDayBody, BeatPlanTemplateBody, presentBeatPlanDay, presentBeatPlanTemplate } from '../presenters/beat-plans.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf, StatusFilter } from '../schemas';
import { BEAT_PLAN_SORT } from '../../src/domains/beat-plans/beat-plan.service';

const Weekday = Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday … 7 Sunday' });
const Frequency = Type.Integer({ enum: [1, 2, 4], description: '1 weekly, 2 fortnightly (every second week from effective_from’s week), 4 monthly (the n-th weekday of each month, n from effective_from)' });
const Outlets = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500, description: 'Outlet ids of the route in visiting order; omitted or empty: the route’s active outlets by name' });

const CreateBody = Type.Object({
  user_id: Type.Integer({ minimum: 1, description: 'An active employee' }),
  route_id: Type.Integer({ minimum: 1, description: 'An active route' }),
  weekday: Weekday,
  frequency: Type.Optional(Frequency),
  effective_from: DateString,
  effective_to: Type.Optional(Nullable(DateString)),
  outlets: Type.Optional(Outlets),
});

const UpdateBody = Type.Object({
  user_id: Type.Optional(Type.Integer({ minimum: 1 })),
  route_id: Type.Optional(Type.Integer({ minimum: 1 })),
  weekday: Type.Optional(Weekday),
  frequency: Type.Optional(Frequency),
  effective_from: Type.Optional(DateString),
  effective_to: Type.Optional(Nullable(DateString)),
  outlets: Type.Optional(Outlets),
});

const TemplateQuery = listQuery(
  {
    user_id: Type.Optional(Type.Integer({ minimum: 1 })),
    route_id: Type.Optional(Type.Integer({ minimum: 1 })),
    weekday: Type.Optional(Weekday),
    status: StatusFilter,
  },
  { sort: BEAT_PLAN_SORT },
);

const DayQuery = Type.Object({
  date: Type.Optional(DateString),
  user_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

type TemplateBody = { user_id?: number; route_id?: number; weekday?: number; frequency?: number; effective_from?: string; effective_to?: string | null; outlets?: number[] };

function inputOf(body: TemplateBody) {
  return {
    userId: body.user_id,
    routeId: body.route_id,
    weekday: body.weekday,
    frequency: body.frequency,
    effectiveFrom: body.effective_from,
    effectiveTo: body.effective_to,
    outlets: body.outlets,
  };
}

/** Beat plan templates and the day view (see the README's API notes, "Beat plans"). */
export const beatPlanRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Beat plans'];

  app.get(
    '/beat-plans',
    {
      schema: {
        tags,
        summary: 'Day plans of a local day (default today; frozen once started) with visited/productive per outlet; employees see their own',
        querystring: DayQuery,
        response: okResponse(Type.Array(BeatPlanDayBody)),
      },
    },
    async (request) => {
      const days = await app.services.beatPlans.days(request.ctx, { date: request.query.date, userId: request.query.user_id });
      return ok(days.map(presentBeatPlanDay));
    },
  );

  app.post(
    '/beat-plans/templates',
    { schema: { tags, summary: 'Create a beat plan template (admins)', body: CreateBody, response: createdResponse(BeatPlanTemplateBody) } },
    async (request, reply) => {
      const read = await app.services.beatPlans.create(request.ctx, inputOf(request.body));
      return reply.code(201).send(created('Beat plan template created', presentBeatPlanTemplate(read)));
    },
  );

  app.get(
    '/beat-plans/templates',
    { schema: { tags, summary: 'Beat plan templates (staff; employees see their own)', querystring: TemplateQuery, response: listResponse(BeatPlanTemplateBody) } },
    async (request) => {
      const q = request.query;
      const page = await app.services.beatPlans.list(request.ctx, { userId: q.user_id, routeId: q.route_id, weekday: q.weekday, status: q.status }, pageRequestOf(q));
      return paginated(page, presentBeatPlanTemplate);
    },
  );

  app.get(
    '/beat-plans/templates/:id',
    { schema: { tags, summary: 'One beat plan template', params: IdParams, response: okResponse(BeatPlanTemplateBody) } },
    async (request) => ok(presentBeatPlanTemplate(await app.services.beatPlans.get(request.ctx, request.params.id))),
  );

  app.put(
    '/beat-plans/templates/:id',
    {
      schema: {
        tags,
        summary: 'Change a template (admins); omitted fields stay, outlets replace the list; started days keep their frozen plan',
        params: IdParams,
        body: UpdateBody,
        response: changedResponse(BeatPlanTemplateBody),
      },
    },
    async (request) => changed('Beat plan template updated', presentBeatPlanTemplate(await app.services.beatPlans.update(request.ctx, request.params.id, inputOf(request.body)))),
  );

  app.delete(
    '/beat-plans/templates/:id',
    { schema: { tags, summary: 'Deactivate a template (admins): status 0; started days keep their frozen plan', params: IdParams, response: changedResponse(BeatPlanTemplateBody) } },
    async (request) => changed('Beat plan template deactivated', presentBeatPlanTemplate(await app.services.beatPlans.deactivate(request.ctx, request.params.id))),
  );
};

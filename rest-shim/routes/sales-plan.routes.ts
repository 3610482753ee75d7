import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import { PeriodTypeCode, presentSalesAchievement, presentSalesTarget, SalesAchievementBody, SalesTargetBody } from '../presenters/sales-plan.presenter';
import { changedResponse, createdResponse, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';
import { SALES_TARGET_SORT } from '../../src/domains/sales-plan/sales-target.service';

const Count = Type.Integer({ minimum: 0 });
const Amount = Type.Number({ minimum: 0 });
const PeriodText = Type.String({ maxLength: 7, description: 'A month YYYY-MM or a quarter YYYY-Qn' });

const CreateTargetBody = Type.Object({
  user_id: Type.Integer({ minimum: 1, description: 'An active employee of the workspace' }),
  period_type: PeriodTypeCode,
  period_start: Type.String({ format: 'date', description: 'First day of the month or quarter, YYYY-MM-DD' }),
  product_class_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'null or absent: every product' }))),
  target_amount: Type.Optional(Nullable(Amount)),
  target_quantity: Type.Optional(Nullable(Count)),
  target_productive_calls: Type.Optional(Nullable(Count)),
  target_outlets: Type.Optional(Nullable(Count)),
});

const UpdateTargetBody = Type.Object({
  user_id: Type.Optional(Type.Integer({ minimum: 1 })),
  period_type: Type.Optional(PeriodTypeCode),
  period_start: Type.Optional(Type.String({ format: 'date' })),
  product_class_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  target_amount: Type.Optional(Nullable(Amount)),
  target_quantity: Type.Optional(Nullable(Count)),
  target_productive_calls: Type.Optional(Nullable(Count)),
  target_outlets: Type.Optional(Nullable(Count)),
});

const TargetQuery = listQuery(
  {
    user_id: Type.Optional(Type.Integer({ minimum: 1 })),
    period_type: Type.Optional(PeriodTypeCode),
    period: Type.Optional(PeriodText),
    product_class_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { sort: SALES_TARGET_SORT },
);

const AchievementQuery = Type.Object(
  {
    period: Type.Optional(PeriodText),
    user_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Admins: one employee (default: every employee with a target in the period)' })),
  },
  { additionalProperties: false },
);

/** Sales targets per employee and month or quarter, and their achievement (see the README's "Sales plan"). */
export const salesPlanRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Sales plan'];

  app.post(
    '/sales-plan/targets',
    {
      schema: {
        tags,
        summary: 'Set an employee’s target for a month or quarter (admins); at least one of target_amount and target_quantity; 409 when one exists for the period and class',
        body: CreateTargetBody,
        response: createdResponse(SalesTargetBody),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const target = await app.services.salesPlan.create(request.ctx, {
        userId: b.user_id,
        periodType: b.period_type,
        periodStart: b.period_start,
        productClassId: b.product_class_id,
        targetAmount: b.target_amount,
        targetQuantity: b.target_quantity,
        targetProductiveCalls: b.target_productive_calls,
        targetOutlets: b.target_outlets,
      });
      return reply.code(201).send(created('Sales target created', presentSalesTarget(target)));
    },
  );

  app.get(
    '/sales-plan/targets',
    { schema: { tags, summary: 'Sales targets, newest period first (staff; employees see their own)', querystring: TargetQuery, response: listResponse(SalesTargetBody) } },
    async (request) => {
      const q = request.query;
      const page = await app.services.salesPlan.list(
        request.ctx,
        { userId: q.user_id, periodType: q.period_type, period: q.period, productClassId: q.product_class_id },
        pageRequestOf(q),
      );
      return paginated(page, presentSalesTarget);
    },
  );

  app.get(
    '/sales-plan/targets/:id',
    { schema: { tags, summary: 'One sales target (staff; employees their own)', params: IdParams, response: okResponse(SalesTargetBody) } },
    async (request) => ok(presentSalesTarget(await app.services.salesPlan.get(request.ctx, request.params.id))),
  );

  app.put(
    '/sales-plan/targets/:id',
    {
      schema: {
        tags,
        summary: 'Change a sales target (admins); omitted fields stay, null clears a figure or the class',
        params: IdParams,
        body: UpdateTargetBody,
        response: changedResponse(SalesTargetBody),
      },
    },
    async (request) => {
      const b = request.body;
      const target = await app.services.salesPlan.update(request.ctx, request.params.id, {
        userId: b.user_id,
        periodType: b.period_type,
        periodStart: b.period_start,
        productClassId: b.product_class_id,
        targetAmount: b.target_amount,
        targetQuantity: b.target_quantity,
        targetProductiveCalls: b.target_productive_calls,
        targetOutlets: b.target_outlets,
      });
      return changed('Sales target updated', presentSalesTarget(target));
    },
  );

  app.delete(
    '/sales-plan/targets/:id',
    { schema: { tags, summary: 'Delete a sales target for good (admins); answers what was deleted', params: IdParams, response: changedResponse(SalesTargetBody) } },
    async (request) => changed('Sales target deleted', presentSalesTarget(await app.services.salesPlan.remove(request.ctx, request.params.id))),
  );

  app.get(
    '/sales-plan/achievement',
    {
      schema: {
        tags,
        summary: 'Targets of a month or quarter against the orders each employee booked, pro-rated over working days net of approved leave (staff; employees their own)',
        querystring: AchievementQuery,
        response: okResponse(SalesAchievementBody),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(presentSalesAchievement(await app.services.salesPlan.achievement(request.ctx, { period: q.period, userId: q.user_id })));
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ok } from '../envelope';
import { exportRoute } from '../export-route';
import { beatProductivityExport } from '../../src/domains/reports/beat-productivity.export';
import { BeatProductivityBody, presentBeatProductivity } from '../presenters/beat-productivity.presenter';
import { presentSalesReport, SalesReportBody } from '../presenters/sales-report.presenter';
import { DateString, okResponse } from '../schemas';
import { SalesReportGroupBy, SalesReportPeriod } from '../../src/domains/reports/sales-report.types';

const Id = Type.Optional(Type.Integer({ minimum: 1 }));

const SalesReportQuery = Type.Object(
  {
    date_from: Type.Optional({ ...DateString, description: 'First order date, YYYY-MM-DD (default: the 1st of date_to’s month)' }),
    date_to: Type.Optional({ ...DateString, description: 'Last order date (default: today, the workspace’s local day); at most 366 days from date_from, both included' }),
    period: Type.Optional(Type.String({ enum: Object.values(SalesReportPeriod), description: 'day, week (ISO, Monday first) or month (default)' })),
    group_by: Type.Optional(Type.String({ enum: Object.values(SalesReportGroupBy), description: 'Without it, one row per period, periods without sales as zeros' })),
    user_id: { ...Id, description: 'The employee who booked the orders (employees: only themselves)' },
    customer_id: Id,
    product_class_id: Id,
    town_id: Id,
    route_id: Id,
    production_unit_id: Id,
  },
);

const BeatProductivityQuery = Type.Object({
  date: Type.Optional({ ...DateString, description: 'The day, YYYY-MM-DD (default: today, the workspace’s local day)' }),
  user_id: { ...Id, description: 'One employee (employees: only themselves)' },
});

/** GET /reports/sales and /reports/beat-productivity (the `reports` group: the report budget, 20 a minute and 200 an hour per caller). */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reports/sales',
    {
      schema: {
        tags: ['Reports'],
        summary: 'Sales (value, quantity, orders, lines) by period and optionally a group, with totals; cancelled orders excluded (staff; employees see the orders they booked)',
        querystring: SalesReportQuery,
        response: okResponse(SalesReportBody),
      },
    },
    async (request) => {
      const q = request.query;
      const report = await app.services.salesReport.report(request.ctx, {
        dateFrom: q.date_from,
        dateTo: q.date_to,
        period: q.period as SalesReportPeriod | undefined,
        groupBy: q.group_by as SalesReportGroupBy | undefined,
        userId: q.user_id,
        customerId: q.customer_id,
        productClassId: q.product_class_id,
        townId: q.town_id,
        routeId: q.route_id,
        productionUnitId: q.production_unit_id,
      });
      return ok(presentSalesReport(report));
    },
  );

  app.get(
    '/reports/beat-productivity',
    {
      schema: {
        tags: ['Reports'],
        summary: 'Per active employee with a beat plan or a visit on the day: calls, rates, lines per call, order value, time in field, no-sale reasons and a 0–100 score with its components and reasons (staff; employees see themselves)',
        querystring: BeatProductivityQuery,
        response: okResponse(BeatProductivityBody),
      },
    },
    async (request) => {
      const report = await app.services.beatProductivity.report(request.ctx, { date: request.query.date, userId: request.query.user_id });
      return ok(presentBeatProductivity(report));
    },
  );

  exportRoute(app, {
    source: beatProductivityExport,
    summary: 'The beat-productivity report of a day as XLSX, PDF or CSV, a row per employee with the score’s points by component (administrators and API keys)',
    query: BeatProductivityQuery.properties,
    filters: (q) => ({ date: q.date, userId: q.user_id }),
  });
};

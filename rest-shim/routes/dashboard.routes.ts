import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { DashboardStats } from '../../src/domains/dashboard/dashboard.service';
import { ok } from '../envelope';
import { okResponse } from '../schemas';

const StatsBody = Type.Object({
  order_initiated_count: Type.Integer(),
  order_forwarded_count: Type.Integer(),
  order_approved_count: Type.Integer(),
  order_delivered_count: Type.Integer(),
  total_employees: Type.Integer(),
  today_attendance: Type.Integer(),
  total_tagged_outlets: Type.Integer(),
  today_tagged_outlets: Type.Integer(),
  today_revenue: Type.Number(),
  pending_amount: Type.Number(),
  total_collection: Type.Number(),
  today_collection: Type.Number(),
});

function presentStats(s: DashboardStats) {
  return {
    order_initiated_count: s.orderInitiatedCount,
    order_forwarded_count: s.orderForwardedCount,
    order_approved_count: s.orderApprovedCount,
    order_delivered_count: s.orderDeliveredCount,
    total_employees: s.totalEmployees,
    today_attendance: s.todayAttendance,
    total_tagged_outlets: s.totalTaggedOutlets,
    today_tagged_outlets: s.todayTaggedOutlets,
    today_revenue: s.todayRevenue,
    pending_amount: s.pendingAmount,
    total_collection: s.totalCollection,
    today_collection: s.todayCollection,
  };
}

/** GET /dashboard/stats. */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/dashboard/stats',
    {
      schema: {
        tags: ['Dashboard'],
        summary: 'Dashboard statistics; "today" is the workspace’s local day (staff and API keys)',
        response: okResponse(StatsBody),
      },
    },
    async (request) => ok(presentStats(await app.services.dashboard.stats(request.ctx))),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { DashboardStats } from '../../src/domains/dashboard/dashboard-stats';
import { ChangeStatus, type MonthlySalesEntry } from '../../src/domains/dashboard/monthly-sales';
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

const changeStatus = Type.String({ enum: Object.values(ChangeStatus), description: 'up, down or same' });

const MonthlySalesBody = Type.Object({
  id: Type.Integer({ description: 'Product class id' }),
  product_class: Type.String(),
  unit: Type.String(),
  today_total: Type.Number(),
  yesterday_total: Type.Number(),
  daily_change_percent: Type.Number(),
  daily_change_status: changeStatus,
  month_data: Type.Number({ description: 'Month to date' }),
  month_data_avg: Type.Number({ description: 'month_data per day elapsed this month, today included' }),
  current_year_data: Type.Number({ description: 'Jan 1 .. today' }),
  prev_year_data: Type.Number({ description: 'Jan 1 .. the same day, last year' }),
  yearly_change_percent: Type.Number(),
  yearly_change_status: changeStatus,
  seven_day_data: Type.Array(
    Type.Object({
      date: Type.String({ description: 'YYYY-MM-DD' }),
      year: Type.Integer(),
      month: Type.Integer({ description: 'Zero-based: January is 0' }),
      day: Type.Integer(),
      total: Type.Number(),
    }),
  ),
  product_breakdown: Type.Array(Type.Object({ product_name: Type.String(), quantity: Type.Number() })),
});

function presentMonthlySales(e: MonthlySalesEntry) {
  return {
    id: e.id,
    product_class: e.productClass,
    unit: e.unit,
    today_total: e.todayTotal,
    yesterday_total: e.yesterdayTotal,
    daily_change_percent: e.dailyChangePercent,
    daily_change_status: e.dailyChangeStatus,
    month_data: e.monthData,
    month_data_avg: e.monthDataAvg,
    current_year_data: e.currentYearData,
    prev_year_data: e.prevYearData,
    yearly_change_percent: e.yearlyChangePercent,
    yearly_change_status: e.yearlyChangeStatus,
    seven_day_data: e.sevenDayData.map((d) => ({ date: d.date, year: d.year, month: d.month, day: d.day, total: d.total })),
    product_breakdown: e.productBreakdown.map((p) => ({ product_name: p.productName, quantity: p.quantity })),
  };
}

/** GET /dashboard/stats and GET /dashboard/monthly-sales. */
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

  app.get(
    '/dashboard/monthly-sales',
    {
      schema: {
        tags: ['Dashboard'],
        summary: 'Sales per product class in the class’s unit; "today" is the workspace’s local day (staff and API keys)',
        response: okResponse(Type.Array(MonthlySalesBody)),
      },
    },
    async (request) => ok((await app.services.dashboard.monthlySales(request.ctx)).map(presentMonthlySales)),
  );
};

import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AppError } from '../src/errors/app-error';
import { apiKeyRoutes } from './routes/api-keys.routes';
import { approvalRoutes } from './routes/approvals.routes';
import { focRoutes } from './routes/foc.routes';
import { grievanceRoutes } from './routes/grievances.routes';
import { importRoutes } from './routes/imports.routes';
import { beatPlanRoutes } from './routes/beat-plans.routes';
import { attendanceRoutes } from './routes/attendance.routes';
import { authCodeRoutes } from './routes/auth-codes.routes';
import { authRoutes } from './routes/auth.routes';
import { crateRoutes } from './routes/crates.routes';
import { dashboardRoutes } from './routes/dashboard.routes';
import { exportRoutes } from './routes/exports.routes';
import { masterRoutes } from './routes/masters.routes';
import { portalRoutes } from './routes/portal.routes';
import { notificationRoutes } from './routes/notifications.routes';
import { orderRoutes } from './routes/orders.routes';
import { passkeyRoutes } from './routes/passkeys.routes';
import { paymentRoutes } from './routes/payments.routes';
import { leaveRoutes } from './routes/leaves.routes';
import { ledgerRoutes } from './routes/ledger.routes';
import { schemeRoutes } from './routes/schemes.routes';
import { productRoutes } from './routes/products.routes';
import { priceRoutes } from './routes/prices.routes';
import { salesPlanRoutes } from './routes/sales-plan.routes';
import { reportRoutes } from './routes/reports.routes';
import { secondarySalesRoutes } from './routes/secondary-sales.routes';
import { signupRoutes } from './routes/signup.routes';
import { trackingRoutes } from './routes/tracking.routes';
import { visitRoutes } from './routes/visits.routes';
import { userRoutes } from './routes/users.routes';
import { webhookRoutes } from './routes/webhooks.routes';
import { workspaceRoutes } from './routes/workspace.routes';

/** Every route plugin of the REST shim; adding a domain's routes is a line here. */
export const ROUTE_PLUGINS: readonly FastifyPluginAsync[] = [
  signupRoutes,
  authRoutes,
  authCodeRoutes,
  passkeyRoutes,
  userRoutes,
  productRoutes,
  priceRoutes,
  masterRoutes,
  orderRoutes,
  workspaceRoutes,
  apiKeyRoutes,
  webhookRoutes,
  attendanceRoutes,
  paymentRoutes,
  dashboardRoutes,
  exportRoutes,
  trackingRoutes,
  leaveRoutes,
  approvalRoutes,
  focRoutes,
  schemeRoutes,
  salesPlanRoutes,
  visitRoutes,
  beatPlanRoutes,
  reportRoutes,
  ledgerRoutes,
  crateRoutes,
  importRoutes,
  secondarySalesRoutes,
  portalRoutes,
  grievanceRoutes,
  notificationRoutes,
];

/**
 * The REST compatibility layer under /api/v1: thin routes over the domain services, each with a
 * JSON schema, answering in the documented envelope.
 */
export async function restShim(app: FastifyInstance): Promise<void> {
  app.setNotFoundHandler(async (request) => {
    throw new AppError('NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
  });
  for (const routes of ROUTE_PLUGINS) await app.register(routes);
}

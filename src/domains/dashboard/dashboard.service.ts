import type { RequestContext } from '../../context/request-context';
import { requireStaff } from '../auth/permissions';
import { workspaceToday } from '../workspace/local-day';
import { readStats, type DashboardStats } from './dashboard-stats';
import { readMonthlySales, type MonthlySalesEntry } from './monthly-sales';
import { salesPeriods } from './sales-periods';

/** The dashboard's numbers for workspace staff (and API keys); customers get 403. */
export class DashboardService {
  stats(ctx: RequestContext): Promise<DashboardStats> {
    requireStaff(ctx);
    return readStats(ctx.em, ctx.organizationId);
  }

  /**
   * Sales per product class in the class's unit, for every active class (and an inactive one with
   * sales in the periods counted), by class name. Two statements: the workspace's local day, then
   * the aggregates.
   */
  async monthlySales(ctx: RequestContext): Promise<MonthlySalesEntry[]> {
    requireStaff(ctx);
    return readMonthlySales(ctx.em, ctx.organizationId, salesPeriods(await workspaceToday(ctx.em, ctx.organizationId)));
  }
}

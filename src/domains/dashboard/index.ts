import { defineDomain } from '../domain-module';
import { DashboardResolver } from './dashboard.resolver';
import { DashboardService } from './dashboard.service';
import { LineDayRollup } from './line-day-rollup.entity';
import { OrderDayRollup } from './order-day-rollup.entity';

declare module '../domain-module' {
  interface Services {
    dashboard: DashboardService;
  }
}

/** The dashboard's figures (stats, monthly sales), read from the daily rollups the triggers keep. */
export const dashboardDomain = defineDomain({
  name: 'dashboard',
  entities: [OrderDayRollup, LineDayRollup],
  services: () => ({ dashboard: new DashboardService() }),
  resolvers: [DashboardResolver],
  routeGroups: { dashboard: 'scoped' },
});

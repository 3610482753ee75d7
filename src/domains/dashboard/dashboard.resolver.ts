import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { DashboardStats } from './dashboard-stats';
import { MonthlySalesEntry } from './monthly-sales';
import { ASSUMED_LENGTH, COST, listCost } from '../../graphql/costs';

@Authorized()
@Resolver()
export class DashboardResolver {
  @InGroup('dashboard')
  @Query(() => DashboardStats, { complexity: COST.dashboardStats, description: 'The dashboard’s twelve numbers; "today" is the workspace’s local day (staff).' })
  dashboardStats(@Ctx() { ctx, services }: GraphqlContext): Promise<DashboardStats> {
    return services.dashboard.stats(ctx);
  }

  @InGroup('dashboard')
  @Query(() => [MonthlySalesEntry], {
    complexity: listCost(COST.monthlySales, ASSUMED_LENGTH.productClasses),
    description: 'Sales per product class in the class’s unit: today, yesterday, month and year to date, the last seven days and the products sold this month (staff).',
  })
  monthlySales(@Ctx() { ctx, services }: GraphqlContext): Promise<MonthlySalesEntry[]> {
    return services.dashboard.monthlySales(ctx);
  }
}

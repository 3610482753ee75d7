import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { DashboardStats } from './dashboard.service';

@Authorized()
@Resolver()
export class DashboardResolver {
  @InGroup('dashboard')
  @Query(() => DashboardStats, { description: 'The dashboard’s twelve numbers; "today" is the workspace’s local day (staff).' })
  dashboardStats(@Ctx() { ctx, services }: GraphqlContext): Promise<DashboardStats> {
    return services.dashboard.stats(ctx);
  }
}

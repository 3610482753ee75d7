import { defineDomain } from '../domain-module';
import { SalesPlanResolver, SalesTargetFieldsResolver } from './sales-plan.resolver';
import { SalesTarget } from './sales-target.entity';
import { SalesPlanService } from './sales-target.service';

declare module '../domain-module' {
  interface Services {
    salesPlan: SalesPlanService;
  }
}

/** Sales targets of employees per month or quarter, and their achievement. */
export const salesPlanDomain = defineDomain({
  name: 'sales-plan',
  entities: [SalesTarget],
  services: () => ({ salesPlan: new SalesPlanService() }),
  resolvers: [SalesPlanResolver, SalesTargetFieldsResolver],
  routeGroups: { sales_plan: 'scoped' },
});

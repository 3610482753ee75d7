import { defineDomain } from '../domain-module';
import { FocFieldsResolver, FocLineFieldsResolver, FocResolver } from './foc.resolver';
import { FocRequest, FocRequestLine } from './foc.entity';
import { FOC_EVENTS } from './foc-events';
import { FOC_KIND, FocService } from './foc.service';

declare module '../domain-module' {
  interface Services {
    foc: FocService;
  }
}

/** FOC (free of cost) requests: approved through the generic approvals (kind `foc`), fulfilled as zero-priced orders. */
export const focDomain = defineDomain({
  name: 'foc',
  entities: [FocRequest, FocRequestLine],
  services: ({ services }) => {
    const foc = new FocService(services.approvals, services.orders, services.webhookEvents);
    services.approvals.kinds.register(FOC_KIND, foc.approvalHandler);
    return { foc };
  },
  resolvers: [FocResolver, FocFieldsResolver, FocLineFieldsResolver],
  routeGroups: { foc: 'scoped' },
  webhookEvents: FOC_EVENTS,
});

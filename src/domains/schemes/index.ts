import { defineDomain } from '../domain-module';
import { Scheme, SchemeUse } from './scheme.entity';
import { SchemeResolver } from './scheme.resolver';
import { SchemeService } from './scheme.service';

declare module '../domain-module' {
  interface Services {
    schemes: SchemeService;
  }
}

/** Trade schemes (slab discounts, free goods) with budgets, applied to orders (scheme-apply.ts) and previewed. */
export const schemesDomain = defineDomain({
  name: 'schemes',
  entities: [Scheme, SchemeUse],
  services: () => ({ schemes: new SchemeService() }),
  resolvers: [SchemeResolver],
  routeGroups: { schemes: 'scoped' },
  cron: [{ task: 'announce_started_schemes', match: '*/15 * * * *', identifier: 'announce_started_schemes' }],
});

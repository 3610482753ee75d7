import { defineDomain } from '../domain-module';
import { Visit } from './visit.entity';
import { VisitFieldsResolver, VisitResolver } from './visit.resolver';
import { VisitService } from './visit.service';

declare module '../domain-module' {
  interface Services {
    visits: VisitService;
  }
}

/** Visits: check-in and check-out on outlets with location, outcome and geo-verification. */
export const visitsDomain = defineDomain({
  name: 'visits',
  entities: [Visit],
  services: () => ({ visits: new VisitService() }),
  resolvers: [VisitResolver, VisitFieldsResolver],
  routeGroups: { visits: 'scoped' },
});

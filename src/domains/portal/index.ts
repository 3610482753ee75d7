import { defineDomain } from '../domain-module';
import { PortalResolver } from './portal.resolver';
import { PortalService } from './portal.service';

declare module '../domain-module' {
  interface Services {
    portal: PortalService;
  }
}

/** The customer portal: distributors and retailers, with a session, over the order, scheme, ledger and crate services. */
export const portalDomain = defineDomain({
  name: 'portal',
  entities: [],
  services: ({ services }) => ({ portal: new PortalService(services.passwordAuth, services.orders, services.ledger, services.crates, services.users) }),
  resolvers: [PortalResolver],
  routeGroups: { portal: 'refused' },
});

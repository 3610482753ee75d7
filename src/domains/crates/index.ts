import { defineDomain } from '../domain-module';
import { CRATE_EVENTS } from './crate-events';
import { CrateMovement } from './crate-movement.entity';
import { CrateBalanceFieldsResolver, CrateMovementFieldsResolver, CrateResolver } from './crate.resolver';
import { CrateService } from './crate.service';

declare module '../domain-module' {
  interface Services {
    crates: CrateService;
  }
}

/** Returnable crates: an append-only ledger of movements per customer and crate type (types are masters: /masters/crate-types). */
export const cratesDomain = defineDomain({
  name: 'crates',
  entities: [CrateMovement],
  services: ({ services }) => ({ crates: new CrateService(services.webhookEvents) }),
  resolvers: [CrateResolver, CrateMovementFieldsResolver, CrateBalanceFieldsResolver],
  routeGroups: { crates: 'scoped' },
  webhookEvents: CRATE_EVENTS,
});

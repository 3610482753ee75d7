import type DataLoader from 'dataloader';
import type { EntityRecord } from '../../db/entity-records';
import { byId } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { MASTER_RESOLVERS } from './master.resolver';
import { MasterService } from './master.service';
import { NamedRecord } from './named-record.entity';
import { Outlet } from './outlet.entity';
import { ProductClass } from './product-class.entity';
import { ProductionUnit } from './production-unit.entity';
import { Route } from './route.entity';
import { Town } from './town.entity';

declare module '../domain-module' {
  interface Services {
    masters: MasterService;
  }
  interface Loaders {
    town: DataLoader<number, EntityRecord<Town> | null>;
    route: DataLoader<number, EntityRecord<Route> | null>;
    productionUnit: DataLoader<number, EntityRecord<ProductionUnit> | null>;
    productClass: DataLoader<number, EntityRecord<ProductClass> | null>;
  }
}

/** The named lists orders and people refer to: towns, routes, production units, product classes, outlets. */
export const mastersDomain = defineDomain({
  name: 'masters',
  entities: [NamedRecord, Town, Route, ProductionUnit, ProductClass, Outlet],
  services: () => ({ masters: new MasterService() }),
  resolvers: MASTER_RESOLVERS,
  loaders: ({ ctx: { em }, selection }) => ({
    town: byId(em, Town, selection),
    route: byId(em, Route, selection),
    productionUnit: byId(em, ProductionUnit, selection),
    productClass: byId(em, ProductClass, selection),
  }),
  routeGroups: { masters: 'scoped' },
});

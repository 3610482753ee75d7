import type { Row } from '../../db/entity-rows';
import { byId, type RowLoader } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { CrateType } from './crate-type.entity';
import { MASTER_RESOLVERS } from './master.resolver';
import { MasterService } from './master.service';
import { NamedRecord } from './named-record.entity';
import { NoSaleReason } from './no-sale-reason.entity';
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
    town: RowLoader<Row<Town>>;
    route: RowLoader<Row<Route>>;
    productionUnit: RowLoader<Row<ProductionUnit>>;
    productClass: RowLoader<Row<ProductClass>>;
    outlet: RowLoader<Row<Outlet>>;
    noSaleReason: RowLoader<Row<NoSaleReason>>;
    crateType: RowLoader<Row<CrateType>>;
  }
}

/** The named lists orders and people refer to: towns, routes, production units, product classes, outlets, no-sale reasons, crate types. */
export const mastersDomain = defineDomain({
  name: 'masters',
  entities: [NamedRecord, Town, Route, ProductionUnit, ProductClass, Outlet, NoSaleReason, CrateType],
  services: () => ({ masters: new MasterService() }),
  resolvers: MASTER_RESOLVERS,
  loaders: ({ ctx: { em }, columns }) => ({
    town: byId(em, Town, columns),
    route: byId(em, Route, columns),
    productionUnit: byId(em, ProductionUnit, columns),
    productClass: byId(em, ProductClass, columns),
    outlet: byId(em, Outlet, columns),
    noSaleReason: byId(em, NoSaleReason, columns),
    crateType: byId(em, CrateType, columns),
  }),
  routeGroups: { masters: 'scoped' },
});

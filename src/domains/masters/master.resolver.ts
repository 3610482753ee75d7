import { Arg, Args, Authorized, Ctx, FieldResolver, Float, Int, Mutation, Query, Resolver, Root, type ClassType } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import type { Row } from '../../db/entity-rows';
import type { Related } from '../../graphql/loaders';
import type { Loaders } from '../domain-module';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { Role } from '../users/role.entity';
import type { MasterEntity, MasterKindName } from './master-kinds';
import type { MasterRead, MasterRow } from './master-read';
import { CrateTypeInput, MasterListArgs, NoSaleReasonInput, OutletInput, ProductClassInput, ProductionUnitInput, RoleInput, RouteInput, TownInput } from './master.types';
import { CrateType } from './crate-type.entity';
import { NoSaleReason } from './no-sale-reason.entity';
import { Outlet } from './outlet.entity';
import { ProductClass } from './product-class.entity';
import { ProductionUnit } from './production-unit.entity';
import { Route } from './route.entity';
import { Town } from './town.entity';
import { COST, pageCost } from '../../graphql/costs';

/** A master record's row; the places read with it are handed to the loaders. */
function masterRowOf<R extends MasterRow>(read: MasterRead, loaders: Loaders): R {
  if (read.town) loaders.town.prime([read.town]);
  if (read.route) loaders.route.prime([read.route]);
  return read.record as R; // the row of the kind the resolver asked the service for
}

/**
 * Declares `<plural>` (a page), `create<Singular>`, `update<Singular>` and `deactivate<Singular>` for one master kind,
 * all over MasterService.
 */
function masterResolver<E extends MasterEntity, I extends object>(
  kind: MasterKindName,
  entity: ClassType<E>,
  input: ClassType<I>,
  singular: string,
  plural: string,
) {
  const EntityPage = PageOf(entity, singular);

  @Authorized()
  @Resolver()
  class MasterResolver {
    @InGroup('masters')
    @Query(() => EntityPage, { complexity: pageCost(), name: plural, description: `${singular} records, by name.` })
    async list(@Args(() => MasterListArgs) args: MasterListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<Row<E>>> {
      const { page, limit, sort, ...filter } = args;
      const found = await services.masters.list(ctx, kind, filter, { page, limit, sort });
      return toPage({ ...found, items: found.items.map((read) => masterRowOf<Row<E> & MasterRow>(read, loaders)) });
    }

    @InGroup('masters')
    @Mutation(() => entity, { complexity: COST.write, name: `create${singular}`, description: 'Admins only.' })
    async create(@Arg('input', () => input) data: I, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<E>> {
      return masterRowOf<Row<E> & MasterRow>(await services.masters.create(ctx, kind, data), loaders);
    }

    @InGroup('masters')
    @Mutation(() => entity, { complexity: COST.write, name: `update${singular}`, description: 'Admins only; omitted fields stay as they are.' })
    async update(
      @Arg('id', () => Int) id: number,
      @Arg('input', () => input) data: I,
      @Ctx() { ctx, services, loaders }: GraphqlContext,
    ): Promise<Row<E>> {
      return masterRowOf<Row<E> & MasterRow>(await services.masters.update(ctx, kind, id, data), loaders);
    }

    @InGroup('masters')
    @Mutation(() => entity, {
      complexity: COST.write,
      name: `deactivate${singular}`,
      description: 'Admins only: status INACTIVE, the record stays (an inactive one is returned as it is); CONFLICT while an active record uses it.',
    })
    async deactivate(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<E>> {
      return masterRowOf<Row<E> & MasterRow>((await services.masters.deactivate(ctx, kind, id)).read, loaders);
    }
  }
  Object.defineProperty(MasterResolver, 'name', { value: `${singular}MasterResolver` });
  return MasterResolver;
}

@Resolver(() => Route)
export class RouteFieldsResolver {
  @FieldResolver(() => Town, { complexity: COST.relation })
  town(@Root() route: Row<Route>, @Ctx() { loaders }: GraphqlContext): Related<Row<Town>> {
    return loaders.town.load(route.town);
  }
}

@Resolver(() => Outlet)
export class OutletFieldsResolver {
  @FieldResolver(() => Town, { complexity: COST.relation })
  town(@Root() outlet: Row<Outlet>, @Ctx() { loaders }: GraphqlContext): Related<Row<Town>> {
    return loaders.town.load(outlet.town);
  }

  @FieldResolver(() => Route, { complexity: COST.relation })
  route(@Root() outlet: Row<Outlet>, @Ctx() { loaders }: GraphqlContext): Related<Row<Route>> {
    return loaders.route.load(outlet.route);
  }

  @Authorized()
  @InGroup('masters')
  @Mutation(() => Outlet, { complexity: COST.write, description: 'Tags an outlet on a visit: its location and now (staff and API keys).' })
  async tagOutlet(
    @Arg('id', () => Int) id: number,
    @Arg('latitude', () => Float) latitude: number,
    @Arg('longitude', () => Float) longitude: number,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<Outlet>> {
    return masterRowOf<Row<Outlet>>(await services.masters.tagOutlet(ctx, id, { latitude, longitude }), loaders);
  }
}

/** The GraphQL resolvers of the master kinds. */
export const MASTER_RESOLVERS = [
  masterResolver('product-classes', ProductClass, ProductClassInput, 'ProductClass', 'productClasses'),
  masterResolver('roles', Role, RoleInput, 'Role', 'roles'),
  masterResolver('towns', Town, TownInput, 'Town', 'towns'),
  masterResolver('routes', Route, RouteInput, 'Route', 'routes'),
  masterResolver('production-units', ProductionUnit, ProductionUnitInput, 'ProductionUnit', 'productionUnits'),
  masterResolver('outlets', Outlet, OutletInput, 'Outlet', 'outlets'),
  masterResolver('no-sale-reasons', NoSaleReason, NoSaleReasonInput, 'NoSaleReason', 'noSaleReasons'),
  masterResolver('crate-types', CrateType, CrateTypeInput, 'CrateType', 'crateTypes'),
  RouteFieldsResolver,
  OutletFieldsResolver,
];

import { Arg, Args, Authorized, Ctx, FieldResolver, Float, Int, Mutation, Query, Resolver, Root, type ClassType } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import { related, type Related, type Resolvable } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { Role } from '../users/role.entity';
import type { MasterEntity, MasterKindName } from './master-kinds';
import { MasterListArgs, OutletInput, ProductClassInput, ProductionUnitInput, RoleInput, RouteInput, TownInput } from './master.types';
import { Outlet } from './outlet.entity';
import { ProductClass } from './product-class.entity';
import { ProductionUnit } from './production-unit.entity';
import { Route } from './route.entity';
import { Town } from './town.entity';
import { COST, pageCost } from '../../graphql/costs';

/**
 * Declares `<plural>` (a page), `create<Singular>` and `update<Singular>` for one master kind,
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
    async list(@Args(() => MasterListArgs) args: MasterListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<E>> {
      const { page, limit, ...filter } = args;
      return toPage((await services.masters.list(ctx, kind, filter, { page, limit })) as never);
    }

    @InGroup('masters')
    @Mutation(() => entity, { complexity: COST.write, name: `create${singular}`, description: 'Admins only.' })
    create(@Arg('input', () => input) data: I, @Ctx() { ctx, services }: GraphqlContext): Promise<E> {
      return services.masters.create(ctx, kind, data) as Promise<E>;
    }

    @InGroup('masters')
    @Mutation(() => entity, { complexity: COST.write, name: `update${singular}`, description: 'Admins only; omitted fields stay as they are.' })
    update(
      @Arg('id', () => Int) id: number,
      @Arg('input', () => input) data: I,
      @Ctx() { ctx, services }: GraphqlContext,
    ): Promise<E> {
      return services.masters.update(ctx, kind, id, data) as Promise<E>;
    }
  }
  Object.defineProperty(MasterResolver, 'name', { value: `${singular}MasterResolver` });
  return MasterResolver;
}

@Resolver(() => Route)
export class RouteFieldsResolver {
  @FieldResolver(() => Town, { complexity: COST.relation })
  town(@Root() route: Resolvable<Route>, @Ctx() { loaders }: GraphqlContext): Related<Town> {
    return related(route.town, loaders.town);
  }
}

@Resolver(() => Outlet)
export class OutletFieldsResolver {
  @FieldResolver(() => Town, { complexity: COST.relation })
  town(@Root() outlet: Resolvable<Outlet>, @Ctx() { loaders }: GraphqlContext): Related<Town> {
    return related(outlet.town, loaders.town);
  }

  @FieldResolver(() => Route, { complexity: COST.relation })
  route(@Root() outlet: Resolvable<Outlet>, @Ctx() { loaders }: GraphqlContext): Related<Route> {
    return related(outlet.route, loaders.route);
  }

  @Authorized()
  @InGroup('masters')
  @Mutation(() => Outlet, { complexity: COST.write, description: 'Tags an outlet on a visit: its location and now (staff and API keys).' })
  tagOutlet(
    @Arg('id', () => Int) id: number,
    @Arg('latitude', () => Float) latitude: number,
    @Arg('longitude', () => Float) longitude: number,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Outlet> {
    return services.masters.tagOutlet(ctx, id, { latitude, longitude });
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
  RouteFieldsResolver,
  OutletFieldsResolver,
];

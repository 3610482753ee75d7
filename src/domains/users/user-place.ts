import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../../errors/app-error';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { assignableMaster } from '../masters/assignable-master';

/** Where a user works or trades: a town of the workspace and a route in it, either optional. */
export interface UserPlace {
  town: Town | null;
  route: Route | null;
}

/**
 * The town and route these ids name: of the workspace and active, unless the user already has it
 * (`current`) (400 naming the field otherwise); a route must lie in the given town, or sets it.
 */
export async function userPlace(em: EntityManager, townId: number | null, routeId: number | null, current: { town?: number | null; route?: number | null } = {}): Promise<UserPlace> {
  const town = townId === null ? null : await assignableMaster(em, Town, townId, { field: 'townId', label: 'town', current: current.town });
  if (routeId === null) return { town, route: null };
  const route = await assignableMaster(em, Route, routeId, { field: 'routeId', label: 'route', current: current.route, options: { populate: ['town'] } });
  if (town && route.town.id !== town.id) throw new ValidationError('routeId', 'is not a route of the given town');
  return { town: town ?? route.town, route };
}

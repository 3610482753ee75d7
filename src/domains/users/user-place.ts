import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../../errors/app-error';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';

/** Where a user works or trades: a town of the workspace and a route in it, either optional. */
export interface UserPlace {
  town: Town | null;
  route: Route | null;
}

/** The town and route these ids name (400 naming the field otherwise); a route must lie in the given town, or sets it. */
export async function userPlace(em: EntityManager, townId: number | null, routeId: number | null): Promise<UserPlace> {
  const town = townId === null ? null : await em.findOne(Town, { id: townId });
  if (townId !== null && !town) throw new ValidationError('townId', 'does not name a town of this workspace');
  if (routeId === null) return { town, route: null };
  const route = await em.findOne(Route, { id: routeId }, { populate: ['town'] });
  if (!route) throw new ValidationError('routeId', 'does not name a route of this workspace');
  if (town && route.town.id !== town.id) throw new ValidationError('routeId', 'is not a route of the given town');
  return { town: town ?? route.town, route };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { loadedRows, rowOf, type Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { Role } from './role.entity';
import { User } from './user.entity';

/** A user the service loaded, as a row; the role and places it was loaded with are handed to the loaders. */
export function userRow(em: EntityManager, user: User, loaders: Loaders): Row<User> {
  loaders.role.prime(loadedRows(em, Role, [user.role]));
  loaders.town.prime(loadedRows(em, Town, [user.town]));
  loaders.route.prime(loadedRows(em, Route, [user.route]));
  return rowOf(em, User, user);
}

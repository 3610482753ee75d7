import type { EntityManager } from '@mikro-orm/postgresql';
import { rowOf, rowsById, type Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import type { Organization } from '../workspace/organization.entity';
import { Role } from './role.entity';
import { User } from './user.entity';

/** A user as REST and GraphQL show it: its row and the rows of the records it names. */
export interface UserRead {
  user: Row<User>;
  role: Row<Role>;
  town: Row<Town> | null;
  route: Row<Route> | null;
}

/** A user with the workspace they belong to (GET /users/{id}, GET /auth/me). */
export interface UserProfileRead extends UserRead {
  organization: Row<Organization>;
}

/** The reads of user rows: their roles, towns and routes in one tenant-filtered statement each. */
export async function readUsers(em: EntityManager, users: ReadonlyArray<Row<User>>): Promise<UserRead[]> {
  const [roles, towns, routes] = await Promise.all([
    rowsById(em, Role, users.map((u) => u.role)),
    rowsById(em, Town, users.map((u) => u.town)),
    rowsById(em, Route, users.map((u) => u.route)),
  ]);
  return users.map((user) => {
    const role = roles.get(user.role);
    // role_id is a required foreign key of the same workspace: a miss is a broken database.
    if (!role) throw new Error(`Role ${user.role} of user ${user.id} not found`);
    return { user, role, town: user.town === null ? null : (towns.get(user.town) ?? null), route: user.route === null ? null : (routes.get(user.route) ?? null) };
  });
}

/** The read of a user the service has just written, whose role, town and route it loaded. */
export function userReadOf(em: EntityManager, user: User): UserRead {
  return {
    user: rowOf(em, User, user),
    role: rowOf(em, Role, user.role),
    town: user.town && rowOf(em, Town, user.town),
    route: user.route && rowOf(em, Route, user.route),
  };
}

/** GraphQL's row of a user read: its role and places are handed to the loaders for the nested fields. */
export function userRowOf(read: UserRead, loaders: Loaders): Row<User> {
  loaders.role.prime([read.role]);
  if (read.town) loaders.town.prime([read.town]);
  if (read.route) loaders.route.prime([read.route]);
  return read.user;
}

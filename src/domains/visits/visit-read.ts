import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsById, type Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import { Outlet } from '../masters/outlet.entity';
import { User } from '../users/user.entity';
import type { Visit } from './visit.entity';

/** A visit as REST and GraphQL show it: its row, its user's and its outlet's. */
export interface VisitRead {
  visit: Row<Visit>;
  user: Row<User>;
  outlet: Row<Outlet>;
}

/** The reads of visit rows: their users and outlets, one tenant-filtered statement each. */
export async function readVisits(em: EntityManager, visits: ReadonlyArray<Row<Visit>>): Promise<VisitRead[]> {
  const [users, outlets] = await Promise.all([rowsById(em, User, visits.map((v) => v.user)), rowsById(em, Outlet, visits.map((v) => v.outlet))]);
  return visits.map((visit) => {
    const user = users.get(visit.user);
    const outlet = outlets.get(visit.outlet);
    // Both are required foreign keys of the same workspace: a miss is a broken database.
    if (!user || !outlet) throw new Error(`User ${visit.user} or outlet ${visit.outlet} of visit ${visit.id} not found`);
    return { visit, user, outlet };
  });
}

/** GraphQL's row of a visit read: its user and outlet are handed to the loaders of the nested fields. */
export function visitRowOf(read: VisitRead, loaders: Loaders): Row<Visit> {
  loaders.user.prime([read.user]);
  loaders.outlet.prime([read.outlet]);
  return read.visit;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { rowOf, rowsById, type Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import { User } from '../users/user.entity';
import { Leave } from './leave.entity';

/** A leave as REST and GraphQL show it: its row and its user's. */
export interface LeaveRead {
  leave: Row<Leave>;
  user: Row<User>;
}

/** The reads of leave rows: their users in one tenant-filtered statement. */
export async function readLeaves(em: EntityManager, leaves: ReadonlyArray<Row<Leave>>): Promise<LeaveRead[]> {
  const users = await rowsById(em, User, leaves.map((l) => l.user));
  return leaves.map((leave) => {
    const user = users.get(leave.user);
    // user_id is a required foreign key of the same workspace: a miss is a broken database.
    if (!user) throw new Error(`User ${leave.user} of leave ${leave.id} not found`);
    return { leave, user };
  });
}

/** The read of a leave the service has just written. */
export async function leaveReadOf(em: EntityManager, leave: Leave): Promise<LeaveRead> {
  const [read] = await readLeaves(em, [rowOf(em, Leave, leave)]);
  return read;
}

/** GraphQL's row of a leave read: its user is handed to the loader of the nested field. */
export function leaveRowOf(read: LeaveRead, loaders: Loaders): Row<Leave> {
  loaders.user.prime([read.user]);
  return read.leave;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsById, type Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import { User } from '../users/user.entity';
import type { Attendance } from './attendance.entity';

/** An attendance record as REST and GraphQL show it: its row and its user's. */
export interface AttendanceRead {
  attendance: Row<Attendance>;
  user: Row<User>;
}

/** The reads of attendance rows: their users in one tenant-filtered statement. */
export async function readAttendance(em: EntityManager, records: ReadonlyArray<Row<Attendance>>): Promise<AttendanceRead[]> {
  const users = await rowsById(em, User, records.map((r) => r.user));
  return records.map((attendance) => {
    const user = users.get(attendance.user);
    // user_id is a required foreign key of the same workspace: a miss is a broken database.
    if (!user) throw new Error(`User ${attendance.user} of attendance ${attendance.id} not found`);
    return { attendance, user };
  });
}

/** GraphQL's row of an attendance read: its user is handed to the loader of the nested field. */
export function attendanceRowOf(read: AttendanceRead, loaders: Loaders): Row<Attendance> {
  loaders.user.prime([read.user]);
  return read.attendance;
}

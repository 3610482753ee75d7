import { Type } from '@sinclair/typebox';
import type { AttendanceRead } from '../../src/domains/attendance/attendance-read';
import { DateString, Nullable, Timestamp } from '../schemas';

/** An attendance record: one user's local day. */
export const AttendanceBody = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_name: Type.String(),
  date: DateString,
  check_in_at: Timestamp,
  check_out_at: Nullable(Timestamp),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
});

/** An attendance record with its user's name. */
export function presentAttendance({ attendance: a, user }: AttendanceRead) {
  return {
    id: a.id,
    user_id: user.id,
    user_name: `${user.firstName} ${user.lastName}`,
    date: a.day,
    check_in_at: a.checkInAt,
    check_out_at: a.checkOutAt,
    latitude: a.latitude,
    longitude: a.longitude,
  };
}

import { defineDomain } from '../domain-module';
import { Attendance } from './attendance.entity';
import { AttendanceFieldsResolver, AttendanceResolver } from './attendance.resolver';
import { AttendanceService } from './attendance.service';

declare module '../domain-module' {
  interface Services {
    attendance: AttendanceService;
  }
}

/** Employees' check-in and check-out, one record a working day. */
export const attendanceDomain = defineDomain({
  name: 'attendance',
  entities: [Attendance],
  services: () => ({ attendance: new AttendanceService() }),
  resolvers: [AttendanceResolver, AttendanceFieldsResolver],
  routeGroups: { attendance: 'scoped' },
});

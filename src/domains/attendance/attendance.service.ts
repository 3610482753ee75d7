import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { rowOf } from '../../db/entity-rows';
import { ConflictError, ForbiddenError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { isCustomer, requireStaff } from '../auth/permissions';
import { User, UserType } from '../users/user.entity';
import { workspaceToday } from '../workspace/local-day';
import { Attendance } from './attendance.entity';
import { readAttendance, type AttendanceRead } from './attendance-read';
import { sortable } from '../../lists/sort';

export interface CheckInInput {
  latitude?: number | null;
  longitude?: number | null;
}

export interface AttendanceFilter {
  date?: string | null;
  userId?: number | null;
}

/**
 * Attendance of staff: a signed-in employee or admin checks in once per local day (the
 * workspace's time zone) and out once. Admins see everyone's; employees their own.
 */
export class AttendanceService {
  /** 409 when already checked in today. */
  async checkIn(ctx: RequestContext, input: CheckInInput): Promise<AttendanceRead> {
    const session = ctx.requireSession();
    if (isCustomer(ctx)) throw new ForbiddenError('Only employees and admins record attendance');
    const { latitude, longitude } = location(input);
    const day = await workspaceToday(ctx.em, session.organizationId);
    const existing = await ctx.em.findOne(Attendance, { user: session.userId, day });
    if (existing) throw new ConflictError(`Already checked in today (${day})`);
    const record = ctx.em.create(Attendance, {
      organizationId: session.organizationId,
      user: ctx.em.getReference(User, session.userId),
      day,
      checkInAt: new Date(),
      latitude,
      longitude,
    });
    await ctx.em.flush();
    return this.readOf(ctx, record);
  }

  /** 409 without a check-in today, or when already checked out. */
  async checkOut(ctx: RequestContext): Promise<AttendanceRead> {
    const session = ctx.requireSession();
    const day = await workspaceToday(ctx.em, session.organizationId);
    const record = await ctx.em.findOne(Attendance, { user: session.userId, day });
    if (!record) throw new ConflictError(`Not checked in today (${day})`);
    if (record.checkOutAt) throw new ConflictError(`Already checked out today (${day})`);
    record.checkOutAt = new Date();
    await ctx.em.flush();
    return this.readOf(ctx, record);
  }

  /** Staff only; newest day first. Employees see only their own records. */
  async list(ctx: RequestContext, filter: AttendanceFilter, pageRequest: PageRequest): Promise<Paginated<AttendanceRead>> {
    requireStaff(ctx);
    const principal = ctx.requirePrincipal();
    const ownOnly = principal.kind === 'session' && principal.userType === UserType.EMPLOYEE;
    const where: FilterQuery<Attendance> = {
      ...(filter.date != null ? { day: rules.calendarDate('date', filter.date) } : {}),
      ...(ownOnly ? { user: ctx.userId! } : filter.userId != null ? { user: filter.userId } : {}),
    };
    const page = await readPage(ctx.em, ATTENDANCE_LIST, where, pageRequest);
    return { ...page, items: await readAttendance(ctx.em, page.items) };
  }

  /** The read of a record just written: its row and its user's. */
  private async readOf(ctx: RequestContext, record: Attendance): Promise<AttendanceRead> {
    const [read] = await readAttendance(ctx.em, [rowOf(ctx.em, Attendance, record)]);
    return read;
  }
}

/** The attendance list: newest day first unless sorted. */
export const ATTENDANCE_SORT = sortable<keyof Attendance & string>({
  name: 'Attendance',
  fields: { date: 'day', check_in_at: 'checkInAt', check_out_at: 'checkOutAt', id: 'id' },
  default: '-date,-check_in_at',
});
const ATTENDANCE_LIST = entityList({ entity: Attendance, sort: ATTENDANCE_SORT });

function location(input: CheckInInput): { latitude: number | null; longitude: number | null } {
  const { latitude = null, longitude = null } = input;
  if ((latitude === null) !== (longitude === null)) throw new ValidationError(latitude === null ? 'latitude' : 'longitude', 'is required with the other coordinate');
  return {
    latitude: latitude === null ? null : rules.coordinate('latitude', latitude, 90),
    longitude: longitude === null ? null : rules.coordinate('longitude', longitude, 180),
  };
}

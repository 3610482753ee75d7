import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { findRows, type Row } from '../../db/entity-rows';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { resolvePage, type PageRequest, type Paginated } from '../../lists/page-request';
import { resolveSort } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { Attendance } from '../attendance/attendance.entity';
import { isCustomer, requireStaff } from '../auth/permissions';
import { isCustomerType, User, UserType } from '../users/user.entity';
import { localDayStart, shiftDay, workspaceToday } from '../workspace/local-day';
import { pathMetres } from './distance';
import { Position } from './position.entity';
import { checkPositions, type PositionInput } from './position-input';
import { findLivePage, insertPositions, LIVE_SORT, type LivePosition } from './tracking-statements';

/** How far ahead of the server's clock a device time may be (clock skew), in milliseconds. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** Most points a trail answers; a day beyond it is cut (`truncated`), its first points kept. */
export const MAX_TRAIL_POINTS = 20_000;

/** Why a position of an accepted batch was not stored. */
export type RejectionReason = 'before_check_in' | 'in_future' | 'duplicate';

/** What a batch did: how many positions were stored, and which were not and why (by index in the batch). */
export interface TrackResult {
  accepted: number;
  rejected: Array<{ index: number; reason: RejectionReason }>;
  /** The open check-in the batch was accepted under. */
  checkedInAt: Date;
}

/** One user's breadcrumb of one local day. */
export interface TrailRead {
  user: Row<User>;
  date: string;
  points: Array<Row<Position>>;
  /** Haversine length of the path through `points`, in metres. */
  distanceM: number;
  /** The day holds more than MAX_TRAIL_POINTS points: the first ones are answered. */
  truncated: boolean;
}

export interface LiveFilter {
  userId?: number | null;
  onDuty?: boolean | null;
}

/**
 * Live tracking. Positions are duty-bounded: a staff member's device posts them only while its
 * user is checked in (attendance: an open check-in of the workspace's local day); off duty the
 * batch is refused and nothing is stored. Admins see everyone's, API keys (scope `tracking`) read
 * everyone's, employees see their own; customers are refused.
 */
export class TrackingService {
  /**
   * Stores a batch of the signed-in staff member's positions (1–500). 409 when not checked in
   * today or already checked out; a malformed field refuses the batch (400). Within the batch, a
   * position before the check-in or more than 5 minutes ahead of the server, or one already
   * stored for the same device time, is skipped and reported in `rejected`.
   */
  async track(ctx: RequestContext, input: { positions: readonly PositionInput[] }): Promise<TrackResult> {
    const session = ctx.requireSession();
    if (isCustomer(ctx)) throw new ForbiddenError('Only employees and admins post positions');
    const positions = checkPositions(input.positions);
    const day = await workspaceToday(ctx.em, session.organizationId);
    return ctx.em.transactional(async (tx) => {
      // The share lock holds a concurrent check-out back until the batch is stored: a batch is
      // either wholly before the check-out or refused after it.
      const duty = await tx.findOne(Attendance, { user: session.userId, day }, { lockMode: LockMode.PESSIMISTIC_READ });
      if (!duty) throw new ConflictError(`Not checked in today (${day}): positions are accepted only while on duty`);
      if (duty.checkOutAt) throw new ConflictError(`Checked out today (${day}): positions are accepted only while on duty`);
      const latest = Date.now() + FUTURE_TOLERANCE_MS;
      const rejected: TrackResult['rejected'] = [];
      const inSpan = positions.flatMap((p, index) => {
        const at = p.recordedAt.getTime();
        if (at < duty.checkInAt.getTime()) rejected.push({ index, reason: 'before_check_in' });
        else if (at > latest) rejected.push({ index, reason: 'in_future' });
        else return [{ p, index }];
        return [];
      });
      let accepted = 0;
      if (inSpan.length > 0) {
        const stored = await insertPositions(tx, session.organizationId, session.userId, inSpan.map(({ p }) => p));
        for (const { p, index } of inSpan) {
          // Each stored device time accounts for one position, the first of the batch to carry it.
          if (stored.delete(p.recordedAt.getTime())) accepted += 1;
          else rejected.push({ index, reason: 'duplicate' });
        }
      }
      rejected.sort((a, b) => a.index - b.index);
      return { accepted, rejected, checkedInAt: duty.checkInAt };
    });
  }

  /** The latest position of each staff user who has one (employees: their own only). */
  async live(ctx: RequestContext, filter: LiveFilter, pageRequest: PageRequest): Promise<Paginated<LivePosition>> {
    requireStaff(ctx);
    const own = this.ownUserId(ctx);
    let userId = filter.userId ?? undefined;
    if (own !== null && userId !== undefined && userId !== own) throw new ForbiddenError('Employees see only their own position');
    if (userId !== undefined) await this.staffUser(ctx, userId, () => new ValidationError('userId', 'does not name an employee or admin of this workspace'));
    userId ??= own ?? undefined;
    const page = resolvePage(pageRequest);
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    return findLivePage(ctx.em, ctx.organizationId, { today, userId, onDuty: filter.onDuty ?? undefined }, { ...page, sort: resolveSort(LIVE_SORT, pageRequest.sort) });
  }

  /**
   * One user's positions of one local day (default today), oldest first, with the distance
   * through them. `userId` defaults to the signed-in user; API keys must name one. Another
   * workspace's user is 404; employees may read only their own trail.
   */
  async trail(ctx: RequestContext, input: { userId?: number | null; date?: string | null }): Promise<TrailRead> {
    requireStaff(ctx);
    const own = this.ownUserId(ctx);
    const userId = input.userId ?? ctx.userId;
    if (userId == null) throw new ValidationError('userId', 'is required with an API key');
    if (own !== null && userId !== own) throw new ForbiddenError('Employees see only their own trail');
    const date = input.date == null ? await workspaceToday(ctx.em, ctx.organizationId) : rules.calendarDate('date', input.date);
    const user = await this.staffUser(ctx, userId, () => new NotFoundError('User', userId));
    const [from, to] = await Promise.all([localDayStart(ctx.em, ctx.organizationId, date), localDayStart(ctx.em, ctx.organizationId, shiftDay(date, 1))]);
    const points = await findRows(ctx.em, Position, { user: userId, recordedAt: { $gte: from, $lt: to } }, { orderBy: { recordedAt: 'asc' }, limit: MAX_TRAIL_POINTS + 1 });
    const truncated = points.length > MAX_TRAIL_POINTS;
    if (truncated) points.length = MAX_TRAIL_POINTS;
    return { user, date, points, distanceM: pathMetres(points), truncated };
  }

  /** The employee's own id when an employee signed in (they see only their own); null for admins and API keys. */
  private ownUserId(ctx: RequestContext): number | null {
    const principal = ctx.requirePrincipal();
    return principal.kind === 'session' && principal.userType === UserType.EMPLOYEE ? principal.userId : null;
  }

  /** The staff user (employee or admin) of the workspace with this id, else the error `missing` makes. */
  private async staffUser(ctx: RequestContext, userId: number, missing: () => Error): Promise<Row<User>> {
    const [user] = await findRows(ctx.em, User, { id: userId });
    if (!user || isCustomerType(user.userType)) throw missing();
    return user;
  }
}

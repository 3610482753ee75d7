import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { ActiveStatus } from '../../db/active-status';
import { requireStaff } from '../auth/permissions';
import { User, UserType } from '../users/user.entity';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue';
import { workspaceToday } from '../workspace/local-day';
import { leaveDecidedData } from './leave-events';
import { leaveReadOf, readLeaves, type LeaveRead } from './leave-read';
import { assertLeaveTransition, checkLeaveRequest, decisionNoteOf, type LeaveRequest } from './leave-rules';
import { Leave, LEAVE_STATUS_LABELS, LEAVE_STATUSES, LEAVE_TYPES, LeaveStatus } from './leave.entity';

/** A new leave; `userId` is whose (default: the signed-in user's own). */
export interface ApplyLeaveInput extends LeaveRequest {
  userId?: number | null;
}

/** Filters of the leave list. */
export interface LeaveFilter {
  userId?: number | null;
  status?: number | null;
  leaveType?: number | null;
  /** With dateTo: leaves having at least one day in [dateFrom, dateTo]. */
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** The leave list: latest first day first unless sorted. */
export const LEAVE_SORT = sortable<keyof Leave & string>({
  name: 'Leave',
  fields: { from_date: 'fromDate', to_date: 'toDate', days: 'days', status: 'status', created_at: 'createdAt', id: 'id' },
  default: '-from_date',
});
const LEAVE_LIST = entityList({ entity: Leave, sort: LEAVE_SORT });

/** Leaves that block a new one of the same days. */
const BLOCKING = [LeaveStatus.OPEN, LeaveStatus.APPROVED];

/**
 * Leaves of staff. An employee applies for themselves; an admin (or an API key) also on behalf of
 * any employee or admin. Any admin but the leave's own user approves or rejects (users have no
 * managers here). The applicant or an admin cancels. Customers get 403; employees see only theirs.
 */
export class LeaveService {
  constructor(private readonly events: WebhookEventQueue) {}

  /** 400 naming a bad field; 409 when it overlaps an open or approved leave of the same user. */
  async apply(ctx: RequestContext, input: ApplyLeaveInput): Promise<LeaveRead> {
    const userId = this.applicantOf(ctx, input.userId);
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const checked = checkLeaveRequest(input, today);
    const leave = await ctx.em.transactional(async (tx) => {
      // The user's row lock serializes the applications of one user, so two overlapping ones cannot
      // both pass the check below (FOR NO KEY UPDATE: inserts that reference the user still proceed).
      if (!(await lockStaffUser(tx, ctx.organizationId, userId))) {
        throw new ValidationError('userId', 'must name an active employee or admin of this workspace');
      }
      const overlapping = await tx.findOne(
        Leave,
        { user: userId, status: { $in: BLOCKING }, fromDate: { $lte: checked.toDate }, toDate: { $gte: checked.fromDate } },
        { orderBy: { fromDate: 'asc' } },
      );
      if (overlapping) {
        throw new ConflictError(
          `Overlaps leave ${overlapping.id} (${overlapping.fromDate} to ${overlapping.toDate}, ${LEAVE_STATUS_LABELS[overlapping.status]}) of user ${userId}`,
        );
      }
      const created = tx.create(Leave, { organizationId: ctx.organizationId, user: tx.getReference(User, userId), ...checked });
      await tx.flush();
      return created;
    });
    return leaveReadOf(ctx.em, leave);
  }

  /** Staff; employees see only their own. `dateFrom`/`dateTo` keep leaves with a day in that range. */
  async list(ctx: RequestContext, filter: LeaveFilter, pageRequest: PageRequest): Promise<Paginated<LeaveRead>> {
    const own = this.ownLeavesOf(ctx);
    const dateFrom = filter.dateFrom == null ? null : rules.calendarDate('dateFrom', filter.dateFrom);
    const dateTo = filter.dateTo == null ? null : rules.calendarDate('dateTo', filter.dateTo);
    if (dateFrom && dateTo && dateFrom > dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
    if (filter.status != null) rules.oneOf('status', filter.status, LEAVE_STATUSES);
    if (filter.leaveType != null) rules.oneOf('leaveType', filter.leaveType, LEAVE_TYPES);
    // Every condition is ANDed, so no filter widens what an employee sees.
    const where: Array<FilterQuery<Leave>> = [];
    if (own !== null) where.push({ user: own });
    if (filter.userId != null) where.push({ user: filter.userId });
    if (filter.status != null) where.push({ status: filter.status });
    if (filter.leaveType != null) where.push({ leaveType: filter.leaveType });
    if (dateFrom) where.push({ toDate: { $gte: dateFrom } });
    if (dateTo) where.push({ fromDate: { $lte: dateTo } });
    const page = await readPage(ctx.em, LEAVE_LIST, { $and: where }, pageRequest);
    return { ...page, items: await readLeaves(ctx.em, page.items) };
  }

  /** 404 when it is not the workspace's, or (for an employee) not their own. */
  async get(ctx: RequestContext, id: number): Promise<LeaveRead> {
    const leave = await ctx.em.findOne(Leave, this.visible(ctx, id));
    if (!leave) throw new NotFoundError('Leave', id);
    return leaveReadOf(ctx.em, leave);
  }

  /** An admin's session approves an open leave of someone else; emits leave.approved. */
  approve(ctx: RequestContext, id: number, note?: string | null): Promise<LeaveRead> {
    return this.decide(ctx, id, LeaveStatus.APPROVED, note);
  }

  /** An admin's session rejects an open leave of someone else; emits leave.rejected. */
  reject(ctx: RequestContext, id: number, note?: string | null): Promise<LeaveRead> {
    return this.decide(ctx, id, LeaveStatus.REJECTED, note);
  }

  /**
   * The applicant (the leave's user) or an admin (or an API key) cancels an open or approved leave,
   * unless all its days have passed (409): its to_date is before today, the workspace's.
   */
  async cancel(ctx: RequestContext, id: number): Promise<LeaveRead> {
    const where = this.visible(ctx, id);
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const leave = await ctx.em.transactional(async (tx) => {
      const leave = await tx.findOne(Leave, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!leave) throw new NotFoundError('Leave', id);
      assertLeaveTransition(leave.id, leave.status, LeaveStatus.CANCELLED);
      if (leave.toDate < today) throw new ConflictError(`Leave ${leave.id} ended on ${leave.toDate}: a leave whose days have all passed cannot be cancelled`);
      leave.status = LeaveStatus.CANCELLED;
      leave.cancelledAt = new Date();
      return leave;
    });
    return leaveReadOf(ctx.em, leave);
  }

  private async decide(ctx: RequestContext, id: number, to: LeaveStatus.APPROVED | LeaveStatus.REJECTED, note: string | null | undefined): Promise<LeaveRead> {
    // A session, not a key: a decision names the admin who made it, and no admin decides their own leave.
    const admin = ctx.requireAdminSession();
    const decisionNote = decisionNoteOf(note);
    const leave = await ctx.em.transactional(async (tx) => {
      const leave = await tx.findOne(Leave, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!leave) throw new NotFoundError('Leave', id);
      if (leave.user.id === admin.userId) throw new ForbiddenError('An administrator cannot approve or reject their own leave: another administrator decides it');
      leave.status = assertLeaveTransition(leave.id, leave.status, to);
      leave.decidedBy = tx.getReference(User, admin.userId);
      leave.decidedAt = new Date();
      leave.decisionNote = decisionNote;
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, to === LeaveStatus.APPROVED ? 'leave.approved' : 'leave.rejected', leaveDecidedData(leave));
      return leave;
    });
    return leaveReadOf(ctx.em, leave);
  }

  /** Whose leave an application is: an employee's own; an admin's own unless named; a key must name one. */
  private applicantOf(ctx: RequestContext, userId: number | null | undefined): number {
    requireStaff(ctx);
    const principal = ctx.requirePrincipal();
    if (principal.kind === 'apiKey') {
      if (userId == null) throw new ValidationError('userId', 'is required when an API key applies: whose leave it is');
      return userId;
    }
    if (principal.userType === UserType.EMPLOYEE && userId != null && userId !== principal.userId) {
      throw new ValidationError('userId', 'must be your own user id: employees apply for themselves');
    }
    return userId ?? principal.userId;
  }

  /** Customers 403; an employee's own user id; null for admins and keys (every leave of the workspace). */
  private ownLeavesOf(ctx: RequestContext): number | null {
    requireStaff(ctx);
    const principal = ctx.requirePrincipal();
    return principal.kind === 'session' && principal.userType === UserType.EMPLOYEE ? principal.userId : null;
  }

  private visible(ctx: RequestContext, id: number): FilterQuery<Leave> {
    const own = this.ownLeavesOf(ctx);
    return own === null ? { id } : { id, user: own };
  }
}

/** Locks an active employee's or admin's row of the workspace (FOR NO KEY UPDATE); false when there is none. */
async function lockStaffUser(tx: EntityManager, organizationId: number, userId: number): Promise<boolean> {
  const t = tenantSql(organizationId, 'u');
  const rows = await executeSql(
    tx,
    sql`select u.id from app_user u
         where ${t.owns()} and u.id = ${userId} and u.user_type in (${UserType.ADMIN}, ${UserType.EMPLOYEE}) and u.status = ${ActiveStatus.ACTIVE}
         for no key update`,
  );
  return rows.length > 0;
}

import { LockMode, UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext, SessionPrincipal } from '../../context/request-context';
import { rowOf } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { isCustomer, requireStaff } from '../auth/permissions';
import { ActiveStatus } from '../../db/active-status';
import { NoSaleReason } from '../masters/no-sale-reason.entity';
import { Outlet } from '../masters/outlet.entity';
import { Order } from '../orders/order.entity';
import { haversineMetres } from '../tracking/distance';
import { User, UserType } from '../users/user.entity';
import { checkOutcome, checkPoint, clientRefOf, requiredId, type CheckInVisitInput, type CheckOutVisitInput } from './visit-input';
import { readVisits, type VisitRead } from './visit-read';
import { Visit, VISIT_OUTCOMES, VISIT_STATUS_LABELS, VISIT_STATUSES, VisitStatus } from './visit.entity';

export interface VisitFilter {
  userId?: number | null;
  outletId?: number | null;
  date?: string | null;
  status?: number | null;
  outcome?: number | null;
}

/** A check-in's answer: the visit, and whether this request created it (false: a re-sent client_ref). */
export interface CheckInResult {
  read: VisitRead;
  created: boolean;
}

/** The name of the partial unique index that holds one in-progress visit per user. */
const ONE_OPEN_PER_USER = 'visit_one_open_per_user';

/**
 * Visits: a signed-in staff member (employee or admin) checks in on an outlet, then checks out
 * with an outcome or abandons the visit. A visit is its visitor's: only they check it in and out
 * (API keys 403); admins may also abandon one and see everyone's; employees see their own;
 * customers are refused. Geo-verification is decided at check-out with the workspace's radius and
 * minimum dwell, and stored with them.
 */
export class VisitService {
  /**
   * Creates an in-progress visit. A `clientRef` already used by the caller answers that visit
   * whatever the rest of the body (created: false), never a second one; another user's is 409.
   * 409 while the caller has a visit in progress (also when two check-ins race: the partial unique
   * index decides).
   */
  async checkIn(ctx: RequestContext, input: CheckInVisitInput): Promise<CheckInResult> {
    const session = this.visitor(ctx);
    const clientRef = clientRefOf(input.clientRef);
    const resent = await this.resent(ctx, session, clientRef);
    if (resent) return resent;
    const outletId = requiredId('outletId', input.outletId);
    const point = checkPoint(input);
    const outlet = await ctx.em.findOne(Outlet, { id: outletId });
    if (!outlet || outlet.status !== ActiveStatus.ACTIVE) throw new ValidationError('outletId', 'does not name an active outlet of this workspace');
    await this.refuseOpenVisit(ctx.em, session.userId);
    const visitDate = await localDayOf(ctx.em, session.organizationId, point.deviceTime);
    const distance = outlet.latitude != null && outlet.longitude != null ? round1(haversineMetres(point, { latitude: outlet.latitude, longitude: outlet.longitude })) : null;
    try {
      const visit = await ctx.em.transactional(async (tx) => {
        const record = tx.create(Visit, {
          organizationId: session.organizationId,
          clientRef,
          user: tx.getReference(User, session.userId),
          outlet: tx.getReference(Outlet, outlet.id),
          status: VisitStatus.IN_PROGRESS,
          visitDate,
          checkInAt: new Date(),
          checkInDeviceTime: point.deviceTime,
          checkInLatitude: point.latitude,
          checkInLongitude: point.longitude,
          checkInAccuracyM: point.accuracyM,
          checkInIsMock: point.isMock,
          distanceFromOutletM: distance,
        });
        await tx.flush();
        return rowOf(tx, Visit, record);
      });
      const [read] = await readVisits(ctx.em, [visit]);
      return { read, created: true };
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      // A concurrent check-in won the race: the same client_ref (answer it), or another open visit (409).
      const again = await this.resent(ctx, session, clientRef);
      if (again) return again;
      if (err.message.includes(ONE_OPEN_PER_USER)) await this.refuseOpenVisit(ctx.em, session.userId);
      throw err;
    }
  }

  /**
   * Checks the caller's in-progress visit out with its outcome, deciding geo-verification. 404 for
   * another workspace's visit or, for employees, another user's; 403 for an admin on another
   * user's; 409 when not in progress. Every bad field is a 400 before anything changes.
   */
  async checkOut(ctx: RequestContext, id: number, input: CheckOutVisitInput): Promise<VisitRead> {
    const session = this.visitor(ctx);
    const found = await this.visible(ctx, id);
    if (found.user.id !== session.userId) throw new ForbiddenError('Only the visiting user checks a visit out');
    const point = checkPoint(input);
    if (point.deviceTime.getTime() < found.checkInDeviceTime.getTime()) throw new ValidationError('deviceTime', 'must not be before the check-in’s device time');
    const outcome = checkOutcome(input);
    if (outcome.orderId != null) {
      const order = await ctx.em.findOne(Order, { id: outcome.orderId, createdBy: session.userId, cancelledAt: null });
      if (!order) throw new ValidationError('orderId', 'does not name an order of yours that is not cancelled');
      await this.refuseOrderOfAnotherVisit(ctx.em, outcome.orderId);
    }
    if (outcome.noSaleReasonId != null) {
      const reason = await ctx.em.findOne(NoSaleReason, { id: outcome.noSaleReasonId, status: ActiveStatus.ACTIVE });
      if (!reason) throw new ValidationError('noSaleReasonId', 'does not name an active no-sale reason of this workspace');
    }
    const visit = await ctx.em.transactional(async (tx) => {
      const record = await tx.findOneOrFail(Visit, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      this.requireInProgress(record);
      const settings = await geoSettings(tx, session.organizationId);
      const dwellSeconds = Math.round((point.deviceTime.getTime() - record.checkInDeviceTime.getTime()) / 1000);
      tx.assign(record, {
        status: VisitStatus.COMPLETED,
        checkOutAt: new Date(),
        checkOutDeviceTime: point.deviceTime,
        checkOutLatitude: point.latitude,
        checkOutLongitude: point.longitude,
        checkOutAccuracyM: point.accuracyM,
        checkOutIsMock: point.isMock,
        dwellSeconds,
        // A device that says its location was mocked (at check-in or check-out) is not taken at its word.
        geoVerified:
          record.distanceFromOutletM != null &&
          record.distanceFromOutletM <= settings.radiusM &&
          dwellSeconds >= settings.minDwellMinutes * 60 &&
          record.checkInIsMock !== true &&
          point.isMock !== true,
        radiusM: settings.radiusM,
        minDwellMinutes: settings.minDwellMinutes,
        outcome: outcome.outcome,
        order: outcome.orderId == null ? null : tx.getReference(Order, outcome.orderId),
        noSaleReason: outcome.noSaleReasonId == null ? null : tx.getReference(NoSaleReason, outcome.noSaleReasonId),
        remarks: outcome.remarks,
      });
      await tx.flush();
      return rowOf(tx, Visit, record);
    }).catch(async (err: unknown) => {
      // Two check-outs naming one order at once: the unique key lets one through.
      if (err instanceof UniqueConstraintViolationException && outcome.orderId != null) await this.refuseOrderOfAnotherVisit(ctx.em.fork(), outcome.orderId);
      throw err;
    });
    const [read] = await readVisits(ctx.em, [visit]);
    return read;
  }

  /** In progress → abandoned, by its visitor or an admin; 409 otherwise. */
  async abandon(ctx: RequestContext, id: number): Promise<VisitRead> {
    this.visitor(ctx);
    await this.visible(ctx, id);
    const visit = await ctx.em.transactional(async (tx) => {
      const record = await tx.findOneOrFail(Visit, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      this.requireInProgress(record);
      record.status = VisitStatus.ABANDONED;
      await tx.flush();
      return rowOf(tx, Visit, record);
    });
    const [read] = await readVisits(ctx.em, [visit]);
    return read;
  }

  /** Staff and API keys (scope visits); employees see only their own. Newest check-in first. */
  async list(ctx: RequestContext, filter: VisitFilter, pageRequest: PageRequest): Promise<Paginated<VisitRead>> {
    requireStaff(ctx);
    const own = ownUserId(ctx);
    if (own !== null && filter.userId != null && filter.userId !== own) throw new ForbiddenError('Employees see only their own visits');
    const userId = own ?? filter.userId ?? null;
    const where: FilterQuery<Visit> = {
      ...(userId != null ? { user: userId } : {}),
      ...(filter.outletId != null ? { outlet: filter.outletId } : {}),
      ...(filter.date != null ? { visitDate: rules.calendarDate('date', filter.date) } : {}),
      ...(filter.status != null ? { status: rules.oneOf('status', filter.status, VISIT_STATUSES as readonly number[]) } : {}),
      ...(filter.outcome != null ? { outcome: rules.oneOf('outcome', filter.outcome, VISIT_OUTCOMES as readonly number[]) } : {}),
    };
    const page = await readPage(ctx.em, VISIT_LIST, where, pageRequest);
    return { ...page, items: await readVisits(ctx.em, page.items) };
  }

  /** One visit; another workspace's, or for employees another user's, is 404. */
  async get(ctx: RequestContext, id: number): Promise<VisitRead> {
    requireStaff(ctx);
    const visit = await this.visible(ctx, id);
    const [read] = await readVisits(ctx.em, [rowOf(ctx.em, Visit, visit)]);
    return read;
  }

  /** A signed-in staff member: visits are a person's (API keys and customers 403). */
  private visitor(ctx: RequestContext): SessionPrincipal {
    const session = ctx.requireSession();
    if (isCustomer(ctx)) throw new ForbiddenError('Only employees and admins make visits');
    return session;
  }

  /** The visit the caller may see: 404 for another workspace's, and for an employee another user's. */
  private async visible(ctx: RequestContext, id: number): Promise<Visit> {
    const visit = await ctx.em.findOne(Visit, { id });
    const own = ownUserId(ctx);
    if (!visit || (own !== null && visit.user.id !== own)) throw new NotFoundError('Visit', id);
    return visit;
  }

  private requireInProgress(visit: Visit): void {
    if (visit.status !== VisitStatus.IN_PROGRESS) throw new ConflictError(`Visit ${visit.id} is ${VISIT_STATUS_LABELS[visit.status]}, not in progress`);
  }

  /** 409 when another visit already has the order as its outcome (it would count twice as a productive call). */
  private async refuseOrderOfAnotherVisit(em: EntityManager, orderId: number): Promise<void> {
    const other = await em.findOne(Visit, { order: orderId });
    if (other) throw new ConflictError(`Order ${orderId} is already the outcome of visit ${other.id}`);
  }

  /** 409 naming the user's visit in progress, if any. */
  private async refuseOpenVisit(em: EntityManager, userId: number): Promise<void> {
    const open = await em.findOne(Visit, { user: userId, status: VisitStatus.IN_PROGRESS }, { populate: ['outlet'] });
    if (open) throw new ConflictError(`Visit ${open.id} (outlet ${open.outlet.name}) is still in progress: check out of it or abandon it first`);
  }

  /** The caller's visit of this client_ref, answered again; another user's is 409. */
  private async resent(ctx: RequestContext, session: SessionPrincipal, clientRef: string): Promise<CheckInResult | null> {
    const existing = await ctx.em.findOne(Visit, { clientRef });
    if (!existing) return null;
    if (existing.user.id !== session.userId) throw new ConflictError('client_ref is already used by another user’s visit');
    const [read] = await readVisits(ctx.em, [rowOf(ctx.em, Visit, existing)]);
    return { read, created: false };
  }
}

/** The visit list: newest check-in first unless sorted. */
export const VISIT_SORT = sortable<keyof Visit & string>({
  name: 'Visit',
  fields: { visit_date: 'visitDate', check_in_at: 'checkInAt', check_out_at: 'checkOutAt', status: 'status', id: 'id' },
  default: '-check_in_at',
});
const VISIT_LIST = entityList({ entity: Visit, sort: VISIT_SORT });

/** The employee's own id when an employee signed in; null for admins and API keys. */
function ownUserId(ctx: RequestContext): number | null {
  const principal = ctx.requirePrincipal();
  return principal.kind === 'session' && principal.userType === UserType.EMPLOYEE ? principal.userId : null;
}

const round1 = (metres: number) => Math.round(metres * 10) / 10;

/** The workspace's local day (YYYY-MM-DD) of an instant. */
async function localDayOf(em: EntityManager, organizationId: number, at: Date): Promise<string> {
  const t = tenantSql(organizationId, 'c');
  const [row] = await executeSql<{ day: string }>(
    em,
    sql`select to_char((${at.toISOString()}::timestamptz at time zone c.time_zone)::date, 'YYYY-MM-DD') as day from workspace_config c where ${t.owns()}`,
  );
  return row.day;
}

/** The workspace's geo-verification settings. */
async function geoSettings(em: EntityManager, organizationId: number): Promise<{ radiusM: number; minDwellMinutes: number }> {
  const t = tenantSql(organizationId, 'c');
  const [row] = await executeSql<{ radius_m: number; min_dwell_minutes: number }>(
    em,
    sql`select c.visit_radius_m as radius_m, c.visit_min_dwell_minutes as min_dwell_minutes from workspace_config c where ${t.owns()}`,
  );
  return { radiusM: row.radius_m, minDwellMinutes: row.min_dwell_minutes };
}

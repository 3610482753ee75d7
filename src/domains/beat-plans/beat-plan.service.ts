import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { rowOf, type Row } from '../../db/entity-rows';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { isCustomer } from '../auth/permissions';
import { Outlet } from '../masters/outlet.entity';
import { Route } from '../masters/route.entity';
import { User, UserType } from '../users/user.entity';
import { workspaceToday } from '../workspace/local-day';
import { BeatFrequency, BeatPlan, BeatPlanOutlet } from './beat-plan.entity';
import { readTemplates, type BeatPlanTemplateRead } from './beat-plan-read';
import { dayPlans, freezeStartedDaysOf, templateRowOf, type DayPlan } from './beat-plan-days';
import { mergeDayOutlets, type DayOutletView } from './day-view';
import { visitFacts } from '../visits/visit-facts';
import { monthlyOrdinalOf } from './plan-dates';

export interface BeatPlanTemplateInput {
  userId?: number;
  routeId?: number;
  weekday?: number;
  frequency?: number;
  effectiveFrom?: string;
  effectiveTo?: string | null;
  /** Outlet ids in visiting order; omitted or empty: the route's active outlets by name. */
  outlets?: number[] | null;
}

export interface BeatPlanTemplateFilter {
  userId?: number | null;
  routeId?: number | null;
  weekday?: number | null;
  status?: ActiveStatus | null;
}

/** One employee's day: the plan and, per outlet, what the day's visits did. */
export interface BeatPlanDayView extends Omit<DayPlan, 'outlets'> {
  outlets: DayOutletView[];
}

export const BEAT_FREQUENCIES = [BeatFrequency.WEEKLY, BeatFrequency.FORTNIGHTLY, BeatFrequency.MONTHLY] as const;

/** The template list: by employee, weekday, then id unless sorted. */
export const BEAT_PLAN_SORT = sortable<keyof BeatPlan & string>({
  name: 'BeatPlanTemplate',
  fields: { id: 'id', user_id: 'user', route_id: 'route', weekday: 'weekday', effective_from: 'effectiveFrom', created_at: 'createdAt' },
  default: 'user_id,weekday',
});
const BEAT_PLAN_LIST = entityList({ entity: BeatPlan, sort: BEAT_PLAN_SORT });

/** Beat plan templates (admins manage; employees read their own) and the day views they generate. */
export class BeatPlanService {
  async create(ctx: RequestContext, input: BeatPlanTemplateInput): Promise<BeatPlanTemplateRead> {
    const principal = ctx.requireAdminOrKey();
    const em = ctx.em;
    const fields = await this.checked(em, {
      userId: input.userId ?? missing('userId'),
      routeId: input.routeId ?? missing('routeId'),
      weekday: input.weekday ?? missing('weekday'),
      frequency: input.frequency ?? BeatFrequency.WEEKLY,
      effectiveFrom: input.effectiveFrom ?? missing('effectiveFrom'),
      effectiveTo: input.effectiveTo ?? null,
    }, input.outlets ?? null);
    const today = await workspaceToday(em, principal.organizationId);
    const plan = await em.transactional(async (tx) => {
      await this.refuseOverlap(tx, fields, null);
      const created = tx.create(BeatPlan, { organizationId: principal.organizationId, ...templateValues(tx, fields, today) });
      await tx.flush();
      this.writeOutlets(tx, created, fields.outlets);
      await tx.flush();
      return created;
    });
    return this.readOne(ctx, plan.id);
  }

  /** Changes fields and, when `outlets` is given (or the route changes), replaces the outlet list. */
  async update(ctx: RequestContext, id: number, input: BeatPlanTemplateInput): Promise<BeatPlanTemplateRead> {
    const principal = ctx.requireAdminOrKey();
    const em = ctx.em;
    const plan = await em.findOne(BeatPlan, { id });
    if (!plan) throw new NotFoundError('Beat plan template', id);
    if (plan.status !== ActiveStatus.ACTIVE) throw new ConflictError(`Beat plan template ${id} is deactivated`);
    const routeChanged = input.routeId != null && input.routeId !== plan.route.id;
    // Given: replaces the list (empty: the route's active outlets by name); omitted: kept, unless the route changes.
    const outlets = input.outlets != null ? (input.outlets.length > 0 ? input.outlets : null) : routeChanged ? null : undefined;
    const fields = await this.checked(em, {
      userId: input.userId ?? plan.user.id,
      routeId: input.routeId ?? plan.route.id,
      weekday: input.weekday ?? plan.weekday,
      frequency: input.frequency ?? plan.frequency,
      effectiveFrom: input.effectiveFrom ?? plan.effectiveFrom,
      effectiveTo: input.effectiveTo === undefined ? plan.effectiveTo : input.effectiveTo,
    }, outlets === undefined ? [] : outlets, outlets === undefined);
    const today = await workspaceToday(em, principal.organizationId);
    await em.transactional(async (tx) => {
      await this.freezeBeforeChange(tx, principal.organizationId, id, today);
      await this.refuseOverlap(tx, fields, id);
      const target = await tx.findOneOrFail(BeatPlan, { id });
      Object.assign(target, templateValues(tx, fields, today));
      if (outlets !== undefined) {
        await tx.nativeDelete(BeatPlanOutlet, { beatPlan: id });
        this.writeOutlets(tx, target, fields.outlets);
      }
      await tx.flush();
    });
    return this.readOne(ctx, id);
  }

  /** Soft delete: status 0. Started days keep their frozen plan; later days have none from it. */
  async deactivate(ctx: RequestContext, id: number): Promise<BeatPlanTemplateRead> {
    const principal = ctx.requireAdminOrKey();
    const plan = await ctx.em.findOne(BeatPlan, { id });
    if (!plan) throw new NotFoundError('Beat plan template', id);
    if (plan.status === ActiveStatus.ACTIVE) {
      const today = await workspaceToday(ctx.em, principal.organizationId);
      await ctx.em.transactional(async (tx) => {
        await this.freezeBeforeChange(tx, principal.organizationId, id, today);
        const target = await tx.findOneOrFail(BeatPlan, { id });
        Object.assign(target, { status: ActiveStatus.INACTIVE, revisedOn: today });
        await tx.flush();
      });
    }
    return this.readOne(ctx, id);
  }

  async get(ctx: RequestContext, id: number): Promise<BeatPlanTemplateRead> {
    const ownOnly = this.readerScope(ctx);
    const row = await ctx.em.findOne(BeatPlan, { id, ...(ownOnly !== null ? { user: ownOnly } : {}) });
    if (!row) throw new NotFoundError('Beat plan template', id);
    return this.readOne(ctx, id);
  }

  async list(ctx: RequestContext, filter: BeatPlanTemplateFilter, pageRequest: PageRequest): Promise<Paginated<BeatPlanTemplateRead>> {
    const ownOnly = this.readerScope(ctx);
    if (filter.weekday != null) rules.oneOf('weekday', filter.weekday, [1, 2, 3, 4, 5, 6, 7]);
    const where: FilterQuery<BeatPlan> = {
      ...(filter.weekday != null ? { weekday: filter.weekday } : {}),
      ...(filter.status != null ? { status: filter.status } : {}),
      ...(filter.routeId != null ? { route: filter.routeId } : {}),
      ...(ownOnly !== null ? { user: ownOnly } : filter.userId != null ? { user: filter.userId } : {}),
    };
    const page = await readPage(ctx.em, BEAT_PLAN_LIST, where, pageRequest);
    return { ...page, items: await readTemplates(ctx.em, ctx.organizationId, page.items) };
  }

  /**
   * The day views of a local day (default today): the employee's own for employees; for admins and
   * keys, one employee's or everyone's with a plan that day.
   */
  async days(ctx: RequestContext, query: { date?: string | null; userId?: number | null }): Promise<BeatPlanDayView[]> {
    const ownOnly = this.readerScope(ctx);
    const organizationId = ctx.organizationId;
    const today = await workspaceToday(ctx.em, organizationId);
    const date = query.date != null ? rules.calendarDate('date', query.date) : today;
    const userIds = ownOnly !== null ? [ownOnly] : query.userId != null ? [query.userId] : null;
    const plans = await dayPlans(ctx.em, organizationId, date, userIds, today);
    if (plans.length === 0) return [];
    const visits = await visitFacts(ctx.em, organizationId, plans.map((p) => p.userId), date, date);
    return plans.map((p) => ({ ...p, outlets: mergeDayOutlets(p.outlets, visits.filter((v) => v.userId === p.userId)) }));
  }

  /** null for admins and keys (everything); the caller's id for employees; customers 403. */
  private readerScope(ctx: RequestContext): number | null {
    const principal = ctx.requirePrincipal();
    if (isCustomer(ctx)) throw new ForbiddenError('Only workspace staff may read beat plans');
    return principal.kind === 'session' && principal.userType === UserType.EMPLOYEE ? principal.userId : null;
  }

  private async readOne(ctx: RequestContext, id: number): Promise<BeatPlanTemplateRead> {
    const row = await ctx.em.fork().findOneOrFail(BeatPlan, { id });
    const [read] = await readTemplates(ctx.em, ctx.organizationId, [rowOf(ctx.em, BeatPlan, row)]);
    return read;
  }

  /** Freezes the started days the template's current version generates, before it changes. */
  private async freezeBeforeChange(tx: EntityManager, organizationId: number, id: number, today: string): Promise<void> {
    const current = await templateRowOf(tx, organizationId, id);
    if (current) await freezeStartedDaysOf(tx, organizationId, current, today);
  }

  /** 409 when another active template of the employee on the same weekday overlaps the effective dates. */
  private async refuseOverlap(em: EntityManager, f: CheckedTemplate, exceptId: number | null): Promise<void> {
    const clash = await em.findOne(BeatPlan, {
      user: f.userId,
      weekday: f.weekday,
      status: ActiveStatus.ACTIVE,
      ...(exceptId !== null ? { id: { $ne: exceptId } } : {}),
      ...(f.effectiveTo !== null ? { effectiveFrom: { $lte: f.effectiveTo } } : {}),
      $or: [{ effectiveTo: null }, { effectiveTo: { $gte: f.effectiveFrom } }],
    });
    if (clash) {
      throw new ConflictError(`Employee ${f.userId} already has beat plan template ${clash.id} on weekday ${f.weekday} in overlapping effective dates`);
    }
  }

  private writeOutlets(em: EntityManager, plan: BeatPlan, outlets: readonly number[]): void {
    outlets.forEach((outletId, i) =>
      em.create(BeatPlanOutlet, { organizationId: plan.organizationId, beatPlan: plan, outlet: em.getReference(Outlet, outletId), sequence: i + 1 }),
    );
  }

  /** Every field checked (400 naming it) before anything is written. */
  private async checked(
    em: EntityManager,
    f: Omit<CheckedTemplate, 'outlets'>,
    outlets: readonly number[] | null,
    keepOutlets = false,
  ): Promise<CheckedTemplate> {
    const user = await em.findOne(User, { id: f.userId });
    if (!user || user.userType !== UserType.EMPLOYEE || user.status !== ActiveStatus.ACTIVE) throw new ValidationError('userId', 'must be an active employee of the workspace');
    const route = await em.findOne(Route, { id: f.routeId });
    if (!route || route.status !== ActiveStatus.ACTIVE) throw new ValidationError('routeId', 'must be an active route of the workspace');
    rules.oneOf('weekday', f.weekday, [1, 2, 3, 4, 5, 6, 7]);
    rules.oneOf('frequency', f.frequency, BEAT_FREQUENCIES);
    const effectiveFrom = rules.calendarDate('effectiveFrom', f.effectiveFrom);
    const effectiveTo = f.effectiveTo === null ? null : rules.calendarDate('effectiveTo', f.effectiveTo);
    if (effectiveTo !== null && effectiveTo < effectiveFrom) throw new ValidationError('effectiveTo', 'must not be before effective_from');
    if (f.frequency === BeatFrequency.MONTHLY && monthlyOrdinalOf({ weekday: f.weekday, effectiveFrom }) > 4) {
      throw new ValidationError('effectiveFrom', 'of a monthly plan must not lead to a fifth weekday of the month (the plan must recur every month)');
    }
    const routeOutlets = await em.find(Outlet, { route: f.routeId, status: ActiveStatus.ACTIVE }, { orderBy: { name: 'asc', id: 'asc' } });
    let chosen: number[];
    if (keepOutlets) chosen = [];
    else if (outlets === null || outlets.length === 0) {
      if (routeOutlets.length === 0) throw new ValidationError('outlets', 'are required: the route has no active outlets');
      chosen = routeOutlets.map((o) => o.id);
    } else {
      const allowed = new Set(routeOutlets.map((o) => o.id));
      const seen = new Set<number>();
      outlets.forEach((id, i) => {
        if (!allowed.has(id)) throw new ValidationError(`outlets[${i}]`, 'must be an active outlet of the route');
        if (seen.has(id)) throw new ValidationError(`outlets[${i}]`, 'is listed twice');
        seen.add(id);
      });
      chosen = [...outlets];
    }
    return { ...f, effectiveFrom, effectiveTo, outlets: chosen };
  }
}

interface CheckedTemplate {
  userId: number;
  routeId: number;
  weekday: number;
  frequency: BeatFrequency;
  effectiveFrom: string;
  effectiveTo: string | null;
  outlets: number[];
}

function missing(field: string): never {
  throw new ValidationError(field, 'is required');
}

export type { Row };

/** A template's columns from its checked fields, revised on `today` (its days from tomorrow follow it). */
function templateValues(tx: EntityManager, fields: CheckedTemplate, today: string) {
  return {
    user: tx.getReference(User, fields.userId),
    route: tx.getReference(Route, fields.routeId),
    weekday: fields.weekday,
    frequency: fields.frequency,
    effectiveFrom: fields.effectiveFrom,
    effectiveTo: fields.effectiveTo,
    revisedOn: today,
  };
}

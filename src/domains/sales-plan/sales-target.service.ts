import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { findRows, rowOf } from '../../db/entity-rows';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { requireStaff } from '../auth/permissions';
import { assignableMaster } from '../masters/assignable-master';
import { ProductClass } from '../masters/product-class.entity';
import { User, UserType } from '../users/user.entity';
import { salesAchievement, type AchievementRequest, type SalesAchievementRead } from './sales-achievement';
import { parsePeriod, periodStartingOn } from './sales-period';
import { SALES_PERIOD_TYPES, SalesPeriodType, SalesTarget } from './sales-target.entity';
import { readSalesTargets, type SalesTargetRead } from './sales-target-read';
import { ownUserId } from './own-targets';

export interface SalesTargetInput {
  userId: number;
  periodType: SalesPeriodType;
  periodStart: string;
  productClassId?: number | null;
  targetAmount?: number | null;
  targetQuantity?: number | null;
  targetProductiveCalls?: number | null;
  targetOutlets?: number | null;
}

/** A change of a target: what is given replaces it; a null figure or class clears it. */
export type SalesTargetChange = Partial<SalesTargetInput>;

export interface SalesTargetFilter {
  userId?: number | null;
  periodType?: SalesPeriodType | null;
  /** `2026-11` or `2026-Q4`. */
  period?: string | null;
  productClassId?: number | null;
}

/** The target list: newest period first, then employee. */
export const SALES_TARGET_SORT = sortable<keyof SalesTarget & string>({
  name: 'SalesTarget',
  fields: { period_start: 'periodStart', period_type: 'periodType', user_id: 'user', target_amount: 'targetAmount', target_quantity: 'targetQuantity', created_at: 'createdAt', id: 'id' },
  default: '-period_start,user_id',
});
const SALES_TARGET_LIST = entityList({ entity: SalesTarget, sort: SALES_TARGET_SORT });

/** The largest count a target takes (quantity, productive calls, outlets). */
const MAX_COUNT = 1_000_000_000;

/**
 * Sales targets of employees per month or quarter, optionally per product class, and their
 * achievement. Admins and API keys manage targets; employees read their own; customers get 403.
 */
export class SalesPlanService {
  async list(ctx: RequestContext, filter: SalesTargetFilter, pageRequest: PageRequest): Promise<Paginated<SalesTargetRead>> {
    requireStaff(ctx);
    const where: FilterQuery<SalesTarget> = {};
    const own = ownUserId(ctx);
    if (own !== null) where.user = own;
    else if (filter.userId != null) where.user = filter.userId;
    if (filter.periodType != null) where.periodType = rules.oneOf('periodType', filter.periodType, SALES_PERIOD_TYPES);
    if (filter.period != null) {
      const period = parsePeriod('period', filter.period);
      where.periodType = period.type;
      where.periodStart = period.start;
      if (filter.periodType != null && filter.periodType !== period.type) throw new ValidationError('periodType', 'does not match period');
    }
    if (filter.productClassId != null) where.productClass = filter.productClassId;
    const page = await readPage(ctx.em, SALES_TARGET_LIST, where, pageRequest);
    return { ...page, items: await readSalesTargets(ctx.em, page.items) };
  }

  /** One target; an employee's own only (another's answers 404, as another workspace's does). */
  async get(ctx: RequestContext, id: number): Promise<SalesTargetRead> {
    requireStaff(ctx);
    const own = ownUserId(ctx);
    const [read] = await readSalesTargets(ctx.em, await findRows(ctx.em, SalesTarget, own === null ? { id } : { id, user: own }));
    if (!read) throw new NotFoundError('SalesTarget', id);
    return read;
  }

  /** Admins and keys. 400 naming the field for bad input; 409 when the employee already has a target for the period and class. */
  async create(ctx: RequestContext, input: SalesTargetInput): Promise<SalesTargetRead> {
    ctx.requireAdminOrKey();
    const checked = await this.checked(ctx, input, null);
    const target = ctx.em.create(SalesTarget, { organizationId: ctx.organizationId, ...checked });
    await ctx.em.flush();
    return this.readOf(ctx, target);
  }

  /** Admins and keys. Given fields replace the target's; the merged target is checked as a new one is. */
  async update(ctx: RequestContext, id: number, change: SalesTargetChange): Promise<SalesTargetRead> {
    ctx.requireAdminOrKey();
    const target = await ctx.em.findOne(SalesTarget, { id });
    if (!target) throw new NotFoundError('SalesTarget', id);
    const merged: SalesTargetInput = {
      userId: change.userId ?? target.user.id,
      periodType: change.periodType ?? target.periodType,
      periodStart: change.periodStart ?? target.periodStart,
      productClassId: change.productClassId !== undefined ? change.productClassId : (target.productClass?.id ?? null),
      targetAmount: change.targetAmount !== undefined ? change.targetAmount : target.targetAmount,
      targetQuantity: change.targetQuantity !== undefined ? change.targetQuantity : target.targetQuantity,
      targetProductiveCalls: change.targetProductiveCalls !== undefined ? change.targetProductiveCalls : target.targetProductiveCalls,
      targetOutlets: change.targetOutlets !== undefined ? change.targetOutlets : target.targetOutlets,
    };
    const checked = await this.checked(ctx, merged, target, change);
    ctx.em.assign(target, checked);
    await ctx.em.flush();
    return this.readOf(ctx, target);
  }

  /** Admins and keys. A target is a plan, not a record of anything done: it is deleted for good. Answers what was deleted. */
  async remove(ctx: RequestContext, id: number): Promise<SalesTargetRead> {
    ctx.requireAdminOrKey();
    const target = await ctx.em.findOne(SalesTarget, { id });
    if (!target) throw new NotFoundError('SalesTarget', id);
    const read = await this.readOf(ctx, target);
    await ctx.em.remove(target).flush();
    return read;
  }

  /** Targets of a period against what was achieved; employees see only their own. */
  async achievement(ctx: RequestContext, request: AchievementRequest): Promise<SalesAchievementRead> {
    return salesAchievement(ctx, request);
  }

  /**
   * The checked values of a target (new, or `existing` merged with `change`). Fields unchanged
   * by an update are not re-checked against master states (a target keeps a since-deactivated
   * class or employee), but the figures rule and uniqueness always are.
   */
  private async checked(ctx: RequestContext, input: SalesTargetInput, existing: SalesTarget | null, change: SalesTargetChange = input) {
    const periodType = rules.oneOf('periodType', input.periodType, SALES_PERIOD_TYPES);
    const period = periodStartingOn('periodStart', periodType, rules.calendarDate('periodStart', input.periodStart));
    const targetAmount = input.targetAmount == null ? null : rules.money('targetAmount', input.targetAmount);
    const targetQuantity = count('targetQuantity', input.targetQuantity);
    const targetProductiveCalls = count('targetProductiveCalls', input.targetProductiveCalls);
    const targetOutlets = count('targetOutlets', input.targetOutlets);
    if (targetAmount === null && targetQuantity === null) throw new ValidationError('targetAmount', 'or targetQuantity is required');

    const user = existing && change.userId == null ? existing.user : await employee(ctx, input.userId);
    const productClass =
      existing && change.productClassId === undefined
        ? existing.productClass
        : input.productClassId == null
          ? null
          : await assignableMaster(ctx.em, ProductClass, input.productClassId, { field: 'productClassId', label: 'product class', current: existing?.productClass?.id });

    const clash = await ctx.em.findOne(SalesTarget, {
      user: user.id,
      periodType,
      periodStart: period.start,
      productClass: productClass?.id ?? null,
      ...(existing ? { id: { $ne: existing.id } } : {}),
    });
    if (clash) {
      throw new ConflictError(`Employee ${user.id} already has a ${periodType === SalesPeriodType.MONTH ? 'monthly' : 'quarterly'} target from ${period.start} for ${productClass ? `product class ${productClass.id}` : 'all products'} (target ${clash.id})`);
    }
    return { user, periodType, periodStart: period.start, periodEnd: period.end, productClass, targetAmount, targetQuantity, targetProductiveCalls, targetOutlets };
  }

  private async readOf(ctx: RequestContext, target: SalesTarget): Promise<SalesTargetRead> {
    const [read] = await readSalesTargets(ctx.em, [rowOf(ctx.em, SalesTarget, target)]);
    return read;
  }
}

/** An active employee of the workspace, else a 400 naming userId. */
async function employee(ctx: RequestContext, id: number): Promise<User> {
  const user = await ctx.em.findOne(User, { id });
  if (!user || user.userType !== UserType.EMPLOYEE) throw new ValidationError('userId', 'does not name an employee of this workspace');
  if (user.status !== ActiveStatus.ACTIVE) throw new ValidationError('userId', 'names an inactive employee');
  return user;
}

/** A whole number >= 0, or null. */
function count(field: string, value: number | null | undefined): number | null {
  if (value == null) return null;
  if (!Number.isInteger(value) || value < 0) throw new ValidationError(field, 'must be a whole number >= 0');
  if (value > MAX_COUNT) throw new ValidationError(field, 'is too large');
  return value;
}

import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import { resolvePage, type PageRequest, type Paginated } from '../../lists/page-request';
import { resolveSort, sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { isCustomer, requireStaff } from '../auth/permissions';
import { CrateType } from '../masters/crate-type.entity';
import { Order, OrderStatus } from '../orders/order.entity';
import { User, UserType } from '../users/user.entity';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue';
import { localDayStart, shiftDay } from '../workspace/local-day';
import { CRATE_BALANCE_SORT, crateBalanceOf, findCrateBalancePage } from './crate-balances';
import { crateMovementData } from './crate-events';
import { CrateMovement, CRATE_MOVEMENT_KIND_LABELS, CRATE_MOVEMENT_KINDS, CrateMovementKind } from './crate-movement.entity';
import { crateMovementReadOf, readCrateBalances, readCrateMovements, type CrateBalanceRead, type CrateMovementRead } from './crate-read';
import { checkCrateMovement, noteOf, type CrateMovementRequest } from './crate-rules';
import { postCrateCharge, reverseCrateCharge } from './crate-charges';

/** Filters of the movement list; each ANDed. */
export interface CrateMovementFilter {
  customerId?: number | null;
  crateTypeId?: number | null;
  kind?: number | null;
  orderId?: number | null;
  /** YYYY-MM-DD, the workspace's local days: movements that occurred on or after dateFrom, on or before dateTo. */
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** Filters of the balance list. */
export interface CrateBalanceFilter {
  customerId?: number | null;
  crateTypeId?: number | null;
  /** Only balances above 0 (default: every customer and type with a movement, 0 included). */
  held?: boolean | null;
}

/** The movement list: latest first unless sorted. */
export const CRATE_MOVEMENT_SORT = sortable<keyof CrateMovement & string>({
  name: 'CrateMovement',
  fields: { occurred_at: 'occurredAt', quantity: 'quantity', kind: 'kind', created_at: 'createdAt', id: 'id' },
  default: '-occurred_at',
});
const CRATE_MOVEMENT_LIST = entityList({ entity: CrateMovement, sort: CRATE_MOVEMENT_SORT });

/** The last day a YYYY-MM-DD date can name. */
const LAST_CALENDAR_DAY = '9999-12-31';

/**
 * The crate ledger. Staff (employees and admins) and API keys record movements and read every
 * customer's; a customer (distributor or retailer, signed in) reads only their own balances and
 * movements. Movements are only inserted; a balance is their sum, and every write that takes
 * crates from a customer is checked against that sum under the customer's row lock, so two
 * concurrent returns cannot together take more than the customer holds.
 */
export class CrateService {
  constructor(private readonly events: WebhookEventQueue) {}

  /** 400 naming a bad field; 409 when it takes more than the customer holds, or repeats an opening balance. */
  async record(ctx: RequestContext, input: CrateMovementRequest): Promise<CrateMovementRead> {
    requireStaff(ctx);
    const checked = checkCrateMovement(input);
    const movement = await ctx.em.transactional(async (tx) => {
      const customer = await lockCustomer(tx, ctx.organizationId, input.customerId);
      const crateType = await tx.findOne(CrateType, { id: input.crateTypeId });
      if (!crateType) throw new ValidationError('crateTypeId', 'does not name a crate type of this workspace');
      const adds = checked.kind === CrateMovementKind.ISSUE || checked.kind === CrateMovementKind.OPENING_BALANCE;
      // New crates go only to an active customer, of an active type; what they already hold may always come back.
      if (adds && customer.status !== ActiveStatus.ACTIVE) throw new ValidationError('customerId', 'names an inactive customer: crates are issued to active customers only');
      if (adds && crateType.status !== ActiveStatus.ACTIVE) throw new ValidationError('crateTypeId', 'names an inactive crate type');
      const order = checked.orderId === null ? null : await deliveredOrderOf(tx, checked.orderId, customer.id);
      if (checked.kind === CrateMovementKind.OPENING_BALANCE) await this.assertNoOpeningBalance(tx, ctx.organizationId, customer.id, crateType);
      if (checked.quantity < 0) await this.assertHeld(tx, ctx.organizationId, customer.id, crateType, -checked.quantity, CRATE_MOVEMENT_KIND_LABELS[checked.kind]);
      // A charge is posted first, in this transaction: the movement names it when written (a trigger refuses UPDATE).
      const charge = checked.charge ? await postCrateCharge(tx, ctx, customer.id, crateType, checked) : null;
      const created = tx.create(CrateMovement, {
        organizationId: ctx.organizationId,
        crateType,
        customer: tx.getReference(User, customer.id),
        kind: checked.kind,
        quantity: checked.quantity,
        order,
        occurredAt: checked.occurredAt,
        note: checked.note,
        recordedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
        recordedByApiKeyId: ctx.apiKeyId,
        ledgerEntryId: charge?.id ?? null,
      });
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, 'crate_movement.recorded', crateMovementData(created));
      return created;
    });
    return crateMovementReadOf(ctx.em, ctx.organizationId, movement);
  }

  /**
   * Undoes a movement: a reversal row with its negated quantity, linked to it, now. A movement is
   * reversed at most once, and a reversal is never reversed (409); reversing what added crates is
   * refused (409) when the customer no longer holds them. 404 for another workspace's movement.
   */
  async reverse(ctx: RequestContext, id: number, note?: string | null): Promise<CrateMovementRead> {
    requireStaff(ctx);
    const reversalNote = noteOf(note);
    const reversal = await ctx.em.transactional(async (tx) => {
      const original = await tx.findOne(CrateMovement, { id }, { populate: ['crateType'] });
      if (!original) throw new NotFoundError('Crate movement', id);
      await lockCustomer(tx, ctx.organizationId, original.customer.id);
      if (original.kind === CrateMovementKind.REVERSAL) throw new ConflictError(`Crate movement ${id} is a reversal: a reversal cannot be reversed (record a new movement instead)`);
      const earlier = await tx.findOne(CrateMovement, { reverses: id });
      if (earlier) throw new ConflictError(`Crate movement ${id} was already reversed by movement ${earlier.id}`);
      if (original.quantity > 0) await this.assertHeld(tx, ctx.organizationId, original.customer.id, original.crateType, original.quantity, `reversal of ${CRATE_MOVEMENT_KIND_LABELS[original.kind]} ${id}`);
      // A charged movement's reversal reverses its charge too.
      const chargeReversal = original.ledgerEntryId === null ? null : await reverseCrateCharge(tx, ctx, original.ledgerEntryId, id);
      const created = tx.create(CrateMovement, {
        organizationId: ctx.organizationId,
        crateType: original.crateType,
        customer: original.customer,
        kind: CrateMovementKind.REVERSAL,
        quantity: -original.quantity,
        order: original.order,
        reverses: original,
        occurredAt: new Date(),
        note: reversalNote,
        recordedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
        recordedByApiKeyId: ctx.apiKeyId,
        ledgerEntryId: chargeReversal?.id ?? null,
      });
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, 'crate_movement.recorded', crateMovementData(created));
      return created;
    });
    return crateMovementReadOf(ctx.em, ctx.organizationId, reversal);
  }

  /** Staff and keys: every movement; a customer: their own. Latest first unless sorted. */
  async listMovements(ctx: RequestContext, filter: CrateMovementFilter, pageRequest: PageRequest): Promise<Paginated<CrateMovementRead>> {
    const own = ownCustomerOf(ctx);
    if (filter.kind != null) rules.oneOf('kind', filter.kind, CRATE_MOVEMENT_KINDS);
    const dateFrom = filter.dateFrom == null ? null : rules.calendarDate('dateFrom', filter.dateFrom);
    const dateTo = filter.dateTo == null ? null : rules.calendarDate('dateTo', filter.dateTo);
    if (dateFrom && dateTo && dateFrom > dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
    // Every condition is ANDed, so no filter widens what a customer sees.
    const where: Array<FilterQuery<CrateMovement>> = [];
    if (own !== null) where.push({ customer: own });
    if (filter.customerId != null) where.push({ customer: filter.customerId });
    if (filter.crateTypeId != null) where.push({ crateType: filter.crateTypeId });
    if (filter.kind != null) where.push({ kind: filter.kind });
    if (filter.orderId != null) where.push({ order: filter.orderId });
    if (dateFrom) where.push({ occurredAt: { $gte: await localDayStart(ctx.em, ctx.organizationId, dateFrom) } });
    if (dateTo && dateTo < LAST_CALENDAR_DAY) where.push({ occurredAt: { $lt: await localDayStart(ctx.em, ctx.organizationId, shiftDay(dateTo, 1)) } });
    const page = await readPage(ctx.em, CRATE_MOVEMENT_LIST, { $and: where }, pageRequest);
    return { ...page, items: await readCrateMovements(ctx.em, ctx.organizationId, page.items) };
  }

  /** One movement; 404 when it is not the workspace's (or, for a customer, not theirs). */
  async getMovement(ctx: RequestContext, id: number): Promise<CrateMovementRead> {
    const own = ownCustomerOf(ctx);
    const movement = await ctx.em.findOne(CrateMovement, own === null ? { id } : { id, customer: own });
    if (!movement) throw new NotFoundError('Crate movement', id);
    return crateMovementReadOf(ctx.em, ctx.organizationId, movement);
  }

  /** Balances per customer and crate type with their ageing; a customer sees their own. Oldest outstanding first unless sorted. */
  async listBalances(ctx: RequestContext, filter: CrateBalanceFilter, pageRequest: PageRequest): Promise<Paginated<CrateBalanceRead>> {
    const own = ownCustomerOf(ctx);
    const page = resolvePage(pageRequest);
    const sort = resolveSort(CRATE_BALANCE_SORT, pageRequest.sort);
    // A customer naming another customer sees nothing, as a filter that matches no row would.
    if (own !== null && filter.customerId != null && filter.customerId !== own) return { items: [], total: 0, page: page.page, limit: page.limit };
    const found = await findCrateBalancePage(
      ctx.em,
      ctx.organizationId,
      { customerId: own ?? filter.customerId ?? undefined, crateTypeId: filter.crateTypeId ?? undefined, held: filter.held ?? false },
      { ...page, sort },
    );
    return { ...found, items: await readCrateBalances(ctx.em, found.items) };
  }

  /** 409 when the customer holds fewer than `taking` crates of the type (checked under their lock). */
  private async assertHeld(tx: EntityManager, organizationId: number, customerId: number, crateType: CrateType, taking: number, what: string) {
    const held = await crateBalanceOf(tx, organizationId, customerId, crateType.id);
    if (taking > held) {
      throw new ConflictError(`Customer ${customerId} holds ${held} crate${held === 1 ? '' : 's'} of type "${crateType.name}": a ${what} of ${taking} would take more than that`);
    }
  }

  /** 409 when the customer already has an opening balance of the type that stands (one not reversed). */
  private async assertNoOpeningBalance(tx: EntityManager, organizationId: number, customerId: number, crateType: CrateType) {
    const t = tenantSql(organizationId, 'm');
    const [standing] = await executeSql<{ id: number }>(
      tx,
      sql`select m.id from crate_movement m
           where ${t.owns()} and m.customer_id = ${customerId} and m.crate_type_id = ${crateType.id} and m.kind = ${CrateMovementKind.OPENING_BALANCE}
             and not exists (select 1 from crate_movement r where ${t.owns('r')} and r.reverses_id = m.id)
           limit 1`,
    );
    if (standing) throw new ConflictError(`Customer ${customerId} already has an opening balance of ${crateType.name} crates (movement ${standing.id}): reverse it first, or record a count correction`);
  }
}

/** A customer's own user id (they read only their own crates); null for staff and keys. */
function ownCustomerOf(ctx: RequestContext): number | null {
  return isCustomer(ctx) ? ctx.userId : null;
}

/**
 * Locks a customer's row of the workspace (FOR NO KEY UPDATE): every movement of one customer
 * runs one at a time, so the balance a return is checked against cannot change before it is
 * written. 400 naming customerId when the id names no distributor or retailer of the workspace.
 */
async function lockCustomer(tx: EntityManager, organizationId: number, customerId: number): Promise<{ id: number; status: ActiveStatus }> {
  const t = tenantSql(organizationId, 'u');
  const [row] = await executeSql<{ id: number; status: ActiveStatus }>(
    tx,
    sql`select u.id, u.status from app_user u
         where ${t.owns()} and u.id = ${customerId} and u.user_type in (${UserType.DISTRIBUTOR}, ${UserType.RETAILER})
         for no key update`,
  );
  if (!row) throw new ValidationError('customerId', 'does not name a customer (distributor or retailer) of this workspace');
  return row;
}

/** The delivered, not cancelled, order of this customer an issue goes with; else 400 naming orderId. */
async function deliveredOrderOf(tx: EntityManager, orderId: number, customerId: number): Promise<Order> {
  const order = await tx.findOne(Order, { id: orderId });
  if (!order) throw new ValidationError('orderId', 'does not name an order of this workspace');
  if (order.customer.id !== customerId) throw new ValidationError('orderId', 'is an order of another customer');
  if (order.cancelledAt) throw new ValidationError('orderId', 'names a cancelled order');
  if (order.status !== OrderStatus.DELIVERED) throw new ValidationError('orderId', 'names an order not delivered yet: crates go with a delivery');
  return order;
}

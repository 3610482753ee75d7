import { sql, type Sql } from '../../db/tenant-sql';
import { createHmac, randomInt } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { rowOf, type Row, type RowColumns } from '../../db/entity-rows';
import { nextCounterValue } from '../../db/tenant-counter.entity';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { ownRecordId } from '../../lists/own-record-filter';
import { type PageRequest, resolvePage } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { isCustomer, requireStaff } from '../auth/permissions';
import { orderCancelledData, orderCreatedData, orderDeliveredData } from '../webhooks/event-data';
import { workspaceToday } from '../workspace/local-day';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue';
import { ProductionUnit } from '../masters/production-unit.entity';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { User, UserType } from '../users/user.entity';
import { ActiveStatus } from '../../db/active-status';
import { applySchemes, postSchemeUse, withoutSchemes } from '../schemes/scheme-apply';
import { OrderItem } from './order-item.entity';
import { assertNotCancelled, cancelOrder, cancelReasonOf, lockedOrder, replaceOrderLines } from './order-edits';
import { findOrderLines, findOrderRowPage, findOrderRows, ORDER_SORT, orderConditions, type OrderConditions } from './order-statements';
import { resolveSort } from '../../lists/sort';
import type { CreatedOrder, LineRows, OrderPageRead, OrderRead, OrderRowPage } from './order-read';
import { lineRows, orderRead, orderRowPage } from './order-rows';
import { orderSearchConditions } from './order-search';
import { atNoCharge, priceLines, validateLines, type OrderLineInput } from './order-pricing';
import { OrderStatusHistory } from './order-status-history.entity';
import { assertTransition, ORDER_STATUS_LABELS } from './order-status.rules';
import { Order, ORDER_STATUSES, OrderStatus } from './order.entity';
import { notify } from '../notifications/notify';

/** Filters of the order list. */
export interface OrderFilter {
  status?: OrderStatus;
  dateFrom?: string;
  dateTo?: string;
  userId?: number;
  /** Matches the order code or the customer's name. */
  search?: string;
  productionUnitId?: number;
  townId?: number;
  routeId?: number;
  /** true: only cancelled orders; false: only orders not cancelled; unset: both. */
  cancelled?: boolean;
}

/** Accepted values of mode_of_payment. */
export const PAYMENT_MODES = ['cash', 'credit', 'upi', 'card', 'bank_transfer', 'cheque'] as const;

/** A new order. */
export interface CreateOrderInput {
  userId: number;
  items: OrderLineInput[];
  orderDate?: string;
  deliveryDate?: string | null;
  productionUnitId?: number | null;
  modeOfPayment?: string | null;
}

/** How another domain's code path creates an order: `free` prices every line at 0 (a fulfilled FOC request). */
export interface CreateOrderOptions {
  free?: boolean;
}

/**
 * The one rule of who sees which orders: customers (distributors and retailers) see only their
 * own; staff and API keys see every order of the workspace. The customer's user id, or null.
 */
export function ownOrdersOf(ctx: RequestContext): number | null {
  return isCustomer(ctx) ? ctx.userId! : null;
}

/** Orders of the caller's workspace and their status flow. */
export class OrderService {
  constructor(
    private readonly hashKey: Buffer,
    private readonly events: WebhookEventQueue,
  ) {}

  /**
   * Newest first unless sorted, as rows (one statement): each order's, its customer's, and as `read` asks, its
   * places' and its lines' (as `linesOf` gives them), of the columns `read.columns` names.
   * Customers see only their own orders.
   */
  async listRows(ctx: RequestContext, filter: OrderFilter, pageRequest: PageRequest, read: OrderPageRead = {}): Promise<OrderRowPage> {
    const { page, limit, offset } = resolvePage(pageRequest);
    const sort = resolveSort(ORDER_SORT, pageRequest.sort);
    const found = await findOrderRowPage(ctx.em, await this.listConditions(ctx, filter), read, { sort, limit, offset });
    return orderRowPage(ctx.em, found, { page, limit }, read);
  }

  /**
   * The lines of orders `orderIds` as rows (of the columns `columns` names), by order and line id,
   * with their variants' and products' (one statement); none of orders the caller may not see
   * (another workspace's, another customer's).
   */
  async linesOf(ctx: RequestContext, orderIds: readonly number[], columns?: RowColumns): Promise<LineRows> {
    if (orderIds.length === 0) return { lines: [], variants: [], products: [] };
    const { lines, variants } = await findOrderLines(ctx.em, this.visible(ctx), orderIds, columns);
    return lineRows(ctx.em, lines, variants, columns);
  }

  /**
   * One order with its customer, places, lines and status history, as rows of the columns `columns`
   * names (one statement); 404 when it does not exist or is not visible.
   */
  async get(ctx: RequestContext, id: number, columns?: RowColumns): Promise<OrderRead> {
    const where = this.visible(ctx);
    where.conditions.push(sql`o.id = ${id}`);
    const found = await findOrderRows(ctx.em, where, columns);
    if (!found) throw new NotFoundError('Order', id);
    return orderRead(ctx.em, found, columns);
  }

  /**
   * Places an order for a distributor or retailer of the workspace, priced at the variants'
   * selling prices. The order, its lines, its code and its first history entry commit together.
   */
  async create(ctx: RequestContext, input: CreateOrderInput, options: CreateOrderOptions = {}): Promise<CreatedOrder> {
    validateLines(input.items);
    const orderDate = input.orderDate == null ? await workspaceToday(ctx.em, ctx.organizationId) : rules.calendarDate('orderDate', input.orderDate);
    const deliveryDate = input.deliveryDate ? rules.calendarDate('deliveryDate', input.deliveryDate) : null;
    if (deliveryDate && deliveryDate < orderDate) throw new ValidationError('deliveryDate', 'must not be before orderDate');
    const modeOfPayment = input.modeOfPayment ? rules.oneOf('modeOfPayment', input.modeOfPayment, PAYMENT_MODES) : null;
    const ownOnly = ownOrdersOf(ctx);
    if (ownOnly !== null && input.userId !== ownOnly) {
      throw new ValidationError('userId', 'must be your own user id: customers place orders for themselves');
    }

    const customer = await ctx.em.findOne(User, {
      id: input.userId,
      userType: { $in: [UserType.DISTRIBUTOR, UserType.RETAILER] },
      status: ActiveStatus.ACTIVE,
    });
    if (!customer) throw new ValidationError('userId', 'must be an active distributor or retailer of this workspace');
    const productionUnit = await this.productionUnit(ctx, input.productionUnitId ?? null);
    const variants = await ctx.em.find(
      ProductVariant,
      { id: { $in: input.items.map((l) => l.productVariantId) } },
      { populate: ['product'] },
    );
    const listed = priceLines(input.items, new Map(variants.map((v) => [v.id, v])));
    const priced = options.free ? atNoCharge(listed) : listed;
    const deliveryOtp = String(randomInt(0, 1_000_000)).padStart(6, '0');

    const order = await ctx.em.transactional(async (tx) => {
      const organizationId = ctx.organizationId;
      const sequence = await nextCounterValue(tx, organizationId, 'order');
      // The schemes of the order's day (the same evaluation as POST /schemes/preview), budgets locked;
      // none for a free order (a FOC request's: given, not sold).
      const schemed = options.free ? withoutSchemes(priced.lines) : await applySchemes(tx, organizationId, { customer, day: orderDate, lines: priced.lines });
      const created = tx.create(Order, {
        organizationId,
        orderCode: `ORD-${orderDate.slice(0, 4)}-${String(sequence).padStart(6, '0')}`,
        orderDate,
        customer,
        town: customer.town,
        route: customer.route,
        productionUnit,
        totalAmount: schemed.total,
        itemsCount: schemed.lines.length,
        deliveryDate,
        modeOfPayment,
        deliveryOtpHash: this.otpHash(deliveryOtp),
        createdBy: ctx.userId,
      });
      for (const line of schemed.lines) tx.create(OrderItem, { organizationId, order: created, ...line });
      tx.create(OrderStatusHistory, this.historyEntry(ctx, created, null, OrderStatus.INITIATED));
      await tx.flush();
      await postSchemeUse(tx, organizationId, created.id, schemed);
      await this.events.emit(tx, organizationId, 'order.created', orderCreatedData(created));
      return created;
    });
    return { order: rowOf(ctx.em, Order, order), customer: rowOf(ctx.em, User, customer), deliveryOtp };
  }

  /** Staff only. Moves the order one step along the flow and records who did it. */
  async changeStatus(ctx: RequestContext, id: number, to: number): Promise<Row<Order>> {
    requireStaff(ctx);
    const order = await ctx.em.transactional(async (tx) => {
      const order = await tx.findOne(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order) throw new NotFoundError('Order', id);
      assertNotCancelled(order);
      const from = order.status;
      order.status = assertTransition(order.orderCode, from, to);
      const entry = tx.create(OrderStatusHistory, this.historyEntry(ctx, order, from, order.status));
      if (order.status === OrderStatus.DELIVERED) {
        await tx.flush();
        await tx.populate(order, ['customer', 'productionUnit']);
        await this.events.emit(tx, ctx.organizationId, 'order.delivered', orderDeliveredData(order, entry.changedAt));
      }
      await tx.flush();
      const label = ORDER_STATUS_LABELS[order.status];
      await notify(tx, ctx.organizationId, [order.customer.id], {
        type: 'order_status',
        title: `Order ${order.orderCode} ${label.toLowerCase()}`,
        body: `Your order ${order.orderCode} is now ${label.toLowerCase()}.`,
        entity: { type: 'order', id: order.id },
      });
      return order;
    });
    // After the commit: its flush sets updatedAt.
    return rowOf(ctx.em, Order, order);
  }

  /**
   * Staff and API keys only (as Shopify's orderCancel): cancels an order not yet delivered, keeping
   * its status; records when, why and by whom, adds a history entry marked as the cancellation,
   * takes it out of the dashboard's figures and emits order.cancelled, all in one transaction.
   */
  async cancel(ctx: RequestContext, id: number, reason: string): Promise<Row<Order>> {
    requireStaff(ctx);
    const text = cancelReasonOf(reason);
    const order = await ctx.em.transactional(async (tx) => {
      const order = await lockedOrder(tx, id, null);
      await cancelOrder(tx, ctx, order, text);
      await tx.populate(order, ['customer', 'productionUnit']);
      await this.events.emit(tx, ctx.organizationId, 'order.cancelled', orderCancelledData(order));
      await notify(tx, ctx.organizationId, [order.customer.id], {
        type: 'order_status',
        title: `Order ${order.orderCode} cancelled`,
        body: `Your order ${order.orderCode} was cancelled: ${text}`,
        entity: { type: 'order', id: order.id },
      });
      return order;
    });
    return rowOf(ctx.em, Order, order);
  }

  /**
   * Replaces an Initiated order's lines, re-priced at today's prices, its total and item count
   * recomputed, in one transaction (409 once it has moved on or is cancelled). Whoever may see the
   * order may do it: staff, API keys, and the customer for their own order. Answers the order as GET shows it.
   */
  async replaceItems(ctx: RequestContext, id: number, items: OrderLineInput[]): Promise<OrderRead> {
    validateLines(items);
    await ctx.em.transactional(async (tx) => replaceOrderLines(tx, ctx, await lockedOrder(tx, id, ownOrdersOf(ctx)), items));
    return this.get(ctx, id);
  }

  private async listConditions(ctx: RequestContext, filter: OrderFilter): Promise<OrderConditions> {
    const dateFrom = filter.dateFrom == null ? undefined : rules.calendarDate('dateFrom', filter.dateFrom);
    const dateTo = filter.dateTo == null ? undefined : rules.calendarDate('dateTo', filter.dateTo);
    if (dateFrom && dateTo && dateFrom > dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
    if (filter.status != null) rules.oneOf('status', filter.status, ORDER_STATUSES);
    // Every condition is ANDed to the tenant's and the caller's, so no filter can widen what is visible.
    const where = this.visible(ctx);
    const add = (condition: Sql) => where.conditions.push(condition);
    if (filter.status != null) add(sql`o.status = ${filter.status}`);
    if (dateFrom) add(sql`o.order_date >= ${dateFrom}::date`);
    if (dateTo) add(sql`o.order_date <= ${dateTo}::date`);
    if (filter.userId != null) add(sql`o.customer_id = ${filter.userId}`);
    if (filter.productionUnitId != null) add(sql`o.production_unit_id = ${await ownRecordId(ctx.em, ProductionUnit, 'productionUnitId', filter.productionUnitId)}`);
    if (filter.townId != null) add(sql`o.town_id = ${await ownRecordId(ctx.em, Town, 'townId', filter.townId)}`);
    if (filter.routeId != null) add(sql`o.route_id = ${await ownRecordId(ctx.em, Route, 'routeId', filter.routeId)}`);
    if (filter.cancelled != null) add(filter.cancelled ? sql`o.cancelled_at is not null` : sql`o.cancelled_at is null`);
    for (const condition of await orderSearchConditions(ctx.em, ctx.organizationId, filter.search)) add(condition);
    return where;
  }

  /** The workspace's orders the caller may see, as SQL conditions (see ownOrdersOf). */
  private visible(ctx: RequestContext): OrderConditions {
    const where = orderConditions(ctx.organizationId);
    const customer = ownOrdersOf(ctx);
    if (customer !== null) where.conditions.push(sql`o.customer_id = ${customer}`);
    return where;
  }

  private async productionUnit(ctx: RequestContext, id: number | null): Promise<ProductionUnit | null> {
    if (id === null) return null;
    const unit = await ctx.em.findOne(ProductionUnit, { id, status: ActiveStatus.ACTIVE });
    if (!unit) throw new ValidationError('productionUnitId', 'does not name an active production unit of this workspace');
    return unit;
  }

  private historyEntry(ctx: RequestContext, order: Order, from: OrderStatus | null, to: OrderStatus) {
    return { organizationId: ctx.organizationId, order, fromStatus: from, toStatus: to, changedBy: ctx.userId, changedByApiKeyId: ctx.apiKeyId };
  }

  /** Keyed hash of a delivery OTP: a leaked table does not reveal codes without the key. */
  otpHash(otp: string): string {
    return createHmac('sha256', this.hashKey).update(otp).digest('hex');
  }
}


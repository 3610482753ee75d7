import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { reverseOrderInRollups } from '../dashboard/rollup-reversal';
import { ProductVariant } from '../products/product-variant.entity';
import { applySchemes, postSchemeUse, reverseSchemeUse } from '../schemes/scheme-apply';
import { OrderItem } from './order-item.entity';
import { priceLines, validateLines, type OrderLineInput } from './order-pricing';
import { OrderStatusHistory } from './order-status-history.entity';
import { ORDER_STATUS_LABELS } from './order-status.rules';
import { Order, OrderStatus } from './order.entity';

/*
 * The changes an order takes besides its status: a cancel (staff and API keys, before delivery; the
 * order keeps its status, records when, why and by whom, gains a history entry marked as the
 * cancellation, and leaves the dashboard's rollups) and the replacement of its lines while it is
 * Initiated. Each runs in the caller's transaction with the order locked first.
 */

/** Longest cancel reason. */
export const MAX_CANCEL_REASON = 500;

const label = (s: OrderStatus) => `${ORDER_STATUS_LABELS[s]} (${s})`;

/** A cancel reason, trimmed: 1 to 500 characters. */
export function cancelReasonOf(reason: string): string {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text.length === 0) throw new ValidationError('reason', 'is required: say why the order is cancelled');
  if (text.length > MAX_CANCEL_REASON) throw new ValidationError('reason', `must be at most ${MAX_CANCEL_REASON} characters`);
  return text;
}

/** Order `id` locked for this transaction (404 when it is not one the caller may see: `customerId` narrows it to a customer's own). */
export async function lockedOrder(tx: EntityManager, id: number, customerId: number | null): Promise<Order> {
  const order = await tx.findOne(Order, customerId === null ? { id } : { id, customer: customerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!order) throw new NotFoundError('Order', id);
  return order;
}

/** 409 when the order is cancelled: a cancelled order takes no further change. */
export function assertNotCancelled(order: Order): void {
  if (order.cancelledAt) {
    throw new ConflictError(`Order ${order.orderCode} was cancelled at ${order.cancelledAt.toISOString()}; it can no longer change`);
  }
}

/** Cancels the locked order: records the cancel and its history entry, and subtracts its share from the rollups. */
export async function cancelOrder(tx: EntityManager, ctx: RequestContext, order: Order, reason: string): Promise<void> {
  assertNotCancelled(order);
  if (order.status === OrderStatus.DELIVERED) {
    throw new ConflictError(`Order ${order.orderCode} is ${label(order.status)}; a delivered order cannot be cancelled`);
  }
  const at = new Date();
  tx.assign(order, { cancelledAt: at, cancelReason: reason, cancelledBy: ctx.userId ?? null, cancelledByApiKeyId: ctx.apiKeyId ?? null });
  tx.create(OrderStatusHistory, {
    organizationId: ctx.organizationId,
    order,
    fromStatus: order.status,
    toStatus: order.status,
    cancellation: true,
    changedAt: at,
    changedBy: ctx.userId ?? null,
    changedByApiKeyId: ctx.apiKeyId ?? null,
  });
  await tx.flush();
  await reverseOrderInRollups(tx, ctx.organizationId, order.id);
  await reverseSchemeUse(tx, ctx.organizationId, order.id);
}

/**
 * Replaces the locked order's lines with `items`, priced at today's selling prices, with the schemes
 * of the order's day applied afresh (their budget use reversed and posted again), and recomputes
 * its total and item count. Only while it is Initiated and not cancelled (409 otherwise). The
 * rollup triggers move the old lines and total out and the new ones in, in this transaction.
 */
export async function replaceOrderLines(tx: EntityManager, ctx: RequestContext, order: Order, items: OrderLineInput[]): Promise<void> {
  validateLines(items);
  assertNotCancelled(order);
  if (order.status !== OrderStatus.INITIATED) {
    throw new ConflictError(`Order ${order.orderCode} is ${label(order.status)}; its lines can be replaced only while it is ${label(OrderStatus.INITIATED)}`);
  }
  await assertNotFreeOfCost(tx, ctx.organizationId, order);
  const variants = await tx.find(ProductVariant, { id: { $in: items.map((l) => l.productVariantId) } }, { populate: ['product'] });
  const priced = priceLines(items, new Map(variants.map((v) => [v.id, v])));
  // The schemes are evaluated afresh on the order's day: what the old lines took goes back first.
  await reverseSchemeUse(tx, ctx.organizationId, order.id);
  await tx.populate(order, ['customer']);
  const schemed = await applySchemes(tx, ctx.organizationId, { customer: order.customer, day: order.orderDate, lines: priced.lines });
  // The lines of an Initiated order are a draft, not a ledger: they are replaced, not reversed.
  await tx.nativeDelete(OrderItem, { order: order.id });
  for (const line of schemed.lines) tx.create(OrderItem, { organizationId: ctx.organizationId, order, ...line });
  order.totalAmount = schemed.total;
  order.itemsCount = schemed.lines.length;
  await tx.flush();
  await postSchemeUse(tx, ctx.organizationId, order.id, schemed);
}

/**
 * A free-of-cost order (a fulfilled FOC request's, priced at 0) keeps the lines that were approved:
 * replacing them would price them (409). The request is read by its table (the foc domain comes
 * after orders), on the order's workspace.
 */
async function assertNotFreeOfCost(tx: EntityManager, organizationId: number, order: Order): Promise<void> {
  const t = tenantSql(organizationId, 'f');
  const [foc] = await executeSql<{ id: number }>(tx, sql`select f.id from foc_request f where ${t.owns()} and f.fulfilled_order_id = ${order.id}`);
  if (foc) throw new ConflictError(`Order ${order.orderCode} fulfils FOC request ${foc.id}: its lines are the approved request's and cannot be replaced`);
}

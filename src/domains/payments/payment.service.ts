import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { resolvePage, type PageRequest, type Paginated } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { requireStaff } from '../auth/permissions';
import { Order } from '../orders/order.entity';
import { PAYMENT_MODES } from '../orders/order.service';
import { User } from '../users/user.entity';
import { localDayStart, shiftDay } from '../workspace/local-day';
import { notify } from '../notifications/notify';
import { Payment } from './payment.entity';
import type { PaymentRead } from './payment-read';
import { findPaymentPage, PAYMENT_SORT } from './payment-statements';
import { allocatedOf, allocateOldestFirst, paidOn, reverseAllocations } from './payment-allocation';
import { checkCustomer } from '../ledger/ledger.service';
import { resolveSort } from '../../lists/sort';

export interface RecordPaymentInput {
  /** The order the money was collected against; or, instead, */
  orderId?: number | null;
  /** the customer who paid on account (no order): allocated oldest-first over their open delivered orders. */
  customerId?: number | null;
  amount: number;
  modeOfPayment?: string | null;
  paidAt?: string | Date | null;
  reference?: string | null;
}

export interface PaymentFilter {
  orderId?: number | null;
  customerId?: number | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/**
 * Collections, recorded by staff or API keys: against an order, or on account (a customer's, no
 * order), then allocated oldest-first over the customer's open delivered orders
 * (payment-allocation.ts). What an order has been paid (its direct payments and allocations)
 * never adds up to more than its total.
 */
export class PaymentService {
  /**
   * 400 when the amount is not positive, when not exactly one of orderId and customerId is given,
   * or (an order payment) when it is more than the order still owes. An on-account payment is
   * allocated in the same transaction; what no order owes stays unallocated (an advance).
   */
  async record(ctx: RequestContext, input: RecordPaymentInput): Promise<PaymentRead> {
    requireStaff(ctx);
    const onAccount = input.orderId == null;
    if (onAccount && input.customerId == null) throw new ValidationError('orderId', 'is required, or the customer of an on-account payment');
    if (!onAccount && input.customerId != null) throw new ValidationError('customerId', 'must not be given with an order: a payment names an order, or on account a customer and no order');
    const amount = rules.money('amount', input.amount);
    if (amount === 0) throw new ValidationError('amount', 'must be greater than 0');
    const modeOfPayment = rules.oneOf('modeOfPayment', input.modeOfPayment ?? 'cash', PAYMENT_MODES);
    const paidAt = input.paidAt == null ? new Date() : paidMoment(input.paidAt);
    const reference = input.reference ? rules.optionalText('reference', input.reference, 100) || null : null;
    if (onAccount) await checkCustomer(ctx.em, ctx.organizationId, 'customerId', input.customerId!);
    const id = await ctx.em.transactional(async (tx) => {
      const by = { recordedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId), recordedByApiKeyId: ctx.apiKeyId };
      if (onAccount) {
        const recorded = tx.create(Payment, { organizationId: ctx.organizationId, customerId: input.customerId!, amount, modeOfPayment, paidAt, reference, ...by });
        await tx.flush();
        await allocateOldestFirst(tx, ctx.organizationId, recorded.id, recorded.customerId, amount);
        await notifyPayment(tx, ctx.organizationId, recorded.customerId, recorded.id, amount, null);
        return recorded.id;
      }
      // The order's row lock serializes what settles one order (payments, allocations), so two cannot overpay it together.
      const order = await tx.findOne(Order, { id: input.orderId! }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order) throw new ValidationError('orderId', 'does not name an order of this workspace');
      // A cancelled order has left the books (its rollups were reversed): it owes nothing more.
      if (order.cancelledAt) throw new ConflictError(`Order ${order.id} is cancelled: it takes no payments`);
      const t = tenantSql(ctx.organizationId, 'o');
      const [{ paid }] = await executeSql<{ paid: string }>(tx, sql`select ${paidOn('o')} as paid from sales_order o where ${t.owns()} and o.id = ${order.id}`);
      const outstanding = Math.round((order.totalAmount - Number(paid)) * 100) / 100;
      if (amount > outstanding) throw new ValidationError('amount', `is more than the order still owes (${outstanding.toFixed(2)})`);
      const recorded = tx.create(Payment, { organizationId: ctx.organizationId, order, customerId: order.customer.id, amount, modeOfPayment, paidAt, reference, ...by });
      await tx.flush();
      await notifyPayment(tx, ctx.organizationId, recorded.customerId, recorded.id, amount, order.orderCode);
      return recorded.id;
    });
    return this.read(ctx, id);
  }

  /**
   * Administrators and API keys void a payment recorded by mistake: a new payment of the negated
   * amount naming it, dated now, so the order owes it again and the ledger posts the reversal of
   * its credit. An on-account payment's allocations are reversed too (negated rows attached to the
   * void), so its orders owe again. Once (409, also under a race); a void is not voided (409);
   * nothing is updated.
   */
  async void(ctx: RequestContext, id: number, reason: string): Promise<PaymentRead> {
    ctx.requireAdminOrKey();
    const voidReason = rules.requiredText('reason', reason, 500);
    const voidId = await ctx.em.transactional(async (tx) => {
      const original = await tx.findOne(Payment, { id });
      if (!original) throw new NotFoundError('Payment', id);
      if (original.order) {
        // The order's row lock serializes the payments of one order (as record does).
        await tx.findOneOrFail(Order, { id: original.order.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      } else {
        // The payment's row lock serializes its void with its allocations (allocate).
        await lockPayment(tx, ctx.organizationId, id);
      }
      if (original.voidsPaymentId !== null) throw new ConflictError(`Payment ${id} is itself a void (of payment ${original.voidsPaymentId})`);
      const earlier = await tx.findOne(Payment, { voidsPaymentId: id });
      if (earlier) throw new ConflictError(`Payment ${id} is already voided by payment ${earlier.id}`);
      const voided = tx.create(Payment, {
        organizationId: ctx.organizationId,
        order: original.order,
        customerId: original.customerId,
        amount: -original.amount,
        modeOfPayment: original.modeOfPayment,
        paidAt: new Date(),
        reference: original.reference,
        voidsPaymentId: id,
        voidReason,
        recordedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
        recordedByApiKeyId: ctx.apiKeyId,
      });
      await tx.flush();
      if (!original.order) await reverseAllocations(tx, ctx.organizationId, id, voided.id);
      return voided.id;
    });
    return this.read(ctx, voidId);
  }

  /**
   * Staff and API keys: allocates what an on-account payment has left unallocated over the
   * customer's open delivered orders, oldest first (orders delivered since it was recorded, or
   * paid less since by a void). 409 when it is an order payment, a void or voided, or when nothing
   * is left to allocate or no order owes anything; 404 when it is not the workspace's.
   */
  async allocate(ctx: RequestContext, id: number): Promise<PaymentRead> {
    requireStaff(ctx);
    await ctx.em.transactional(async (tx) => {
      const payment = await lockPayment(tx, ctx.organizationId, id);
      if (!payment) throw new NotFoundError('Payment', id);
      if (payment.order_id !== null) throw new ConflictError(`Payment ${id} is against order ${payment.order_id}: only an on-account payment is allocated`);
      if (payment.voids_payment_id !== null) throw new ConflictError(`Payment ${id} is a void (of payment ${payment.voids_payment_id})`);
      const t = tenantSql(ctx.organizationId, 'p');
      const [voided] = await executeSql<{ id: number }>(tx, sql`select p.id from payment p where ${t.owns()} and p.voids_payment_id = ${id}`);
      if (voided) throw new ConflictError(`Payment ${id} is voided by payment ${voided.id}`);
      const rest = Math.round((Number(payment.amount) - (await allocatedOf(tx, ctx.organizationId, id))) * 100) / 100;
      if (rest <= 0) throw new ConflictError(`Payment ${id} is fully allocated: nothing is left to allocate`);
      const written = await allocateOldestFirst(tx, ctx.organizationId, id, Number(payment.customer_id), rest);
      if (written.length === 0) throw new ConflictError(`No delivered order of customer ${payment.customer_id} owes anything: ${rest.toFixed(2)} stays unallocated`);
    });
    return this.read(ctx, id);
  }

  /** Staff only; newest first unless sorted, each with its order (one statement). Dates are the workspace's local days. */
  async list(ctx: RequestContext, filter: PaymentFilter, pageRequest: PageRequest): Promise<Paginated<PaymentRead>> {
    requireStaff(ctx);
    const from = filter.dateFrom == null ? undefined : rules.calendarDate('dateFrom', filter.dateFrom);
    const to = filter.dateTo == null ? undefined : rules.calendarDate('dateTo', filter.dateTo);
    if (from && to && from > to) throw new ValidationError('dateFrom', 'must not be after dateTo');
    if (filter.customerId != null && (!Number.isSafeInteger(filter.customerId) || filter.customerId < 1)) throw new ValidationError('customerId', 'must be a positive integer');
    const page = resolvePage(pageRequest);
    return findPaymentPage(
      ctx.em,
      ctx.organizationId,
      {
        orderId: filter.orderId ?? undefined,
        customerId: filter.customerId ?? undefined,
        paidFrom: from ? await localDayStart(ctx.em, ctx.organizationId, from) : undefined,
        // The day after 9999-12-31 has no four-digit year, which PostgreSQL needs in a date; no
        // payment is that late (paid_at is never in the future): no upper bound.
        paidBefore: to && to < LAST_CALENDAR_DAY ? await localDayStart(ctx.em, ctx.organizationId, shiftDay(to, 1)) : undefined,
      },
      { ...page, sort: resolveSort(PAYMENT_SORT, pageRequest.sort) },
    );
  }

  /** One payment of the workspace as the list shows it (after a write's commit). */
  private async read(ctx: RequestContext, id: number): Promise<PaymentRead> {
    const found = await findPaymentPage(ctx.em, ctx.organizationId, { ids: [id] }, { page: 1, limit: 1, offset: 0, sort: resolveSort(PAYMENT_SORT, undefined) });
    if (found.items.length === 0) throw new NotFoundError('Payment', id);
    return found.items[0];
  }
}

/** The payment's row, locked (FOR NO KEY UPDATE: its void and allocations still reference it); undefined when not the workspace's. */
async function lockPayment(
  tx: EntityManager,
  organizationId: number,
  id: number,
): Promise<{ id: number; order_id: number | null; customer_id: number; amount: string; voids_payment_id: number | null } | undefined> {
  const t = tenantSql(organizationId, 'p');
  const [row] = await executeSql<{ id: number; order_id: number | null; customer_id: number; amount: string; voids_payment_id: number | null }>(
    tx,
    sql`select p.id, p.order_id, p.customer_id, p.amount, p.voids_payment_id from payment p where ${t.owns()} and p.id = ${id} for no key update`,
  );
  return row;
}

/** The last day a YYYY-MM-DD date can name. */
const LAST_CALENDAR_DAY = '9999-12-31';

function paidMoment(value: string | Date): Date {
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) throw new ValidationError('paidAt', 'must be an ISO 8601 timestamp');
  if (at.getTime() > Date.now() + 5 * 60_000) throw new ValidationError('paidAt', 'must not be in the future');
  return at;
}

/** The customer's inbox row for a payment recorded for them (in the payment's transaction). */
function notifyPayment(tx: EntityManager, organizationId: number, customerId: number, paymentId: number, amount: number, orderCode: string | null): Promise<void> {
  return notify(tx, organizationId, [customerId], {
    type: 'payment_recorded',
    title: `Payment of ${amount.toFixed(2)} recorded`,
    body: orderCode ? `A payment of ${amount.toFixed(2)} was recorded against your order ${orderCode}.` : `A payment of ${amount.toFixed(2)} was recorded on your account.`,
    entity: { type: 'payment', id: paymentId },
  });
}

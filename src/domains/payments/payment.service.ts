import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { rowOf } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { resolvePage, type PageRequest, type Paginated } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { requireStaff } from '../auth/permissions';
import { Order } from '../orders/order.entity';
import { PAYMENT_MODES } from '../orders/order.service';
import { User } from '../users/user.entity';
import { localDayStart, shiftDay } from '../workspace/local-day';
import { Payment } from './payment.entity';
import type { PaymentRead } from './payment-read';
import { findPaymentPage, PAYMENT_SORT } from './payment-statements';
import { resolveSort } from '../../lists/sort';

export interface RecordPaymentInput {
  orderId: number;
  amount: number;
  modeOfPayment?: string | null;
  paidAt?: string | Date | null;
  reference?: string | null;
}

export interface PaymentFilter {
  orderId?: number | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/**
 * Collections against orders, recorded by staff or API keys. The payments of one order never add
 * up to more than its total.
 */
export class PaymentService {
  /** 400 when the amount is not positive or is more than the order still owes. */
  async record(ctx: RequestContext, input: RecordPaymentInput): Promise<PaymentRead> {
    requireStaff(ctx);
    const amount = rules.money('amount', input.amount);
    if (amount === 0) throw new ValidationError('amount', 'must be greater than 0');
    const modeOfPayment = rules.oneOf('modeOfPayment', input.modeOfPayment ?? 'cash', PAYMENT_MODES);
    const paidAt = input.paidAt == null ? new Date() : paidMoment(input.paidAt);
    const reference = input.reference ? rules.optionalText('reference', input.reference, 100) || null : null;
    const { payment, order } = await ctx.em.transactional(async (tx) => {
      // The order's row lock serializes payments of one order, so two cannot overpay it together.
      const order = await tx.findOne(Order, { id: input.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order) throw new ValidationError('orderId', 'does not name an order of this workspace');
      // A cancelled order has left the books (its rollups were reversed): it owes nothing more.
      if (order.cancelledAt) throw new ConflictError(`Order ${order.id} is cancelled: it takes no payments`);
      const t = tenantSql(ctx.organizationId, 'p');
      const [{ paid }] = await executeSql<{ paid: string }>(tx, sql`select coalesce(sum(p.amount), 0) as paid from payment p where ${t.owns()} and p.order_id = ${order.id}`);
      const outstanding = Math.round((order.totalAmount - Number(paid)) * 100) / 100;
      if (amount > outstanding) throw new ValidationError('amount', `is more than the order still owes (${outstanding.toFixed(2)})`);
      const recorded = tx.create(Payment, {
        organizationId: ctx.organizationId,
        order,
        amount,
        modeOfPayment,
        paidAt,
        reference,
        recordedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
        recordedByApiKeyId: ctx.apiKeyId,
      });
      return { payment: recorded, order };
    });
    // After the commit, whose flush gives the payment its id.
    return { payment: rowOf(ctx.em, Payment, payment), order: rowOf(ctx.em, Order, order) };
  }

  /**
   * Administrators and API keys void a payment recorded by mistake: a new payment of the negated
   * amount naming it, dated now, so the order owes it again and the ledger posts the reversal of
   * its credit. Once (409, also under a race); a void is not voided (409); nothing is updated.
   */
  async void(ctx: RequestContext, id: number, reason: string): Promise<PaymentRead> {
    ctx.requireAdminOrKey();
    const voidReason = rules.requiredText('reason', reason, 500);
    const { voided, order } = await ctx.em.transactional(async (tx) => {
      const original = await tx.findOne(Payment, { id });
      if (!original) throw new NotFoundError('Payment', id);
      // The order's row lock serializes the payments of one order (as record does).
      const order = await tx.findOneOrFail(Order, { id: original.order.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (original.voidsPaymentId !== null) throw new ConflictError(`Payment ${id} is itself a void (of payment ${original.voidsPaymentId})`);
      const earlier = await tx.findOne(Payment, { voidsPaymentId: id });
      if (earlier) throw new ConflictError(`Payment ${id} is already voided by payment ${earlier.id}`);
      const voided = tx.create(Payment, {
        organizationId: ctx.organizationId,
        order,
        amount: -original.amount,
        modeOfPayment: original.modeOfPayment,
        paidAt: new Date(),
        reference: original.reference,
        voidsPaymentId: id,
        voidReason,
        recordedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
        recordedByApiKeyId: ctx.apiKeyId,
      });
      return { voided, order };
    });
    return { payment: rowOf(ctx.em, Payment, voided), order: rowOf(ctx.em, Order, order) };
  }

  /** Staff only; newest first unless sorted, each with its order (one statement). Dates are the workspace's local days. */
  async list(ctx: RequestContext, filter: PaymentFilter, pageRequest: PageRequest): Promise<Paginated<PaymentRead>> {
    requireStaff(ctx);
    const from = filter.dateFrom == null ? undefined : rules.calendarDate('dateFrom', filter.dateFrom);
    const to = filter.dateTo == null ? undefined : rules.calendarDate('dateTo', filter.dateTo);
    if (from && to && from > to) throw new ValidationError('dateFrom', 'must not be after dateTo');
    const page = resolvePage(pageRequest);
    return findPaymentPage(
      ctx.em,
      ctx.organizationId,
      {
        orderId: filter.orderId ?? undefined,
        paidFrom: from ? await localDayStart(ctx.em, ctx.organizationId, from) : undefined,
        // The day after 9999-12-31 has no four-digit year, which PostgreSQL needs in a date; no
        // payment is that late (paid_at is never in the future): no upper bound.
        paidBefore: to && to < LAST_CALENDAR_DAY ? await localDayStart(ctx.em, ctx.organizationId, shiftDay(to, 1)) : undefined,
      },
      { ...page, sort: resolveSort(PAYMENT_SORT, pageRequest.sort) },
    );
  }
}

/** The last day a YYYY-MM-DD date can name. */
const LAST_CALENDAR_DAY = '9999-12-31';

function paidMoment(value: string | Date): Date {
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) throw new ValidationError('paidAt', 'must be an ISO 8601 timestamp');
  if (at.getTime() > Date.now() + 5 * 60_000) throw new ValidationError('paidAt', 'must not be in the future');
  return at;
}

import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { rowOf } from '../../db/entity-rows';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import type { ApprovalKindHandler } from '../approvals/approval-kinds';
import { ApprovalStatus } from '../approvals/approval.entity';
import type { ApprovalService } from '../approvals/approval.service';
import { requireStaff } from '../auth/permissions';
import { MAX_AMOUNT_PAISE, priceLines, validateLines } from '../orders/order-pricing';
import { Order } from '../orders/order.entity';
import type { OrderService } from '../orders/order.service';
import { ProductVariant } from '../products/product-variant.entity';
import { User, UserType } from '../users/user.entity';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue';
import { localDayStart, shiftDay } from '../workspace/local-day';
import { focRequestData, type FocEvent } from './foc-events';
import { focReadOf, readFocRequests, type FocRead } from './foc-read';
import { assertFocTransition } from './foc-rules';
import { FOC_REASONS, FOC_STATUSES, FocRequest, FocRequestLine, FocStatus, type FocReason } from './foc.entity';

/** The approval kind of FOC requests. */
export const FOC_KIND = 'foc';
/** Longest remarks. */
export const MAX_FOC_REMARKS = 500;

/** A requested line: unit cost defaults to the variant's selling price. */
export interface FocLineInput {
  productVariantId: number;
  quantity: number;
  unitCost?: number | null;
}

/** A new FOC request. */
export interface SubmitFocInput {
  customerId: number;
  reason: FocReason;
  remarks?: string | null;
  items: FocLineInput[];
}

/** Filters of the FOC list; dateFrom/dateTo are local days of its creation. */
export interface FocFilter {
  status?: number | null;
  customerId?: number | null;
  reason?: number | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** The FOC list: newest first unless sorted. */
export const FOC_SORT = sortable<keyof FocRequest & string>({
  name: 'FocRequest',
  fields: { created_at: 'createdAt', total_cost: 'totalCost', status: 'status', id: 'id' },
  default: '-created_at',
});
const FOC_LIST = entityList({ entity: FocRequest, sort: FOC_SORT });

/**
 * FOC (free of cost) requests (README, FOC requests). Staff and API keys ask for goods for a
 * distributor or retailer; customers 403. Submitting asks approvals (kind `foc`) for the total cost:
 * under the policy's first threshold it is approved at once. Administrators and API keys fulfil an
 * approved request once, as a zero-priced order placed through the orders' own creation path. The
 * requester or an administrator (or an API key) cancels it before fulfilment. Employees see their own.
 */
export class FocService {
  constructor(
    private readonly approvals: ApprovalService,
    private readonly orders: OrderService,
    private readonly events: WebhookEventQueue,
  ) {}

  private async emit(tx: EntityManager, request: FocRequest, event: FocEvent): Promise<void> {
    await tx.flush();
    await this.events.emit(tx, request.organizationId, event, focRequestData(request));
  }

  /** What the approvals domain calls on a FOC request's final decision, in its transaction. */
  readonly approvalHandler: ApprovalKindHandler = {
    decided: async (tx, _ctx, approval, outcome) => {
      const request = await tx.findOne(FocRequest, { id: approval.entityId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!request) throw new Error(`FOC request ${approval.entityId} of approval ${approval.id} not found`);
      const approved = outcome === ApprovalStatus.APPROVED;
      request.status = assertFocTransition(request.id, request.status, approved ? FocStatus.APPROVED : FocStatus.REJECTED);
      await this.emit(tx, request, approved ? 'foc_request.approved' : 'foc_request.rejected');
    },
  };

  /** 400 naming a bad field, nothing written; the request and its approval commit together. */
  async submit(ctx: RequestContext, input: SubmitFocInput): Promise<FocRead> {
    requireStaff(ctx);
    rules.oneOf('reason', input.reason, FOC_REASONS);
    const remarks = rules.optionalText('remarks', input.remarks, MAX_FOC_REMARKS);
    if (!Array.isArray(input.items)) throw new ValidationError('items', 'must be a list');
    validateLines(input.items);
    input.items.forEach((line, i) => {
      if (line.unitCost != null) rules.money(`items[${i}].unitCost`, line.unitCost);
    });
    const customer = await ctx.em.findOne(User, { id: input.customerId, userType: { $in: [UserType.DISTRIBUTOR, UserType.RETAILER] }, status: ActiveStatus.ACTIVE });
    if (!customer) throw new ValidationError('customerId', 'must be an active distributor or retailer of this workspace');
    const variants = await ctx.em.find(ProductVariant, { id: { $in: input.items.map((l) => l.productVariantId) } }, { populate: ['product'] });
    // The orders' pricing checks every variant is active, as the fulfilment's order will need.
    const listed = priceLines(input.items, new Map(variants.map((v) => [v.id, v])));
    let totalPaise = 0;
    const lines = listed.lines.map((line, i) => {
      const unitPaise = Math.round((input.items[i].unitCost ?? line.unitPrice) * 100);
      const amountPaise = unitPaise * line.quantity;
      totalPaise += amountPaise;
      if (amountPaise > MAX_AMOUNT_PAISE || totalPaise > MAX_AMOUNT_PAISE) throw new ValidationError(`items[${i}].quantity`, `makes the total cost exceed ${MAX_AMOUNT_PAISE / 100}`);
      return { variant: line.variant, quantity: line.quantity, unitCost: unitPaise / 100, amount: amountPaise / 100 };
    });
    const id = await ctx.em.transactional(async (tx) => {
      const organizationId = ctx.organizationId;
      const request = tx.create(FocRequest, {
        organizationId,
        customer: tx.getReference(User, customer.id),
        requestedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
        reason: input.reason,
        remarks,
        totalCost: totalPaise / 100,
      });
      for (const line of lines) tx.create(FocRequestLine, { organizationId, request, ...line, variant: tx.getReference(ProductVariant, line.variant.id) });
      await tx.flush();
      const approval = await this.approvals.request(tx, ctx, { kind: FOC_KIND, entityId: request.id, amount: request.totalCost });
      request.approval = approval;
      await tx.flush();
      if (approval.status === ApprovalStatus.APPROVED) {
        request.status = FocStatus.APPROVED;
        await this.emit(tx, request, 'foc_request.approved');
      }
      return request.id;
    });
    return focReadOf(ctx.em, id);
  }

  /** Staff and keys; employees see those they asked for. */
  async list(ctx: RequestContext, filter: FocFilter, pageRequest: PageRequest): Promise<Paginated<FocRead>> {
    const own = this.ownOf(ctx);
    if (filter.status != null) rules.oneOf('status', filter.status, FOC_STATUSES);
    if (filter.reason != null) rules.oneOf('reason', filter.reason, FOC_REASONS);
    const dateFrom = filter.dateFrom == null ? null : rules.calendarDate('dateFrom', filter.dateFrom);
    const dateTo = filter.dateTo == null ? null : rules.calendarDate('dateTo', filter.dateTo);
    if (dateFrom && dateTo && dateFrom > dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
    const where: Array<FilterQuery<FocRequest>> = [];
    if (own !== null) where.push({ requestedBy: own });
    if (filter.status != null) where.push({ status: filter.status });
    if (filter.reason != null) where.push({ reason: filter.reason });
    if (filter.customerId != null) where.push({ customer: filter.customerId });
    if (dateFrom) where.push({ createdAt: { $gte: await localDayStart(ctx.em, ctx.organizationId, dateFrom) } });
    if (dateTo) where.push({ createdAt: { $lt: await localDayStart(ctx.em, ctx.organizationId, shiftDay(dateTo, 1)) } });
    const page = await readPage(ctx.em, FOC_LIST, { $and: where }, pageRequest);
    return { ...page, items: await readFocRequests(ctx.em, page.items) };
  }

  /** 404 when not the workspace's or (for an employee) not theirs. */
  async get(ctx: RequestContext, id: number): Promise<FocRead> {
    const request = await ctx.em.findOne(FocRequest, this.visible(ctx, id));
    if (!request) throw new NotFoundError('FOC request', id);
    const [read] = await readFocRequests(ctx.em, [rowOf(ctx.em, FocRequest, request)]);
    return read;
  }

  /** The requester or an administrator (or a key) cancels a submitted or approved request (409 once fulfilled, rejected or cancelled); a pending approval is withdrawn. */
  async cancel(ctx: RequestContext, id: number): Promise<FocRead> {
    const where = this.visible(ctx, id);
    await ctx.em.transactional(async (tx) => {
      // The approval's row first, then the request's: the order a decision locks them in, so a
      // cancel racing the final approval waits instead of deadlocking. A refusal below rolls it back.
      await this.approvals.cancelFor(tx, FOC_KIND, id);
      const request = await tx.findOne(FocRequest, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!request) throw new NotFoundError('FOC request', id);
      request.status = assertFocTransition(request.id, request.status, FocStatus.CANCELLED);
      request.cancelledAt = new Date();
      await this.emit(tx, request, 'foc_request.cancelled');
    });
    return focReadOf(ctx.em, id);
  }

  /**
   * Administrators and keys fulfil an approved request once (409 otherwise): a zero-priced order for
   * its customer with its lines, through the orders' creation path (its code, history and
   * order.created), linked, in one transaction.
   */
  async fulfil(ctx: RequestContext, id: number): Promise<FocRead> {
    ctx.requireAdminOrKey();
    await ctx.em.transactional(async (tx) => {
      const request = await tx.findOne(FocRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!request) throw new NotFoundError('FOC request', id);
      request.status = assertFocTransition(request.id, request.status, FocStatus.FULFILLED);
      const lines = await tx.find(FocRequestLine, { request }, { orderBy: { id: 'asc' } });
      const inTransaction = new RequestContext(ctx.requestId, tx as EntityManager, ctx.principal, ctx.clientIp);
      const created = await this.orders.create(
        inTransaction,
        { userId: request.customer.id, items: lines.map((l) => ({ productVariantId: l.variant.id, quantity: l.quantity })) },
        { free: true },
      );
      request.fulfilledOrder = tx.getReference(Order, created.order.id);
      request.fulfilledAt = new Date();
      await this.emit(tx, request, 'foc_request.fulfilled');
    });
    return focReadOf(ctx.em, id);
  }

  /** Customers 403; an employee's own user id; null for administrators and keys. */
  private ownOf(ctx: RequestContext): number | null {
    requireStaff(ctx);
    const principal = ctx.requirePrincipal();
    return principal.kind === 'session' && principal.userType === UserType.EMPLOYEE ? principal.userId : null;
  }

  private visible(ctx: RequestContext, id: number): FilterQuery<FocRequest> {
    const own = this.ownOf(ctx);
    return own === null ? { id } : { id, requestedBy: own };
  }
}


import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { MAX_AMOUNT_PAISE, MAX_LINE_QUANTITY, validateLines } from '../orders/order-pricing';
import { ProductVariant } from '../products/product-variant.entity';
import { Scheme } from '../schemes/scheme.entity';
import { User, UserType } from '../users/user.entity';
import { Visit } from '../visits/visit.entity';
import { workspaceToday } from '../workspace/local-day';
import { readSecondarySales, secondarySaleReadOf, type SecondarySaleRead } from './secondary-sale-read';
import { SecondarySale, SecondarySaleLine, SecondarySaleSource } from './secondary-sale.entity';
import { secondaryStock, type SecondaryStockRow } from './secondary-stock';

/** Longest invoice number and client_ref. */
export const MAX_INVOICE_NO = 50;
export const MAX_CLIENT_REF = 100;

/** A line of a secondary sale as sent. */
export interface SecondarySaleLineInput {
  productVariantId: number;
  quantity: number;
  freeQuantity?: number | null;
  rate: number;
  discountAmount?: number | null;
  schemeId?: number | null;
}

/** A secondary sale as sent. */
export interface RecordSecondarySaleInput {
  clientRef?: string | null;
  distributorId?: number | null;
  retailerId: number;
  invoiceNo: string;
  invoiceDate: string;
  visitId?: number | null;
  items: SecondarySaleLineInput[];
}

/** Filters of the list; dates are invoice dates, inclusive. */
export interface SecondarySaleFilter {
  distributorId?: number | null;
  retailerId?: number | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** A recorded sale and whether this call created it (false: a re-send under the same client_ref). */
export interface Recorded {
  read: SecondarySaleRead;
  created: boolean;
}

export const SECONDARY_SALE_SORT = sortable<keyof SecondarySale & string>({
  name: 'SecondarySale',
  fields: { invoice_date: 'invoiceDate', invoice_no: 'invoiceNo', net_amount: 'netAmount', created_at: 'createdAt', id: 'id' },
  default: '-invoice_date,-id',
});
const SECONDARY_SALE_LIST = entityList({ entity: SecondarySale, sort: SECONDARY_SALE_SORT, searchIn: ['invoiceNo'] });

/** Who is asking: a distributor or retailer confines every read to their own sales. */
type Viewer = { distributor: number } | { retailer: number } | null;

/**
 * Secondary sales (README, Secondary sales): a distributor's invoices to retailers, booked by the
 * distributor's own session, by staff (a field employee, who may link the visit at which the sale
 * was taken) or by an API key. Retailers read the sales made to them; distributors read their own.
 */
export class SecondarySaleService {
  /** Records a sale, or answers the sale a re-send with the same client_ref already made. */
  async record(ctx: RequestContext, input: RecordSecondarySaleInput): Promise<Recorded> {
    const principal = ctx.requirePrincipal();
    let source: SecondarySaleSource;
    let distributorId: number;
    if (principal.kind === 'session' && principal.userType === UserType.RETAILER) throw new ForbiddenError('Retailers may read secondary sales, not record them');
    if (principal.kind === 'session' && principal.userType === UserType.DISTRIBUTOR) {
      source = SecondarySaleSource.DISTRIBUTOR;
      if (input.distributorId != null && input.distributorId !== principal.userId) throw new ValidationError('distributorId', 'must be your own id (or left out)');
      if (input.visitId != null) throw new ValidationError('visitId', "is linked only on a field employee's booking");
      distributorId = principal.userId;
    } else {
      source = principal.kind === 'session' ? SecondarySaleSource.FIELD : SecondarySaleSource.API;
      if (input.distributorId == null) throw new ValidationError('distributorId', 'is required');
      if (!Number.isSafeInteger(input.distributorId) || input.distributorId < 1) throw new ValidationError('distributorId', 'must be a positive integer');
      if (source === SecondarySaleSource.API && input.visitId != null) throw new ValidationError('visitId', "is linked only on a field employee's booking");
      distributorId = input.distributorId;
    }
    const checked = await this.checkShape(ctx, input);

    const hash = createHash('sha256')
      .update(JSON.stringify({ distributorId, ...checked, lines: checked.lines.map((l) => [l.productVariantId, l.quantity, l.freeQuantity, l.ratePaise, l.discountPaise, l.schemeId]) }))
      .digest('hex');
    if (checked.clientRef !== null) {
      const replay = await this.replayOf(ctx, distributorId, checked.clientRef, hash);
      if (replay) return replay;
    }

    const distributor = await ctx.em.findOne(User, { id: distributorId, userType: UserType.DISTRIBUTOR, status: ActiveStatus.ACTIVE });
    if (!distributor) throw new ValidationError('distributorId', 'must be an active distributor of this workspace');
    const retailer = await ctx.em.findOne(User, { id: checked.retailerId, userType: UserType.RETAILER });
    if (!retailer) throw new ValidationError('retailerId', 'must be a retailer of this workspace');
    if (checked.visitId !== null) await this.checkVisit(ctx, checked.visitId, retailer);
    const variantIds = new Set((await ctx.em.find(ProductVariant, { id: { $in: checked.lines.map((l) => l.productVariantId) } }, { fields: ['id'] })).map((v) => v.id));
    const schemeIds = checked.lines.flatMap((l) => (l.schemeId === null ? [] : [l.schemeId]));
    const schemes = new Set(schemeIds.length ? (await ctx.em.find(Scheme, { id: { $in: schemeIds } }, { fields: ['id'] })).map((s) => s.id) : []);
    checked.lines.forEach((line, i) => {
      if (!variantIds.has(line.productVariantId)) throw new ValidationError(`items[${i}].productVariantId`, 'does not name a product variant of this workspace');
      if (line.schemeId !== null && !schemes.has(line.schemeId)) throw new ValidationError(`items[${i}].schemeId`, 'does not name a scheme of this workspace');
    });
    if (await ctx.em.count(SecondarySale, { distributor: distributorId, invoiceNo: checked.invoiceNo })) {
      throw new ConflictError(`Invoice ${checked.invoiceNo} of distributor ${distributorId} is already recorded`);
    }

    let grossPaise = 0;
    let discountPaise = 0;
    for (const line of checked.lines) {
      grossPaise += line.quantity * line.ratePaise;
      discountPaise += line.discountPaise;
    }
    if (grossPaise > MAX_AMOUNT_PAISE) throw new ValidationError('items', `make the invoice exceed ${MAX_AMOUNT_PAISE / 100}`);
    let id: number;
    try {
      id = await ctx.em.transactional(async (tx) => {
        const organizationId = ctx.organizationId;
        const sale = tx.create(SecondarySale, {
          organizationId,
          distributor: tx.getReference(User, distributorId),
          retailer: tx.getReference(User, retailer.id),
          invoiceNo: checked.invoiceNo,
          invoiceDate: checked.invoiceDate,
          clientRef: checked.clientRef,
          requestHash: hash,
          source,
          bookedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
          visit: checked.visitId === null ? null : tx.getReference(Visit, checked.visitId),
          itemsCount: checked.lines.length,
          grossAmount: grossPaise / 100,
          schemeDiscount: discountPaise / 100,
          netAmount: (grossPaise - discountPaise) / 100,
        });
        for (const line of checked.lines) {
          tx.create(SecondarySaleLine, {
            organizationId,
            sale,
            variant: tx.getReference(ProductVariant, line.productVariantId),
            quantity: line.quantity,
            freeQuantity: line.freeQuantity,
            rate: line.ratePaise / 100,
            discountAmount: line.discountPaise / 100,
            amount: (line.quantity * line.ratePaise - line.discountPaise) / 100,
            schemeId: line.schemeId,
          });
        }
        await tx.flush();
        return sale.id;
      });
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      // Another request recorded the same client_ref or invoice number in between.
      if (checked.clientRef !== null) {
        const replay = await this.replayOf(ctx, distributorId, checked.clientRef, hash);
        if (replay) return replay;
      }
      throw new ConflictError(`Invoice ${checked.invoiceNo} of distributor ${distributorId} is already recorded`);
    }
    return { read: (await secondarySaleReadOf(ctx.em, id))!, created: true };
  }

  /** Sales the caller may see, filtered, newest invoice first. */
  async list(ctx: RequestContext, filter: SecondarySaleFilter & { search?: string }, pageRequest: PageRequest): Promise<Paginated<SecondarySaleRead>> {
    const viewer = this.viewerOf(ctx);
    const dateFrom = filter.dateFrom == null ? null : rules.calendarDate('dateFrom', filter.dateFrom);
    const dateTo = filter.dateTo == null ? null : rules.calendarDate('dateTo', filter.dateTo);
    if (dateFrom && dateTo && dateFrom > dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
    const where: Array<FilterQuery<SecondarySale>> = [this.visibleTo(viewer)];
    if (filter.distributorId != null) where.push({ distributor: filter.distributorId });
    if (filter.retailerId != null) where.push({ retailer: filter.retailerId });
    if (dateFrom) where.push({ invoiceDate: { $gte: dateFrom } });
    if (dateTo) where.push({ invoiceDate: { $lte: dateTo } });
    const page = await readPage(ctx.em, SECONDARY_SALE_LIST, { $and: where }, { ...pageRequest, search: filter.search });
    return { ...page, items: await readSecondarySales(ctx.em, page.items) };
  }

  /** One sale: 404 when not the workspace's, or not the calling distributor's or retailer's. */
  async get(ctx: RequestContext, id: number): Promise<SecondarySaleRead> {
    const viewer = this.viewerOf(ctx);
    const read = await secondarySaleReadOf(ctx.em, id);
    if (!read || !this.sees(viewer, read)) throw new NotFoundError('Secondary sale', id);
    return read;
  }

  /**
   * Sell-in against sell-out of one distributor up to a day, per variant: delivered primary orders
   * in, secondary sales (quantity + free quantity) out, their difference the implied stock. A
   * distributor reads their own (distributorId left out or theirs); staff and keys name one;
   * retailers 403.
   */
  async stock(ctx: RequestContext, query: { distributorId?: number | null; dateTo?: string | null }): Promise<{ distributorId: number; dateTo: string; rows: SecondaryStockRow[] }> {
    const viewer = this.viewerOf(ctx);
    if (viewer && 'retailer' in viewer) throw new ForbiddenError('Retailers may not read a distributor’s stock');
    let distributorId: number;
    if (viewer) {
      if (query.distributorId != null && query.distributorId !== viewer.distributor) throw new ValidationError('distributorId', 'must be your own id (or left out)');
      distributorId = viewer.distributor;
    } else {
      if (query.distributorId == null) throw new ValidationError('distributorId', 'is required');
      const found = await ctx.em.count(User, { id: query.distributorId, userType: UserType.DISTRIBUTOR });
      if (!found) throw new ValidationError('distributorId', 'must be a distributor of this workspace');
      distributorId = query.distributorId;
    }
    const dateTo = query.dateTo == null ? await workspaceToday(ctx.em, ctx.organizationId) : rules.calendarDate('dateTo', query.dateTo);
    return { distributorId, dateTo, rows: await secondaryStock(ctx.em, ctx.organizationId, distributorId, dateTo) };
  }

  /** The shape of a sale, checked field by field, in whole paise. */
  private async checkShape(ctx: RequestContext, input: RecordSecondarySaleInput) {
    const clientRef = input.clientRef == null || input.clientRef.trim() === '' ? null : rules.requiredText('clientRef', input.clientRef, MAX_CLIENT_REF);
    if (!Number.isSafeInteger(input.retailerId) || input.retailerId < 1) throw new ValidationError('retailerId', 'must be a positive integer');
    if (input.visitId != null && (!Number.isSafeInteger(input.visitId) || input.visitId < 1)) throw new ValidationError('visitId', 'must be a positive integer');
    const invoiceNo = rules.requiredText('invoiceNo', input.invoiceNo, MAX_INVOICE_NO);
    if (typeof input.invoiceDate !== 'string') throw new ValidationError('invoiceDate', 'must be a date in the form YYYY-MM-DD');
    const invoiceDate = rules.calendarDate('invoiceDate', input.invoiceDate);
    if (!Array.isArray(input.items)) throw new ValidationError('items', 'must be a list');
    validateLines(input.items);
    const lines = input.items.map((line, i) => {
      const freeQuantity = line.freeQuantity ?? 0;
      if (!Number.isInteger(freeQuantity) || freeQuantity < 0 || freeQuantity > MAX_LINE_QUANTITY) throw new ValidationError(`items[${i}].freeQuantity`, `must be an integer from 0 to ${MAX_LINE_QUANTITY}`);
      if (typeof line.rate !== 'number') throw new ValidationError(`items[${i}].rate`, 'must be a number >= 0');
      const ratePaise = Math.round(rules.money(`items[${i}].rate`, line.rate) * 100);
      const discountPaise = Math.round(rules.money(`items[${i}].discountAmount`, line.discountAmount ?? 0) * 100);
      if (discountPaise > line.quantity * ratePaise) throw new ValidationError(`items[${i}].discountAmount`, 'must not exceed quantity × rate');
      if (line.quantity * ratePaise > MAX_AMOUNT_PAISE) throw new ValidationError(`items[${i}].quantity`, `makes the line exceed ${MAX_AMOUNT_PAISE / 100}`);
      const schemeId = line.schemeId ?? null;
      if (schemeId !== null && (!Number.isSafeInteger(schemeId) || schemeId < 1)) throw new ValidationError(`items[${i}].schemeId`, 'must be a positive integer');
      return { productVariantId: line.productVariantId, quantity: line.quantity, freeQuantity, ratePaise, discountPaise, schemeId };
    });
    // An invoice is dated on the workspace's day or before.
    if (invoiceDate > (await workspaceToday(ctx.em, ctx.organizationId))) throw new ValidationError('invoiceDate', 'must not be in the future');
    return { clientRef, retailerId: input.retailerId, invoiceNo, invoiceDate, visitId: input.visitId ?? null, lines };
  }

  /** The sale already recorded under this client_ref: the same request answers it, a different one is a 409. */
  private async replayOf(ctx: RequestContext, distributorId: number, clientRef: string, hash: string): Promise<Recorded | null> {
    const existing = await ctx.em.findOne(SecondarySale, { distributor: distributorId, clientRef }, { refresh: true });
    if (!existing) return null;
    if (existing.requestHash !== hash) throw new ConflictError(`client_ref ${clientRef} was already used for a different secondary sale (${existing.id})`);
    return { read: (await secondarySaleReadOf(ctx.em, existing.id))!, created: false };
  }

  /** The caller's own visit, at an outlet on the retailer's route (outlets and retailers meet on routes). */
  private async checkVisit(ctx: RequestContext, visitId: number, retailer: User): Promise<void> {
    const visit = await ctx.em.findOne(Visit, { id: visitId, user: ctx.userId! }, { populate: ['outlet'] });
    if (!visit) throw new ValidationError('visitId', 'is not a visit of yours');
    if (!retailer.route || visit.outlet.route.id !== retailer.route.id) throw new ValidationError('visitId', "was not at an outlet on the retailer's route");
  }

  private viewerOf(ctx: RequestContext): Viewer {
    const p = ctx.requirePrincipal();
    if (p.kind !== 'session') return null;
    if (p.userType === UserType.DISTRIBUTOR) return { distributor: p.userId };
    if (p.userType === UserType.RETAILER) return { retailer: p.userId };
    return null;
  }

  private visibleTo(viewer: Viewer): FilterQuery<SecondarySale> {
    if (viewer === null) return {};
    return 'distributor' in viewer ? { distributor: viewer.distributor } : { retailer: viewer.retailer };
  }

  private sees(viewer: Viewer, { sale }: SecondarySaleRead): boolean {
    if (viewer === null) return true;
    return 'distributor' in viewer ? sale.distributor === viewer.distributor : sale.retailer === viewer.retailer;
  }
}

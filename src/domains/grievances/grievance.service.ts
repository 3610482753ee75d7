import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { rowOf } from '../../db/entity-rows';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { isCustomer, requireStaff } from '../auth/permissions';
import { FocReason, FocRequest } from '../foc/foc.entity';
import type { FocLineInput, FocService } from '../foc/foc.service';
import { LedgerEntry } from '../ledger/ledger-entry.entity';
import type { LedgerService } from '../ledger/ledger.service';
import { Order } from '../orders/order.entity';
import { User, UserType } from '../users/user.entity';
import { WorkspaceConfig } from '../workspace/workspace-config.entity';
import { grievanceUpdated } from './grievance-notify';
import { MAX_PHOTO_BYTES, MAX_PHOTOS, type PhotoLink, type PhotoLinks, type PhotoStore } from './grievance-photos';
import { grievanceReadOf, readGrievances, type GrievanceRead, type PhotoRow } from './grievance-read';
import { assertGrievanceTransition, GRIEVANCE_ACTIONS, imageTypeOf, REOPEN_WINDOW_MS, type GrievanceAction } from './grievance-rules';
import {
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_RESOLUTION_ACTIONS,
  GRIEVANCE_STATUS_LABELS,
  GRIEVANCE_STATUSES,
  Grievance,
  GrievancePhoto,
  GrievanceRaisedVia,
  GrievanceResolutionAction,
  GrievanceStatus,
  type GrievanceCategory,
} from './grievance.entity';

export const MAX_GRIEVANCE_TEXT = 2000;

/** A new grievance. */
export interface RaiseGrievanceInput {
  /** Staff and keys: required; a customer: omitted or their own id. */
  customerId?: number | null;
  category: GrievanceCategory;
  orderId?: number | null;
  description: string;
  assigneeUserId?: number | null;
}

/** Filters of the grievance list. */
export interface GrievanceFilter {
  status?: number | null;
  category?: number | null;
  customerId?: number | null;
  assigneeUserId?: number | null;
}

/** The resolve transition's input: what was done, and optionally a credit note or an FOC replacement in the same transaction. */
export interface ResolveGrievanceInput {
  resolution: string;
  /** none (default), credit_note or replacement. */
  action?: string | null;
  creditNoteAmount?: number | null;
  replacementItems?: FocLineInput[] | null;
}

export const GRIEVANCE_SORT = sortable<keyof Grievance & string>({
  name: 'Grievance',
  fields: { created_at: 'createdAt', status: 'status', ack_due_at: 'ackDueAt', resolve_due_at: 'resolveDueAt', id: 'id' },
  default: '-created_at',
});
const GRIEVANCE_LIST = entityList({ entity: Grievance, sort: GRIEVANCE_SORT });

/** A photo's bytes for a download. */
export interface PhotoDownload {
  fileName: string;
  contentType: string;
  byteSize: number;
  body: Buffer;
}

/**
 * Grievances (README, API notes "Grievances"): raised by a customer for themselves or by staff and
 * keys for a customer; SLA clocks (acknowledge-by, resolve-by) from opening per the workspace's
 * settings; transitions by staff (a customer may close or reopen their own); a resolution may post
 * a credit note or submit an FOC replacement in its transaction. Customers see their own (another's: 404).
 */
export class GrievanceService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly foc: FocService,
    private readonly store: PhotoStore,
    private readonly links: PhotoLinks,
  ) {}

  async raise(ctx: RequestContext, input: RaiseGrievanceInput): Promise<GrievanceRead> {
    const customerSession = isCustomer(ctx);
    rules.oneOf('category', input.category, GRIEVANCE_CATEGORIES);
    const description = rules.requiredText('description', input.description, MAX_GRIEVANCE_TEXT);
    let customerId: number;
    if (customerSession) {
      if (input.customerId != null && input.customerId !== ctx.userId) throw new ValidationError('customerId', 'a customer raises grievances only for themselves');
      if (input.assigneeUserId != null) throw new ValidationError('assigneeUserId', 'only staff assign grievances');
      customerId = ctx.userId!;
    } else {
      if (input.customerId == null) throw new ValidationError('customerId', 'is required');
      const customer = await ctx.em.findOne(User, { id: input.customerId, userType: { $in: [UserType.DISTRIBUTOR, UserType.RETAILER] }, status: ActiveStatus.ACTIVE });
      if (!customer) throw new ValidationError('customerId', 'must be an active distributor or retailer of this workspace');
      customerId = customer.id;
    }
    if (input.orderId != null) {
      const order = await ctx.em.findOne(Order, { id: input.orderId, customer: customerId });
      if (!order) throw new ValidationError('orderId', "must be one of the customer's orders in this workspace");
    }
    if (input.assigneeUserId != null) await this.checkAssignee(ctx.em, input.assigneeUserId);
    const config = await ctx.em.findOne(WorkspaceConfig, {});
    const now = new Date();
    const id = await ctx.em.transactional(async (tx) => {
      const grievance = tx.create(Grievance, {
        organizationId: ctx.organizationId,
        customer: tx.getReference(User, customerId),
        raisedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
        raisedVia: customerSession ? GrievanceRaisedVia.CUSTOMER : ctx.userId === null ? GrievanceRaisedVia.API_KEY : GrievanceRaisedVia.STAFF,
        category: input.category,
        order: input.orderId == null ? null : tx.getReference(Order, input.orderId),
        description,
        assignee: input.assigneeUserId == null ? null : tx.getReference(User, input.assigneeUserId),
        ackDueAt: new Date(now.getTime() + (config?.grievanceAckHours ?? 48) * 3_600_000),
        resolveDueAt: new Date(now.getTime() + (config?.grievanceResolveDays ?? 30) * 86_400_000),
        createdAt: now,
      });
      await tx.flush();
      await grievanceUpdated(tx, grievance, 'created', ctx.userId);
      return grievance.id;
    });
    return grievanceReadOf(ctx.em, id);
  }

  async list(ctx: RequestContext, filter: GrievanceFilter, pageRequest: PageRequest): Promise<Paginated<GrievanceRead>> {
    if (filter.status != null) rules.oneOf('status', filter.status, GRIEVANCE_STATUSES);
    if (filter.category != null) rules.oneOf('category', filter.category, GRIEVANCE_CATEGORIES);
    const where: Array<FilterQuery<Grievance>> = [];
    if (isCustomer(ctx)) where.push({ customer: ctx.userId! });
    if (filter.status != null) where.push({ status: filter.status });
    if (filter.category != null) where.push({ category: filter.category });
    if (filter.customerId != null) where.push({ customer: filter.customerId });
    if (filter.assigneeUserId != null) where.push({ assignee: filter.assigneeUserId });
    const page = await readPage(ctx.em, GRIEVANCE_LIST, { $and: where }, pageRequest);
    return { ...page, items: await readGrievances(ctx.em, page.items) };
  }

  async get(ctx: RequestContext, id: number): Promise<GrievanceRead> {
    const grievance = await ctx.em.findOne(Grievance, this.visible(ctx, id));
    if (!grievance) throw new NotFoundError('Grievance', id);
    const [read] = await readGrievances(ctx.em, [rowOf(ctx.em, Grievance, grievance)]);
    return read;
  }

  /** Staff and keys; a staff user (admin or employee, active) of the workspace, or null to unassign. */
  async assign(ctx: RequestContext, id: number, assigneeUserId: number | null): Promise<GrievanceRead> {
    requireStaff(ctx);
    await ctx.em.transactional(async (tx) => {
      const grievance = await tx.findOne(Grievance, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!grievance) throw new NotFoundError('Grievance', id);
      if (assigneeUserId != null) await this.checkAssignee(tx, assigneeUserId);
      grievance.assignee = assigneeUserId == null ? null : tx.getReference(User, assigneeUserId);
      await tx.flush();
      await grievanceUpdated(tx, grievance, 'assigned', ctx.userId);
    });
    return grievanceReadOf(ctx.em, id);
  }

  /**
   * One transition (409 naming the current state when not allowed from it). Staff and keys do all;
   * a customer may close or reopen their own. Reopen: within 7 days of resolving (or closing), back
   * to in progress. Leaving open stamps the acknowledgement; resolving stamps the resolution.
   */
  async transition(ctx: RequestContext, id: number, action: GrievanceAction, resolve?: ResolveGrievanceInput): Promise<GrievanceRead> {
    rules.oneOf('action', action, GRIEVANCE_ACTIONS);
    const where = this.visible(ctx, id);
    // Another workspace's (or customer's) grievance is 404 before anything about the input.
    if (!(await ctx.em.count(Grievance, where))) throw new NotFoundError('Grievance', id);
    const customer = isCustomer(ctx);
    if (customer && action !== 'close' && action !== 'reopen') throw new ForbiddenError('Only workspace staff may do this');
    let resolution = '';
    let resolutionAction = GrievanceResolutionAction.NONE;
    if (action === 'resolve') {
      if (!resolve) throw new ValidationError('resolution', 'is required');
      resolution = rules.requiredText('resolution', resolve.resolution, MAX_GRIEVANCE_TEXT);
      const named = rules.oneOf('action', resolve.action ?? 'none', GRIEVANCE_RESOLUTION_ACTIONS);
      resolutionAction = named === 'credit_note' ? GrievanceResolutionAction.CREDIT_NOTE : named === 'replacement' ? GrievanceResolutionAction.REPLACEMENT : GrievanceResolutionAction.NONE;
      if (resolutionAction === GrievanceResolutionAction.CREDIT_NOTE) {
        ctx.requireAdminOrKey();
        if (resolve.creditNoteAmount == null) throw new ValidationError('creditNoteAmount', 'is required for a credit note');
      } else if (resolve.creditNoteAmount != null) throw new ValidationError('creditNoteAmount', 'is only for action credit_note');
      if (resolutionAction === GrievanceResolutionAction.REPLACEMENT) {
        if (!Array.isArray(resolve.replacementItems) || resolve.replacementItems.length === 0) throw new ValidationError('replacementItems', 'are required for a replacement');
      } else if (resolve.replacementItems != null) throw new ValidationError('replacementItems', 'are only for action replacement');
    }
    await ctx.em.transactional(async (tx) => {
      const grievance = await tx.findOne(Grievance, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!grievance) throw new NotFoundError('Grievance', id);
      const from = grievance.status;
      const to = assertGrievanceTransition(grievance.id, from, action);
      const now = new Date();
      if (action === 'reopen') {
        const since = grievance.closedAt ?? grievance.resolvedAt!;
        if (now.getTime() - since.getTime() > REOPEN_WINDOW_MS) {
          throw new ConflictError(`Grievance ${id} is ${GRIEVANCE_STATUS_LABELS[from]} since ${since.toISOString()}: it may be reopened only within 7 days`);
        }
        grievance.resolvedAt = null;
        grievance.closedAt = null;
        grievance.reopenedAt = now;
        grievance.reopenCount += 1;
        grievance.resolveWarnedAt = null;
      }
      if (from === GrievanceStatus.OPEN && grievance.acknowledgedAt === null) grievance.acknowledgedAt = now;
      if (action === 'resolve') {
        if (resolutionAction !== GrievanceResolutionAction.NONE && (grievance.creditNote || grievance.focRequest)) {
          throw new ConflictError(`Grievance ${id} already has its ${grievance.creditNote ? `credit note (ledger entry ${grievance.creditNote.id})` : `FOC request ${grievance.focRequest!.id}`}`);
        }
        grievance.resolvedAt = now;
        grievance.resolution = resolution;
        if (resolutionAction !== GrievanceResolutionAction.NONE) grievance.resolutionAction = resolutionAction;
        const inTransaction = new RequestContext(ctx.requestId, tx as EntityManager, ctx.principal, ctx.clientIp);
        if (resolutionAction === GrievanceResolutionAction.CREDIT_NOTE) {
          const entry = await this.ledger.postNote(inTransaction, {
            customerId: grievance.customer.id,
            noteType: 'credit',
            amount: resolve!.creditNoteAmount!,
            narration: `Grievance ${grievance.id}: ${resolution}`.slice(0, 500),
            reference: `grievance:${grievance.id}`,
          });
          grievance.creditNote = tx.getReference(LedgerEntry, entry.id);
        } else if (resolutionAction === GrievanceResolutionAction.REPLACEMENT) {
          const request = await this.foc.submit(inTransaction, {
            customerId: grievance.customer.id,
            reason: FocReason.REPLACEMENT,
            remarks: `Grievance ${grievance.id}: ${resolution}`.slice(0, 500),
            items: resolve!.replacementItems!,
          });
          grievance.focRequest = tx.getReference(FocRequest, request.request.id);
        }
      }
      if (action === 'close') grievance.closedAt = now;
      grievance.status = to;
      await tx.flush();
      await grievanceUpdated(tx, grievance, action, ctx.userId);
    });
    return grievanceReadOf(ctx.em, id);
  }

  /** A JPEG or PNG (by its bytes), at most 5 MB, on a visible grievance; at most MAX_PHOTOS each (409). */
  async addPhoto(ctx: RequestContext, id: number, file: { fileName: string; data: Buffer }): Promise<GrievanceRead> {
    if (file.data.length === 0) throw new ValidationError('file', 'is empty');
    if (file.data.length > MAX_PHOTO_BYTES) throw new ValidationError('file', `must be at most ${MAX_PHOTO_BYTES} bytes (5 MB)`);
    const contentType = imageTypeOf(file.data);
    if (!contentType) throw new ValidationError('file', 'must be a JPEG or PNG image (judged by its content)');
    const fileName = (file.fileName || 'photo').replace(/[^\w.\- ]+/g, '_').slice(0, 200);
    const where = this.visible(ctx, id);
    const grievance = await ctx.em.findOne(Grievance, where);
    if (!grievance) throw new NotFoundError('Grievance', id);
    const stored = await this.store.put(ctx.organizationId, file.data, contentType === 'image/png' ? 'png' : 'jpg');
    try {
      await this.savePhoto(ctx, where, id, { fileName, contentType, byteSize: file.data.length, ...stored });
    } catch (err) {
      await this.store.remove(stored.storagePath);
      throw err;
    }
    return grievanceReadOf(ctx.em, id);
  }

  private async savePhoto(
    ctx: RequestContext,
    where: FilterQuery<Grievance>,
    id: number,
    photo: { fileName: string; contentType: string; byteSize: number; data: Buffer | null; storagePath: string | null },
  ): Promise<void> {
    await ctx.em.transactional(async (tx) => {
      const locked = await tx.findOneOrFail(Grievance, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const count = await tx.count(GrievancePhoto, { grievance: locked.id });
      if (count >= MAX_PHOTOS) throw new ConflictError(`Grievance ${id} already has ${MAX_PHOTOS} photos`);
      tx.create(GrievancePhoto, {
        organizationId: ctx.organizationId,
        grievance: locked,
        ...photo,
        uploadedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
      });
      await tx.flush();
      await grievanceUpdated(tx, locked, 'photo_added', ctx.userId);
    });
  }

  /** A fresh pre-signed link to a photo of a visible grievance (404 for another's). */
  async photoLink(ctx: RequestContext, id: number, photoId: number, requestBaseUrl: () => string): Promise<{ photo: PhotoRow; link: PhotoLink }> {
    const read = await this.get(ctx, id);
    const photo = read.photos.find((p) => p.id === photoId);
    if (!photo) throw new NotFoundError('Grievance photo', photoId);
    return { photo, link: this.links.issue(ctx.organizationId, photo.id, requestBaseUrl) };
  }

  /**
   * The bytes behind a photo link: the link is the credential (403 when not ours or expired); a
   * request that also carries a credential must be of the photo's workspace (404 otherwise).
   */
  async download(ctx: RequestContext, link: { id: number; expires: number; signature: string }): Promise<PhotoDownload> {
    const [owner] = await ctx.em.execute<{ organization_id: number }[]>('select organization_id from grievance_photo where id = ?', [link.id]);
    if (!owner || !this.links.verify(owner.organization_id, link.id, link.expires, link.signature)) throw new ForbiddenError('This photo link is not valid');
    const callerOrganizationId = ctx.principal?.organizationId ?? null;
    if (callerOrganizationId !== null && callerOrganizationId !== owner.organization_id) throw new NotFoundError('Grievance photo', link.id);
    if (link.expires * 1000 <= Date.now()) throw new ForbiddenError('This photo link has expired: ask for the photo again to get a new one');
    const [row] = await ctx.em.execute<{ file_name: string; content_type: string; byte_size: number; data: Buffer | null; storage_path: string | null }[]>(
      'select file_name, content_type, byte_size, data, storage_path from grievance_photo where organization_id = ? and id = ?',
      [owner.organization_id, link.id],
    );
    if (!row) throw new NotFoundError('Grievance photo', link.id);
    const body = await this.store.get({ data: row.data, storagePath: row.storage_path });
    return { fileName: row.file_name, contentType: row.content_type, byteSize: body.length, body };
  }

  private async checkAssignee(em: EntityManager, userId: number): Promise<void> {
    const user = await em.findOne(User, { id: userId, userType: { $in: [UserType.ADMIN, UserType.EMPLOYEE] }, status: ActiveStatus.ACTIVE });
    if (!user) throw new ValidationError('assigneeUserId', 'must be an active staff user (admin or employee) of this workspace');
  }

  private visible(ctx: RequestContext, id: number): FilterQuery<Grievance> {
    return isCustomer(ctx) ? { id, customer: ctx.userId! } : { id };
  }
}

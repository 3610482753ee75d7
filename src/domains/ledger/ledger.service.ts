import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { rowOf, type Row } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import { resolvePage, type PageRequest, type Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { isCustomer, requireStaff } from '../auth/permissions';
import { UserType } from '../users/user.entity';
import { workspaceToday } from '../workspace/local-day';
import { LEDGER_ENTRY_KINDS, LEDGER_KIND_NAMES, LedgerEntry, LedgerEntryKind } from './ledger-entry.entity';
import { postLedgerEntry, type LedgerPosting } from './ledger-post';
import { ledgerStatement, type Statement } from './ledger-statement';

/** A statement with one page of its rows: the list contract's page and limit over `rowCount` rows. */
export type PagedStatement = Statement & { page: number; limit: number };

/** The query of a statement: whose and which days (both optional but the customer, for staff). */
export interface StatementQuery {
  customerId?: number | null;
  from?: string | null;
  to?: string | null;
}

/** Filters of the entry list. */
export interface LedgerEntryFilter {
  customerId?: number | null;
  kind?: number | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  orderId?: number | null;
  paymentId?: number | null;
}

/** A credit or debit note: a correction of the account with a reason. */
export interface LedgerNoteInput {
  customerId: number;
  /** credit (lowers what the customer owes) or debit (raises it). */
  noteType: string;
  amount: number;
  /** Default: today; never after today. */
  entryDate?: string | null;
  reference?: string | null;
  narration: string;
}

/** The balance a customer brought from before the ledger: positive owes us, negative we owe. */
export interface OpeningBalanceInput {
  customerId: number;
  amount: number;
  asOf: string;
  narration?: string | null;
}

export const NOTE_TYPES = ['credit', 'debit'] as const;

/** The entry list: newest day first unless sorted. */
export const LEDGER_ENTRY_SORT = sortable<keyof LedgerEntry & string>({
  name: 'LedgerEntry',
  fields: { entry_date: 'entryDate', debit: 'debit', credit: 'credit', created_at: 'createdAt', id: 'id' },
  default: '-entry_date,-id',
});
const LEDGER_ENTRY_LIST = entityList({ entity: LedgerEntry, sort: LEDGER_ENTRY_SORT });

/** Kinds a reversal may undo; orders, payments and crate charges follow their own documents (a void, a movement's reversal). */
const REVERSIBLE = [LedgerEntryKind.CREDIT_NOTE, LedgerEntryKind.DEBIT_NOTE, LedgerEntryKind.OPENING_BALANCE];

/**
 * Customers' accounts. Staff and API keys (`ledger` scope) read any customer's; a customer reads
 * only their own. Administrators and API keys post notes, opening balances and reversals;
 * orders and payments are posted by the database as they are delivered and recorded.
 */
export class LedgerService {
  /**
   * 400 naming customerId, from, to, page or limit; a customer's own statement whatever they send
   * (another's: 403). The rows come a page at a time, as every list; the balances, totals and ageing
   * count all of them (the whole statement is the export's).
   */
  async statement(ctx: RequestContext, query: StatementQuery, pageRequest: PageRequest = {}): Promise<PagedStatement> {
    const { page, limit, offset } = resolvePage(pageRequest);
    const customerId = await this.readableCustomer(ctx, query.customerId);
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const to = query.to == null ? today : rules.calendarDate('to', query.to);
    const from = query.from == null ? `${to.slice(0, 8)}01` : rules.calendarDate('from', query.from);
    if (from > to) throw new ValidationError('from', 'must not be after to');
    return { ...(await ledgerStatement(ctx.em, ctx.organizationId, customerId, from, to, { offset, limit })), page, limit };
  }

  async list(ctx: RequestContext, filter: LedgerEntryFilter, pageRequest: PageRequest): Promise<Paginated<Row<LedgerEntry>>> {
    const where: Array<FilterQuery<LedgerEntry>> = [];
    if (isCustomer(ctx)) {
      const own = ctx.userId!;
      if (filter.customerId != null && filter.customerId !== own) throw new ForbiddenError('Customers see only their own account');
      where.push({ customer: own });
    } else if (filter.customerId != null) {
      await checkCustomer(ctx.em, ctx.organizationId, 'customerId', filter.customerId);
      where.push({ customer: filter.customerId });
    }
    if (filter.kind != null) where.push({ kind: rules.oneOf('kind', filter.kind, LEDGER_ENTRY_KINDS) });
    const dateFrom = filter.dateFrom == null ? null : rules.calendarDate('dateFrom', filter.dateFrom);
    const dateTo = filter.dateTo == null ? null : rules.calendarDate('dateTo', filter.dateTo);
    if (dateFrom && dateTo && dateFrom > dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
    if (dateFrom) where.push({ entryDate: { $gte: dateFrom } });
    if (dateTo) where.push({ entryDate: { $lte: dateTo } });
    if (filter.orderId != null) where.push({ order: filter.orderId });
    if (filter.paymentId != null) where.push({ payment: filter.paymentId });
    return readPage(ctx.em, LEDGER_ENTRY_LIST, { $and: where }, pageRequest);
  }

  /** 404 when it is not the workspace's (or, for a customer, not their own). */
  async get(ctx: RequestContext, id: number): Promise<Row<LedgerEntry>> {
    const entry = await ctx.em.findOne(LedgerEntry, isCustomer(ctx) ? { id, customer: ctx.userId! } : { id });
    if (!entry) throw new NotFoundError('Ledger entry', id);
    return rowOf(ctx.em, LedgerEntry, entry);
  }

  /** Administrators and API keys; a credit note lowers the balance, a debit note raises it. */
  async postNote(ctx: RequestContext, input: LedgerNoteInput): Promise<Row<LedgerEntry>> {
    ctx.requireAdminOrKey();
    const noteType = rules.oneOf('noteType', input.noteType, NOTE_TYPES);
    const amount = positiveAmount('amount', input.amount);
    const narration = rules.requiredText('narration', input.narration, 500);
    const reference = rules.optionalText('reference', input.reference, 100) || null;
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const entryDate = input.entryDate == null ? today : notAfter('entryDate', rules.calendarDate('entryDate', input.entryDate), today);
    await checkCustomer(ctx.em, ctx.organizationId, 'customerId', input.customerId);
    const side = noteType === 'credit' ? { kind: LedgerEntryKind.CREDIT_NOTE, credit: amount } : { kind: LedgerEntryKind.DEBIT_NOTE, debit: amount };
    return this.post(ctx, { customer: input.customerId, entryDate, narration, reference, ...side });
  }

  /** Administrators and API keys; once per customer (409 while one stands unreversed). */
  async postOpeningBalance(ctx: RequestContext, input: OpeningBalanceInput): Promise<Row<LedgerEntry>> {
    ctx.requireAdminOrKey();
    const nonZero = 'must be a non-zero number (positive: the customer owes; negative: the customer is in credit)';
    if (!Number.isFinite(input.amount)) throw new ValidationError('amount', nonZero);
    const amount = rules.money('amount', Math.abs(input.amount));
    if (amount === 0) throw new ValidationError('amount', nonZero);
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const asOf = notAfter('asOf', rules.calendarDate('asOf', input.asOf), today);
    const narration = rules.optionalText('narration', input.narration, 500) || 'Opening balance';
    await checkCustomer(ctx.em, ctx.organizationId, 'customerId', input.customerId);
    return ctx.em.transactional(async (tx) => {
      await lockCustomer(tx, ctx.organizationId, input.customerId);
      const t = tenantSql(ctx.organizationId, 'l');
      const [standing] = await executeSql<{ id: number }>(
        tx,
        sql`select l.id from ledger_entry l where ${t.owns()} and l.customer_id = ${input.customerId} and l.kind = ${LedgerEntryKind.OPENING_BALANCE}
             and not exists (select 1 from ledger_entry r where ${t.owns('r')} and r.reverses_id = l.id)`,
      );
      if (standing) throw new ConflictError(`Customer ${input.customerId} already has opening balance entry ${standing.id}: reverse it first`);
      const side = input.amount > 0 ? { debit: amount } : { credit: amount };
      return this.post(ctx, { customer: input.customerId, kind: LedgerEntryKind.OPENING_BALANCE, entryDate: asOf, narration, ...side }, tx);
    });
  }

  /**
   * Administrators and API keys undo a note or an opening balance with a row on the other side,
   * dated today; once (409), never a reversal, and never an order's, a payment's or a crate charge's
   * posting (409: they follow their documents).
   */
  async reverse(ctx: RequestContext, id: number, reason: string): Promise<Row<LedgerEntry>> {
    ctx.requireAdminOrKey();
    const narration = rules.requiredText('reason', reason, 500);
    return ctx.em.transactional(async (tx) => {
      const original = await tx.findOne(LedgerEntry, { id });
      if (!original) throw new NotFoundError('Ledger entry', id);
      if (!REVERSIBLE.includes(original.kind)) {
        throw new ConflictError(`Ledger entry ${id} is a ${LEDGER_KIND_NAMES[original.kind]} posting: it follows its ${original.kind === LedgerEntryKind.REVERSAL ? 'original' : 'document'} and cannot be reversed here`);
      }
      const reversed = await tx.findOne(LedgerEntry, { reverses: id });
      if (reversed) throw new ConflictError(`Ledger entry ${id} is already reversed by entry ${reversed.id}`);
      const entryDate = await workspaceToday(tx, ctx.organizationId);
      return this.post(
        ctx,
        { customer: original.customer.id, kind: LedgerEntryKind.REVERSAL, entryDate, debit: original.credit, credit: original.debit, reverses: id, narration, reference: original.reference },
        tx,
      );
    });
  }

  private async post(ctx: RequestContext, entry: LedgerPosting, em: EntityManager = ctx.em): Promise<Row<LedgerEntry>> {
    return rowOf(ctx.em, LedgerEntry, await postLedgerEntry(em, ctx, entry));
  }

  /** The customer whose account the caller may read: a customer is always themselves. */
  private async readableCustomer(ctx: RequestContext, customerId: number | null | undefined): Promise<number> {
    if (isCustomer(ctx)) {
      const own = ctx.userId!;
      if (customerId != null && customerId !== own) throw new ForbiddenError('Customers see only their own account');
      return own;
    }
    requireStaff(ctx);
    if (customerId == null) throw new ValidationError('customerId', 'is required');
    await checkCustomer(ctx.em, ctx.organizationId, 'customerId', customerId);
    return customerId;
  }
}

function positiveAmount(field: string, value: number): number {
  const amount = rules.money(field, value);
  if (amount === 0) throw new ValidationError(field, 'must be greater than 0');
  return amount;
}

function notAfter(field: string, day: string, today: string): string {
  if (day > today) throw new ValidationError(field, `must not be after today (${today})`);
  return day;
}

/**
 * 400 naming `field` unless `id` is a customer (distributor or retailer) of the workspace; the
 * customer's name, with the store's when it has one (the statement export's title line).
 */
export async function checkCustomer(em: EntityManager, organizationId: number, field: string, id: number): Promise<string> {
  if (!Number.isSafeInteger(id) || id < 1) throw new ValidationError(field, 'must be a positive integer');
  const t = tenantSql(organizationId, 'u');
  const [found] = await executeSql<{ name: string; store_name: string | null }>(
    em,
    sql`select trim(u.first_name || ' ' || u.last_name) as name, u.store_name from app_user u
         where ${t.owns()} and u.id = ${id} and u.user_type in (${UserType.DISTRIBUTOR}, ${UserType.RETAILER})`,
  );
  if (!found) throw new ValidationError(field, 'does not name a customer (distributor or retailer) of this workspace');
  return found.store_name ? `${found.name}, ${found.store_name}` : found.name;
}

/** The customer's row lock: one opening balance at a time (FOR NO KEY UPDATE: references to the user still proceed). */
async function lockCustomer(tx: EntityManager, organizationId: number, id: number): Promise<void> {
  const t = tenantSql(organizationId, 'u');
  await executeSql(tx, sql`select u.id from app_user u where ${t.owns()} and u.id = ${id} for no key update`);
}

import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, ForbiddenError } from '../../errors/app-error';
import { type PageRequest, type Paginated, resolvePage } from '../../lists/page-request';
import { isCustomer } from '../auth/permissions';
import type { PasswordAuthService, PasswordLoginInput } from '../auth/password-auth.service';
import type { SignInResult } from '../auth/sign-in-session';
import type { CrateService } from '../crates/crate.service';
import { outstandingValueOf, type CrateBalanceRead } from '../crates/crate-read';
import { ledgerStatement, type Ageing } from '../ledger/ledger-statement';
import type { LedgerService, PagedStatement } from '../ledger/ledger.service';
import type { CreatedOrder, OrderRead, OrderRowPage } from '../orders/order-read';
import type { OrderLineInput } from '../orders/order-pricing';
import type { OrderFilter, OrderService } from '../orders/order.service';
import { OrderStatus } from '../orders/order.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { schemesOpenTo, type OpenScheme } from '../schemes/scheme-apply';
import { matches } from '../schemes/scheme-engine';
import { User } from '../users/user.entity';
import type { UserProfileRead, UserRead } from '../users/user-read';
import type { OwnContactInput, UserService } from '../users/user.service';
import { workspaceToday } from '../workspace/local-day';
import { insightOf, insightWindow, type Insight, type InsightLine, type InsightVariant } from './portal-insight';

/** The customer portal's order: the caller's own, the rest as POST /orders takes it. */
export interface PortalOrderInput {
  items: OrderLineInput[];
  deliveryDate?: string | null;
  productionUnitId?: number | null;
  modeOfPayment?: string | null;
}

/** A reorder: the new order, and the lines of the old one left out (their variant is no longer sold). */
export interface Reorder extends CreatedOrder {
  sourceOrderId: number;
  skipped: Array<{ productVariantId: number; quantity: number; reason: string }>;
}

/** One sellable variant of the caller's catalogue, at today's price, with the schemes open to the caller that target it. */
export interface PortalProduct {
  productVariantId: number;
  variantName: string;
  itemSkuCode: string;
  productId: number;
  productName: string;
  productClassId: number;
  productClassName: string;
  mrp: number;
  price: number;
  schemeIds: number[];
}

export interface PortalProductPage extends Paginated<PortalProduct> {
  /** Today (the workspace's local day): the day the prices and schemes are of. */
  date: string;
  /** The schemes open to the caller today that target a variant of this page. */
  schemes: OpenScheme[];
}

/** The figures of the portal's dashboard. */
export interface PortalDashboard {
  date: string;
  openOrders: { total: number; amount: number; byStatus: Array<{ status: OrderStatus; count: number; amount: number }> };
  balance: { outstanding: number; ageing: Ageing; oldestBucket: string | null };
  crates: { held: number; outstandingValue: number; oldestAgeDays: number | null; types: number };
  purchases: { thisMonth: number; lastMonth: number; thisMonthOrders: number; lastMonthOrders: number; change: number | null; thisMonthFrom: string; lastMonthFrom: string; lastMonthTo: string };
  schemes: OpenScheme[];
}

/** Statuses of an order still on its way (not delivered, not cancelled). */
const OPEN_STATUSES = [OrderStatus.INITIATED, OrderStatus.FORWARDED, OrderStatus.APPROVED];

const AGEING_BUCKETS: Array<[keyof Ageing, string]> = [
  ['over30Days', 'over 30 days'],
  ['days16To30', '16-30 days'],
  ['days8To15', '8-15 days'],
  ['days0To7', '0-7 days'],
];

/** The oldest ageing bucket that holds money, or null. */
export function oldestBucketOf(ageing: Ageing): string | null {
  return AGEING_BUCKETS.find(([key]) => ageing[key] > 0)?.[1] ?? null;
}

/** `YYYY-MM-01` of the month before `day`'s. */
function previousMonthStart(day: string): string {
  const [y, m] = day.split('-').map(Number);
  const year = m === 1 ? y - 1 : y;
  const month = m === 1 ? 12 : m - 1;
  return `${year}-${String(month).padStart(2, '0')}-01`;
}

/** The day before `day`. */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/**
 * The customer portal: distributors and retailers, signed in with a session, see and do their own
 * business. A thin layer over the order, scheme, ledger and crate services: every rule stays theirs
 * (this file adds only "the caller is a customer" and the portal's compositions).
 */
export class PortalService {
  constructor(
    private readonly passwordAuth: PasswordAuthService,
    private readonly orders: OrderService,
    private readonly ledger: LedgerService,
    private readonly crates: CrateService,
    private readonly users: UserService,
  ) {}

  /** /auth/login's rules (bot-check, lockout, one session), for customers only: a staff account is a 403. */
  login(ctx: RequestContext, input: PasswordLoginInput): Promise<SignInResult> {
    return this.passwordAuth.login(ctx, input, { customersOnly: true });
  }

  /** 403 unless the caller is a customer signed in with a session (API keys and staff are refused). */
  requireCustomer(ctx: RequestContext): number {
    const principal = ctx.requirePrincipal();
    if (principal.kind !== 'session') throw new ForbiddenError('The customer portal takes a session token, not an API key');
    if (!isCustomer(ctx)) throw new ForbiddenError('The customer portal is for distributors and retailers');
    return principal.userId;
  }

  /** The caller's orders (the order list's own rule: a customer sees only theirs). */
  listOrders(ctx: RequestContext, filter: Omit<OrderFilter, 'userId'>, pageRequest: PageRequest): Promise<OrderRowPage> {
    this.requireCustomer(ctx);
    return this.orders.listRows(ctx, filter, pageRequest, { withPlaces: true });
  }

  /** One of the caller's orders; another customer's is not found. */
  getOrder(ctx: RequestContext, id: number): Promise<OrderRead> {
    this.requireCustomer(ctx);
    return this.orders.get(ctx, id);
  }

  /** Places an order for the caller through the order service (its events, webhooks and schemes). */
  placeOrder(ctx: RequestContext, input: PortalOrderInput): Promise<CreatedOrder> {
    const me = this.requireCustomer(ctx);
    return this.orders.create(ctx, { userId: me, ...input, orderDate: undefined });
  }

  /**
   * A new order of the paid lines of one of the caller's orders (free lines are the schemes' to
   * give again), re-priced at today's prices with today's schemes, through the order service.
   * Variants no longer sold are left out and reported; 409 when none is left.
   */
  async reorder(ctx: RequestContext, orderId: number): Promise<Reorder> {
    const me = this.requireCustomer(ctx);
    const source = await this.orders.get(ctx, orderId);
    const paid = source.lines.filter((l) => l.schemeId === null);
    const variants = await ctx.em.find(ProductVariant, { id: { $in: paid.map((l) => l.variant) } }, { populate: ['product'] });
    const sellable = new Set(variants.filter((v) => v.status === ActiveStatus.ACTIVE && v.product.status === ActiveStatus.ACTIVE).map((v) => v.id));
    const items: OrderLineInput[] = [];
    const skipped: Reorder['skipped'] = [];
    for (const line of paid) {
      if (sellable.has(line.variant)) items.push({ productVariantId: line.variant, quantity: line.quantity });
      else skipped.push({ productVariantId: line.variant, quantity: line.quantity, reason: 'the variant is no longer sold' });
    }
    if (items.length === 0) throw new ConflictError(`Nothing of order ${orderId} can be ordered again: none of its variants is sold any more`);
    const placed = await this.orders.create(ctx, { userId: me, items, modeOfPayment: source.order.modeOfPayment });
    return { ...placed, sourceOrderId: orderId, skipped };
  }

  /** The caller's catalogue: active variants of active products at today's prices, and the schemes open to the caller that target them. */
  async products(ctx: RequestContext, pageRequest: PageRequest): Promise<PortalProductPage> {
    const me = this.requireCustomer(ctx);
    const { page, limit, offset } = resolvePage(pageRequest);
    const customer = await ctx.em.findOneOrFail(User, { id: me });
    const date = await workspaceToday(ctx.em, ctx.organizationId);
    const t = tenantSql(ctx.organizationId, 'v');
    const rows = await executeSql<{
      id: number; variant_name: string; item_sku_code: string; product_id: number; product_name: string; product_class_id: number;
      product_class_name: string; mrp: string; sp: string; total: string;
    }>(
      ctx.em,
      sql`select v.id, v.variant_name, v.item_sku_code, p.id as product_id, p.name as product_name, c.id as product_class_id, c.name as product_class_name,
                 v.mrp, v.sp, count(*) over () as total
            from product_variant v ${t.join('product', 'p', 'p.id = v.product_id')} ${t.join('product_class', 'c', 'c.id = p.product_class_id')}
           where ${t.owns()} and v.status = ${ActiveStatus.ACTIVE} and p.status = ${ActiveStatus.ACTIVE}
           order by p.name, v.id limit ${limit} offset ${offset}`,
    );
    const open = await schemesOpenTo(ctx.em, ctx.organizationId, customer, date);
    const items = rows.map((r) => {
      const line = { variantId: r.id, productId: r.product_id, productClassId: r.product_class_id };
      return {
        productVariantId: r.id, variantName: r.variant_name, itemSkuCode: r.item_sku_code, productId: r.product_id, productName: r.product_name,
        productClassId: r.product_class_id, productClassName: r.product_class_name, mrp: Number(r.mrp), price: Number(r.sp),
        schemeIds: open.filter((s) => matches(s, line)).map((s) => s.id),
      };
    });
    const used = new Set(items.flatMap((i) => i.schemeIds));
    const total = rows.length > 0 ? Number(rows[0].total) : await this.countProducts(ctx);
    return { items, total, page, limit, date, schemes: open.filter((s) => used.has(s.id)) };
  }

  private async countProducts(ctx: RequestContext): Promise<number> {
    const t = tenantSql(ctx.organizationId, 'v');
    const [row] = await executeSql<{ n: string }>(
      ctx.em,
      sql`select count(*) as n from product_variant v ${t.join('product', 'p', 'p.id = v.product_id')}
           where ${t.owns()} and v.status = ${ActiveStatus.ACTIVE} and p.status = ${ActiveStatus.ACTIVE}`,
    );
    return Number(row.n);
  }

  /** The ledger's statement function, for the caller. */
  statement(ctx: RequestContext, query: { from?: string | null; to?: string | null }, pageRequest: PageRequest): Promise<PagedStatement> {
    this.requireCustomer(ctx);
    return this.ledger.statement(ctx, { from: query.from, to: query.to }, pageRequest);
  }

  /** The caller's crate balances (the crate service's own, for a customer). */
  crateBalances(ctx: RequestContext, pageRequest: PageRequest, held?: boolean): Promise<Paginated<CrateBalanceRead>> {
    this.requireCustomer(ctx);
    return this.crates.listBalances(ctx, { held: held ?? true }, pageRequest);
  }

  /**
   * Open orders by status, the balance with its ageing (the statement function up to today), crates
   * held with the oldest age, this month's purchases against last month's, and the schemes open to
   * the caller today. Cancelled orders count nowhere.
   */
  async dashboard(ctx: RequestContext): Promise<PortalDashboard> {
    const me = this.requireCustomer(ctx);
    const date = await workspaceToday(ctx.em, ctx.organizationId);
    const thisMonthFrom = `${date.slice(0, 8)}01`;
    const lastMonthFrom = previousMonthStart(date);
    const lastMonthTo = dayBefore(thisMonthFrom);
    const t = tenantSql(ctx.organizationId, 'o');
    // One statement each, in turn (one connection): orders, the caller, the statement, crates, schemes.
    const orders = await executeSql<{ status: number | null; n: string; amount: string | null; this_month: string | null; last_month: string | null; this_n: string; last_n: string }>(
        ctx.em,
        sql`select o.status, count(*) filter (where o.status = any(${`{${OPEN_STATUSES.join(',')}}`}::smallint[])) as n,
                   sum(o.total_amount) filter (where o.status = any(${`{${OPEN_STATUSES.join(',')}}`}::smallint[])) as amount,
                   sum(o.total_amount) filter (where o.order_date >= ${thisMonthFrom}::date and o.order_date <= ${date}::date) as this_month,
                   sum(o.total_amount) filter (where o.order_date >= ${lastMonthFrom}::date and o.order_date <= ${lastMonthTo}::date) as last_month,
                   count(*) filter (where o.order_date >= ${thisMonthFrom}::date and o.order_date <= ${date}::date) as this_n,
                   count(*) filter (where o.order_date >= ${lastMonthFrom}::date and o.order_date <= ${lastMonthTo}::date) as last_n
              from sales_order o
             where ${t.owns()} and o.customer_id = ${me} and o.cancelled_at is null
             group by rollup (o.status)`,
    );
    const customer = await ctx.em.findOneOrFail(User, { id: me });
    const statement = await ledgerStatement(ctx.em, ctx.organizationId, me, date, date, { offset: 0, limit: 1 });
    const crates = await this.crates.listBalances(ctx, { held: true }, { limit: 100 });
    const schemes = await schemesOpenTo(ctx.em, ctx.organizationId, customer, date);
    const totals = orders.find((r) => r.status === null);
    const byStatus = orders
      .filter((r) => r.status !== null && Number(r.n) > 0)
      .map((r) => ({ status: r.status as OrderStatus, count: Number(r.n), amount: Number(r.amount ?? 0) }))
      .sort((a, b) => a.status - b.status);
    const thisMonth = Number(totals?.this_month ?? 0);
    const lastMonth = Number(totals?.last_month ?? 0);
    const held = crates.items.map((c) => c.balance);
    const ages = held.map((b) => b.oldestOutstandingAgeDays).filter((d): d is number => d !== null);
    return {
      date,
      openOrders: { total: Number(totals?.n ?? 0), amount: Number(totals?.amount ?? 0), byStatus },
      balance: { outstanding: statement.closingBalance, ageing: statement.ageing, oldestBucket: oldestBucketOf(statement.ageing) },
      crates: {
        held: held.reduce((sum, b) => sum + b.balance, 0),
        outstandingValue: Math.round(crates.items.reduce((sum, c) => sum + outstandingValueOf(c), 0) * 100) / 100,
        oldestAgeDays: ages.length > 0 ? Math.max(...ages) : null,
        types: held.length,
      },
      purchases: {
        thisMonth, lastMonth, thisMonthOrders: Number(totals?.this_n ?? 0), lastMonthOrders: Number(totals?.last_n ?? 0),
        change: lastMonth === 0 ? null : Math.round(((thisMonth - lastMonth) / lastMonth) * 10_000) / 100,
        thisMonthFrom, lastMonthFrom, lastMonthTo,
      },
      schemes,
    };
  }

  /** The caller's profile (GET /auth/me's). */
  profile(ctx: RequestContext): Promise<UserProfileRead> {
    this.requireCustomer(ctx);
    return this.users.me(ctx);
  }

  /** Changes the caller's contact details (the user service's own rules). */
  updateProfile(ctx: RequestContext, input: OwnContactInput): Promise<UserRead> {
    this.requireCustomer(ctx);
    return this.users.updateOwnContact(ctx, input);
  }

  /** /auth/change-password's rules: the current password, a new session, every other ended. */
  changePassword(ctx: RequestContext, currentPassword: string, newPassword: string): Promise<string> {
    this.requireCustomer(ctx);
    return this.passwordAuth.changePassword(ctx, currentPassword, newPassword);
  }

  /** Deletes the caller's account (the user service's erasure). */
  deleteAccount(ctx: RequestContext): Promise<{ userId: number }> {
    this.requireCustomer(ctx);
    return this.users.deleteOwnAccount(ctx);
  }

  /**
   * The deterministic insight (portal-insight.ts) over the caller's paid order lines of the last 13
   * weeks (orders not cancelled), their variants at today's prices, the statement today and the
   * crates held. Four statements and the variants' read.
   */
  async insight(ctx: RequestContext): Promise<Insight> {
    const me = this.requireCustomer(ctx);
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const { period } = insightWindow(today);
    const t = tenantSql(ctx.organizationId, 'o');
    const rows = await executeSql<{ order_id: number; day: string; variant_id: number; quantity: number }>(
      ctx.em,
      sql`select o.id as order_id, to_char(o.order_date, 'YYYY-MM-DD') as day, i.product_variant_id as variant_id, i.quantity
            from sales_order o ${t.join('order_item', 'i', 'i.order_id = o.id')}
           where ${t.owns()} and o.customer_id = ${me} and o.cancelled_at is null and i.scheme_id is null
             and o.order_date >= ${period.from}::date and o.order_date <= ${today}::date
           order by o.order_date, o.id, i.id`,
    );
    const lines: InsightLine[] = rows.map((r) => ({ orderId: r.order_id, day: r.day, variantId: r.variant_id, quantity: r.quantity }));
    const ids = [...new Set(lines.map((l) => l.variantId))];
    const found = ids.length === 0 ? [] : await ctx.em.find(ProductVariant, { id: { $in: ids } }, { populate: ['product'] });
    const variants = new Map<number, InsightVariant>(
      found.map((v) => [
        v.id,
        { id: v.id, label: `${v.product.name} ${v.variantName}`, price: v.sp, sellable: v.status === ActiveStatus.ACTIVE && v.product.status === ActiveStatus.ACTIVE },
      ]),
    );
    const statement = await ledgerStatement(ctx.em, ctx.organizationId, me, today, today, { offset: 0, limit: 1 });
    const crates = await this.crates.listBalances(ctx, { held: true }, { limit: 100 });
    return insightOf({
      today,
      lines,
      variants,
      balance: { closing: statement.closingBalance, ageing: statement.ageing },
      crates: crates.items.map((c) => ({
        crateTypeId: c.crateType.id, name: c.crateType.name, balance: c.balance.balance, ageDays: c.balance.oldestOutstandingAgeDays, value: outstandingValueOf(c),
      })),
    });
  }
}

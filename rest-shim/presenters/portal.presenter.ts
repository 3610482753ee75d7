import { Type } from '@sinclair/typebox';
import type { Ageing } from '../../src/domains/ledger/ledger-statement';
import type { PortalDashboard, PortalProduct, Reorder } from '../../src/domains/portal/portal.service';
import type { Insight } from '../../src/domains/portal/portal-insight';
import type { OpenScheme } from '../../src/domains/schemes/scheme-apply';
import { DateString, Nullable } from '../schemas';
import { CreatedOrderBody, presentCreatedOrder } from './order.presenter';
import { SlabBody } from './scheme.presenter';


/** A scheme open to the signed-in customer today. */
export const PortalSchemeBody = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  kind: Type.Integer({ description: '1 slab discount, 2 free goods' }),
  target_kind: Type.Integer({ description: '1 variant, 2 product, 3 product class' }),
  target_id: Type.Integer(),
  valid_from: DateString,
  valid_to: Nullable(DateString),
  priority: Type.Integer(),
  stackable: Type.Boolean(),
  slabs: Type.Array(SlabBody),
});

export function presentPortalScheme(s: OpenScheme) {
  return {
    id: s.id, code: s.code, name: s.name, kind: s.kind, target_kind: s.targetKind, target_id: s.targetId, valid_from: s.validFrom,
    valid_to: s.validTo, priority: s.priority, stackable: s.stackable, slabs: s.slabs,
  };
}

export const PortalProductBody = Type.Object({
  product_variant_id: Type.Integer(),
  variant_name: Type.String(),
  item_sku_code: Type.String(),
  product_id: Type.Integer(),
  product_name: Type.String(),
  product_class_id: Type.Integer(),
  product_class_name: Type.String(),
  mrp: Type.Number(),
  price: Type.Number({ description: "Today's selling price" }),
  scheme_ids: Type.Array(Type.Integer(), { description: 'Schemes (of `schemes`) open to you that target this variant' }),
});

export function presentPortalProduct(p: PortalProduct) {
  return {
    product_variant_id: p.productVariantId, variant_name: p.variantName, item_sku_code: p.itemSkuCode, product_id: p.productId, product_name: p.productName,
    product_class_id: p.productClassId, product_class_name: p.productClassName, mrp: p.mrp, price: p.price, scheme_ids: p.schemeIds,
  };
}

export const ReorderBody = Type.Composite([
  CreatedOrderBody,
  Type.Object({
    source_order_id: Type.Integer(),
    skipped: Type.Array(Type.Object({ product_variant_id: Type.Integer(), quantity: Type.Integer(), reason: Type.String() }), {
      description: 'Paid lines of the earlier order left out: their variant is no longer sold',
    }),
  }),
]);

export function presentReorder(r: Reorder) {
  return {
    ...presentCreatedOrder(r),
    source_order_id: r.sourceOrderId,
    skipped: r.skipped.map((s) => ({ product_variant_id: s.productVariantId, quantity: s.quantity, reason: s.reason })),
  };
}

const AgeingBody = Type.Object({
  days_0_7: Type.Number(),
  days_8_15: Type.Number(),
  days_16_30: Type.Number(),
  over_30_days: Type.Number(),
  advance: Type.Number(),
});

const ageingOf = (a: Ageing) => ({ days_0_7: a.days0To7, days_8_15: a.days8To15, days_16_30: a.days16To30, over_30_days: a.over30Days, advance: a.advance });

export const PortalDashboardBody = Type.Object({
  date: DateString,
  open_orders: Type.Object({
    total: Type.Integer(),
    amount: Type.Number(),
    by_status: Type.Array(Type.Object({ order_status: Type.Integer(), count: Type.Integer(), amount: Type.Number() })),
  }, { description: 'Orders neither delivered nor cancelled' }),
  balance: Type.Object({
    outstanding: Type.Number({ description: 'Closing balance today (positive: you owe)' }),
    ageing: AgeingBody,
    oldest_bucket: Nullable(Type.String()),
  }, { description: 'The ledger statement function, today' }),
  crates: Type.Object({ held: Type.Integer(), outstanding_value: Type.Number(), oldest_age_days: Nullable(Type.Integer()), types: Type.Integer() }),
  purchases: Type.Object({
    this_month: Type.Number(),
    last_month: Type.Number(),
    this_month_orders: Type.Integer(),
    last_month_orders: Type.Integer(),
    change_percent: Nullable(Type.Number()),
    this_month_from: DateString,
    last_month_from: DateString,
    last_month_to: DateString,
  }, { description: 'Order totals of orders not cancelled, by order date' }),
  schemes: Type.Array(PortalSchemeBody),
});

export function presentPortalDashboard(d: PortalDashboard) {
  return {
    date: d.date,
    open_orders: { total: d.openOrders.total, amount: d.openOrders.amount, by_status: d.openOrders.byStatus.map((s) => ({ order_status: s.status, count: s.count, amount: s.amount })) },
    balance: { outstanding: d.balance.outstanding, ageing: ageingOf(d.balance.ageing), oldest_bucket: d.balance.oldestBucket },
    crates: { held: d.crates.held, outstanding_value: d.crates.outstandingValue, oldest_age_days: d.crates.oldestAgeDays, types: d.crates.types },
    purchases: {
      this_month: d.purchases.thisMonth, last_month: d.purchases.lastMonth, this_month_orders: d.purchases.thisMonthOrders, last_month_orders: d.purchases.lastMonthOrders,
      change_percent: d.purchases.change, this_month_from: d.purchases.thisMonthFrom, last_month_from: d.purchases.lastMonthFrom, last_month_to: d.purchases.lastMonthTo,
    },
    schemes: d.schemes.map(presentPortalScheme),
  };
}

// days0To7 → days_0_7, as the statement names its ageing buckets.
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/(\d+)/g, '_$1').replace(/^_/, '').replace(/^(days_\d+)_to_/, '$1_');

/** The insight's figures and sources with snake_case keys, as REST names fields (values unchanged). */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), snakeKeys(v)]));
  return value;
}

export function presentInsight(i: Insight) {
  return snakeKeys(i) as Record<string, unknown>;
}

import { Type } from '@sinclair/typebox';
import type { Preview, SchemeRead } from '../../src/domains/schemes/scheme.service';
import { DateString, Nullable, Timestamp } from '../schemas';

export const SCHEME_KIND_TEXT = '1 slab discount (percent, or an amount off each unit), 2 free goods (whole units)';
export const SCHEME_TARGET_TEXT = '1 product variant, 2 product (all its variants), 3 product class';
export const SCHEME_SCOPE_TEXT = '1 all customers, 2 towns, 3 routes, 4 user types (2 distributor, 3 retailer), 5 named customers';
export const SCHEME_STATUS_TEXT = '1 active, 2 disabled';
export const SCHEME_BUDGET_TEXT = '1 amount (discounts, and free goods at their selling price), 2 free units (free goods schemes only)';

/** A slab of a scheme. */
export const SlabBody = Type.Object({
  min_qty: Type.Integer(),
  discount_percent: Nullable(Type.Number()),
  discount_amount: Nullable(Type.Number({ description: 'Off each unit' })),
  free_qty: Nullable(Type.Integer()),
  free_variant_id: Nullable(Type.Integer()),
  recursive: Type.Boolean({ description: 'Free goods for every min_qty reached: floor(quantity / min_qty) × free_qty' }),
});

export const SchemeBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  code: Type.String(),
  kind: Type.Integer({ description: SCHEME_KIND_TEXT }),
  target_kind: Type.Integer({ description: SCHEME_TARGET_TEXT }),
  target_id: Type.Integer(),
  scope: Type.Integer({ description: SCHEME_SCOPE_TEXT }),
  scope_ids: Type.Array(Type.Integer()),
  valid_from: DateString,
  valid_to: Nullable(DateString),
  priority: Type.Integer({ description: 'Higher is evaluated first' }),
  stackable: Type.Boolean(),
  budget_kind: Nullable(Type.Integer({ description: SCHEME_BUDGET_TEXT })),
  budget: Nullable(Type.Number()),
  budget_used: Nullable(Type.Number({ description: 'Sum of the consumption ledger (reversals included), in the budget’s unit' })),
  budget_left: Nullable(Type.Number()),
  status: Type.Integer({ description: SCHEME_STATUS_TEXT }),
  state: Type.String({ description: 'active, scheduled, expired, disabled or spent, on the workspace’s today' }),
  slabs: Type.Array(SlabBody),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export function presentScheme({ scheme: s, budgetUsed, budgetLeft, state }: SchemeRead) {
  return {
    id: s.id,
    name: s.name,
    code: s.code,
    kind: s.kind,
    target_kind: s.targetKind,
    target_id: s.targetId,
    scope: s.scope,
    scope_ids: s.scopeIds,
    valid_from: s.validFrom,
    valid_to: s.validTo,
    priority: s.priority,
    stackable: s.stackable,
    budget_kind: s.budgetKind,
    budget: s.budget,
    budget_used: budgetUsed,
    budget_left: budgetLeft,
    status: s.status,
    state,
    slabs: s.slabs,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export const PreviewBody = Type.Object({
  customer_id: Type.Integer(),
  date: DateString,
  lines: Type.Array(
    Type.Object({
      product_variant_id: Type.Integer(),
      quantity: Type.Integer(),
      unit_price: Type.Number(),
      gross_amount: Type.Number(),
      discount_amount: Type.Number(),
      amount: Type.Number({ description: 'gross_amount − discount_amount: what the order line’s amount will be' }),
      scheme_ids: Type.Array(Type.Integer()),
    }),
  ),
  free_lines: Type.Array(
    Type.Object({ product_variant_id: Type.Integer(), quantity: Type.Integer(), unit_price: Type.Number(), amount: Type.Number(), scheme_id: Type.Integer() }),
  ),
  gross_total: Type.Number(),
  discount_total: Type.Number(),
  total: Type.Number({ description: 'The order total an order of this cart gets' }),
  schemes: Type.Array(
    Type.Object({
      scheme_id: Type.Integer(),
      code: Type.String(),
      name: Type.String(),
      applied: Type.Boolean(),
      reason: Type.String({
        description: 'applied, disabled, not_started, expired, customer_not_eligible, no_matching_lines, blocked_by_other_scheme, below_first_slab, budget_spent, free_variant_unavailable',
      }),
      explanation: Type.String(),
      quantity: Type.Integer({ description: 'The quantity of its target it counted (free lines never count)' }),
      slab: Nullable(SlabBody),
      discount_amount: Type.Number(),
      free_units: Type.Integer(),
      next: Nullable(Type.Object({ add_quantity: Type.Integer(), min_qty: Type.Integer(), message: Type.String() })),
    }),
  ),
});

export function presentPreview(p: Preview) {
  return {
    customer_id: p.customerId,
    date: p.date,
    lines: p.lines.map((l) => ({
      product_variant_id: l.productVariantId, quantity: l.quantity, unit_price: l.unitPrice, gross_amount: l.grossAmount,
      discount_amount: l.discountAmount, amount: l.amount, scheme_ids: l.schemeIds,
    })),
    free_lines: p.freeLines.map((f) => ({ product_variant_id: f.productVariantId, quantity: f.quantity, unit_price: 0, amount: 0, scheme_id: f.schemeId })),
    gross_total: p.grossTotal,
    discount_total: p.discountTotal,
    total: p.total,
    schemes: p.schemes.map((s) => ({
      scheme_id: s.schemeId, code: s.code, name: s.name, applied: s.applied, reason: s.reason, explanation: s.explanation, quantity: s.quantity,
      slab: s.slab && {
        min_qty: s.slab.minQty, discount_percent: s.slab.discountPercent, discount_amount: s.slab.discountAmount,
        free_qty: s.slab.freeQty, free_variant_id: s.slab.freeVariantId, recursive: s.slab.recursive,
      },
      discount_amount: s.discountAmount, free_units: s.freeUnits,
      next: s.next && { add_quantity: s.next.addQuantity, min_qty: s.next.minQty, message: s.next.message },
    })),
  };
}

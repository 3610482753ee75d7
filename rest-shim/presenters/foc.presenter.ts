import { Type } from '@sinclair/typebox';
import type { FocRead } from '../../src/domains/foc/foc-read';
import { FOC_REASON_LABELS, FOC_REASONS, FOC_STATUS_LABELS, FOC_STATUSES } from '../../src/domains/foc/foc.entity';
import { Nullable, Timestamp } from '../schemas';

export const FOC_REASON_TEXT = FOC_REASONS.map((r) => `${r} ${FOC_REASON_LABELS[r]}`).join(', ');
export const FOC_STATUS_TEXT = FOC_STATUSES.map((s) => `${s} ${FOC_STATUS_LABELS[s]}`).join(', ');

/** A FOC request with its lines. */
export const FocBody = Type.Object({
  id: Type.Integer(),
  customer_id: Type.Integer(),
  requested_by_user_id: Nullable(Type.Integer()),
  reason: Type.Integer({ description: FOC_REASON_TEXT }),
  remarks: Type.String(),
  total_cost: Type.Number(),
  status: Type.Integer({ description: FOC_STATUS_TEXT }),
  approval_id: Nullable(Type.Integer()),
  fulfilled_order_id: Nullable(Type.Integer({ description: 'The zero-priced order it became' })),
  fulfilled_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
  created_at: Timestamp,
  items: Type.Array(
    Type.Object({ product_variant_id: Type.Integer(), quantity: Type.Integer(), unit_cost: Type.Number(), amount: Type.Number() }),
  ),
});

/** A FOC request as REST shows it. */
export function presentFoc({ request: r, lines }: FocRead) {
  return {
    id: r.id,
    customer_id: r.customer,
    requested_by_user_id: r.requestedBy,
    reason: r.reason,
    remarks: r.remarks,
    total_cost: r.totalCost,
    status: r.status,
    approval_id: r.approval,
    fulfilled_order_id: r.fulfilledOrder,
    fulfilled_at: r.fulfilledAt,
    cancelled_at: r.cancelledAt,
    created_at: r.createdAt,
    items: lines.map((l) => ({ product_variant_id: l.variant, quantity: l.quantity, unit_cost: l.unitCost, amount: l.amount })),
  };
}

import { Type } from '@sinclair/typebox';
import type { PaymentRead } from '../../src/domains/payments/payment-read';
import { Nullable, Timestamp } from '../schemas';

/** A collection: against an order, or on account (a customer's, no order) with its allocations. */
export const PaymentBody = Type.Object({
  id: Type.Integer(),
  order_id: Nullable(Type.Integer({ description: 'null: an on-account payment' })),
  order_code: Nullable(Type.String()),
  customer_id: Type.Integer({ description: 'Who paid (an order payment: its order’s customer)' }),
  amount: Type.Number({ description: 'Negative on a void' }),
  mode_of_payment: Type.String(),
  paid_at: Timestamp,
  reference: Nullable(Type.String()),
  voids_payment_id: Nullable(Type.Integer({ description: 'On a void: the payment it voids' })),
  void_reason: Nullable(Type.String()),
  allocations: Type.Array(
    Type.Object({ order_id: Type.Integer(), amount: Type.Number({ description: 'Net; negative on a void' }) }),
    { description: 'On account: what it settled against each order, oldest first; empty for an order payment' },
  ),
  unallocated_amount: Type.Number({ description: 'On account: the amount less its allocations (an advance); 0 for an order payment' }),
  created_at: Timestamp,
});

/** A payment with its order's code (if any) and its allocations. */
export function presentPayment({ payment: p, order, allocations, unallocatedAmount }: PaymentRead) {
  return {
    id: p.id,
    order_id: order?.id ?? null,
    order_code: order?.orderCode ?? null,
    customer_id: p.customerId,
    amount: p.amount,
    mode_of_payment: p.modeOfPayment,
    paid_at: p.paidAt,
    reference: p.reference,
    voids_payment_id: p.voidsPaymentId,
    void_reason: p.voidReason,
    allocations: allocations.map((a) => ({ order_id: a.orderId, amount: a.amount })),
    unallocated_amount: unallocatedAmount,
    created_at: p.createdAt,
  };
}

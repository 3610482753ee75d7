import { Type } from '@sinclair/typebox';
import type { PaymentRead } from '../../src/domains/payments/payment-read';
import { Nullable, Timestamp } from '../schemas';

/** A collection against an order. */
export const PaymentBody = Type.Object({
  id: Type.Integer(),
  order_id: Type.Integer(),
  order_code: Type.String(),
  amount: Type.Number({ description: 'Negative on a void' }),
  mode_of_payment: Type.String(),
  paid_at: Timestamp,
  reference: Nullable(Type.String()),
  voids_payment_id: Nullable(Type.Integer({ description: 'On a void: the payment it voids' })),
  void_reason: Nullable(Type.String()),
  created_at: Timestamp,
});

/** A payment with its order's code. */
export function presentPayment({ payment: p, order }: PaymentRead) {
  return {
    id: p.id,
    order_id: order.id,
    order_code: order.orderCode,
    amount: p.amount,
    mode_of_payment: p.modeOfPayment,
    paid_at: p.paidAt,
    reference: p.reference,
    voids_payment_id: p.voidsPaymentId,
    void_reason: p.voidReason,
    created_at: p.createdAt,
  };
}

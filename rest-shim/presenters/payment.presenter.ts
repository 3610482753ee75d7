import { Type } from '@sinclair/typebox';
import type { Payment } from '../../src/domains/payments/payment.entity';
import { Nullable, Timestamp } from '../schemas';

/** A collection against an order. */
export const PaymentBody = Type.Object({
  id: Type.Integer(),
  order_id: Type.Integer(),
  order_code: Type.String(),
  amount: Type.Number(),
  mode_of_payment: Type.String(),
  paid_at: Timestamp,
  reference: Nullable(Type.String()),
  created_at: Timestamp,
});

/** Needs the order loaded. */
export function presentPayment(p: Payment) {
  return {
    id: p.id,
    order_id: p.order.id,
    order_code: p.order.orderCode,
    amount: p.amount,
    mode_of_payment: p.modeOfPayment,
    paid_at: p.paidAt,
    reference: p.reference,
    created_at: p.createdAt,
  };
}

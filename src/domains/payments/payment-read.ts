import type { Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import type { Order } from '../orders/order.entity';
import type { Payment } from './payment.entity';

/** A payment as REST and GraphQL show it: its row and the row of the order it was collected against. */
export interface PaymentRead {
  payment: Row<Payment>;
  order: Row<Order>;
}

/** The payment's row, for GraphQL; its order's goes to the loaders (the `order` field answers from it). */
export function paymentRowOf(read: PaymentRead, loaders: Loaders): Row<Payment> {
  loaders.order.prime([read.order]);
  return read.payment;
}

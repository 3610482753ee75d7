import type { Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import type { Order } from '../orders/order.entity';
import type { Payment } from './payment.entity';

/** An on-account payment's net share settled against one order (a void's: negative). */
export interface AllocationShare {
  orderId: number;
  amount: number;
}

/**
 * A payment as REST and GraphQL show it: its row, the row of the order it was collected against
 * (null: on account), what it settled against orders (on account) and what it left unallocated.
 */
export interface PaymentRead {
  payment: Row<Payment>;
  order: Row<Order> | null;
  /** Net per order, in the order first allocated; empty for an order payment. */
  allocations: AllocationShare[];
  /** On account: the amount less its allocations (an advance); an order payment: 0. */
  unallocatedAmount: number;
}

/** The payment's row, as GraphQL's Payment resolves it: with its allocations and unallocated amount. */
export type PaymentRow = Row<Payment> & { allocations?: AllocationShare[]; unallocatedAmount?: number };

/** The payment's row, for GraphQL; its order's goes to the loaders (the `order` field answers from it). */
export function paymentRowOf(read: PaymentRead, loaders: Loaders): PaymentRow {
  if (read.order) loaders.order.prime([read.order]);
  return { ...read.payment, allocations: read.allocations, unallocatedAmount: read.unallocatedAmount };
}

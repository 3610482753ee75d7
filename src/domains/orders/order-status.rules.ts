import { ConflictError, ValidationError } from '../../errors/app-error';
import { OrderStatus } from './order.entity';

/** Display names of the order statuses. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  [OrderStatus.INITIATED]: 'Initiated',
  [OrderStatus.FORWARDED]: 'Forwarded',
  [OrderStatus.APPROVED]: 'Approved',
  [OrderStatus.DELIVERED]: 'Delivered',
};

/** Statuses a status update may ask for. */
export const REQUESTABLE_STATUSES = [OrderStatus.FORWARDED, OrderStatus.APPROVED, OrderStatus.DELIVERED];

const label = (s: OrderStatus) => `${ORDER_STATUS_LABELS[s]} (${s})`;

/**
 * The flow allows only the next step: 1 → 2 → 3 → 4. A value outside 2–4 is a 400;
 * skipping, going back or repeating is a 409 that names the allowed next status.
 */
export function assertTransition(orderCode: string, from: OrderStatus, to: number): OrderStatus {
  if (!REQUESTABLE_STATUSES.includes(to)) {
    throw new ValidationError('orderStatus', 'must be 2 (Forwarded), 3 (Approved) or 4 (Delivered)');
  }
  if (from === OrderStatus.DELIVERED) {
    throw new ConflictError(`Order ${orderCode} is already ${label(from)}; its status can no longer change`);
  }
  const next = (from + 1) as OrderStatus;
  if (to !== next) {
    throw new ConflictError(`Order ${orderCode} is ${label(from)}; the only allowed next status is ${label(next)}`);
  }
  return next;
}

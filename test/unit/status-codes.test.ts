import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, OrderStatus } from '../../src/domains/orders/order.entity';
import { ORDER_STATUS_LABELS, REQUESTABLE_STATUSES } from '../../src/domains/orders/order-status.rules';
import { ACTIVE_STATUSES, ActiveStatus } from '../../src/db/active-status';

/** The status codes every check, statement and schema takes from their one definition are the interface's wire values. */
describe('status codes', () => {
  it('order_status: 1 Initiated, 2 Forwarded, 3 Approved, 4 Delivered; an update asks for 2 to 4', () => {
    expect(ORDER_STATUSES).toEqual([1, 2, 3, 4]);
    expect(ORDER_STATUSES.map((s) => ORDER_STATUS_LABELS[s])).toEqual(['Initiated', 'Forwarded', 'Approved', 'Delivered']);
    expect(REQUESTABLE_STATUSES).toEqual([OrderStatus.FORWARDED, OrderStatus.APPROVED, OrderStatus.DELIVERED]);
    expect(REQUESTABLE_STATUSES).toEqual([2, 3, 4]);
  });

  it('status of users, products and master records: 0 inactive, 1 active', () => {
    expect(ACTIVE_STATUSES).toEqual([0, 1]);
    expect([ActiveStatus.INACTIVE, ActiveStatus.ACTIVE]).toEqual([0, 1]);
  });
});

import type { FocRequest } from './foc.entity';

/**
 * Webhook events of FOC requests, each emitted in the transaction of the change: approved (at
 * once under the policy's first threshold, or on the final approval), rejected, fulfilled (with the
 * zero-priced order), cancelled.
 */
export const FOC_EVENTS = ['foc_request.approved', 'foc_request.rejected', 'foc_request.fulfilled', 'foc_request.cancelled'] as const;
export type FocEvent = (typeof FOC_EVENTS)[number];

/** `data` of the FOC events: the request as REST shows it, by ids. */
export function focRequestData(request: FocRequest) {
  return {
    id: request.id,
    customer_id: request.customer.id,
    requested_by_user_id: request.requestedBy?.id ?? null,
    reason: request.reason,
    total_cost: request.totalCost,
    status: request.status,
    approval_id: request.approval?.id ?? null,
    fulfilled_order_id: request.fulfilledOrder?.id ?? null,
    fulfilled_at: request.fulfilledAt?.toISOString() ?? null,
    cancelled_at: request.cancelledAt?.toISOString() ?? null,
    created_at: request.createdAt.toISOString(),
  };
}

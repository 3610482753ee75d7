import type { Order } from '../orders/order.entity';
import type { User } from '../users/user.entity';

/** `data` of order.created (exactly the interface's fields); needs the customer and production unit loaded. */
export function orderCreatedData(order: Order) {
  return {
    id: order.id,
    order_code: order.orderCode,
    order_status: order.status,
    user_id: order.customer.id,
    user_name: `${order.customer.firstName} ${order.customer.lastName}`,
    order_total_amount: order.totalAmount,
    order_items_count: order.itemsCount,
    order_date: order.orderDate,
    production_unit_id: order.productionUnit?.id ?? null,
    mode_of_payment: order.modeOfPayment,
    created_at: order.createdAt.toISOString(),
  };
}

/** `data` of order.delivered: the order.created fields with the new status and when it was delivered. */
export function orderDeliveredData(order: Order, deliveredAt: Date) {
  return { ...orderCreatedData(order), delivered_at: deliveredAt.toISOString() };
}

/** `data` of order.cancelled: the order.created fields with when, why and by whom it was cancelled. */
export function orderCancelledData(order: Order) {
  return {
    ...orderCreatedData(order),
    cancelled_at: order.cancelledAt?.toISOString() ?? null,
    cancel_reason: order.cancelReason,
    cancelled_by_user_id: order.cancelledBy?.id ?? null,
    cancelled_by_api_key_id: order.cancelledByApiKeyId,
  };
}

/** `data` of user.created (no secrets). */
export function userCreatedData(user: User) {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    official_email: user.officialEmail,
    primary_contact_number: user.primaryContactNumber,
    user_type: user.userType,
    role_id: user.role.id,
    status: user.status,
    created_at: user.createdAt.toISOString(),
  };
}

/**
 * `data` of user.updated (an edit or a status change): the user.created fields as they now stand,
 * `updated_at`, and `changed_fields`, the snake_case names of the fields the change set.
 */
export function userUpdatedData(user: User, changedFields: string[]) {
  return { ...userCreatedData(user), updated_at: user.updatedAt.toISOString(), changed_fields: changedFields };
}

import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import { OrderStatus, type Order } from '../../src/domains/orders/order.entity';
import { summaryReadsOf, type CreatedOrder, type OrderRead, type OrderRowPage, type OrderSummaryRead } from '../../src/domains/orders/order-read';
import { paginated } from '../envelope';
import { DateString, Nullable, Timestamp } from '../schemas';

/** An order as lists show it. */
export const OrderBody = Type.Object({
  id: Type.Integer(),
  order_code: Type.String(),
  order_status: Type.Integer({ description: '1 Initiated, 2 Forwarded, 3 Approved, 4 Delivered' }),
  order_date: DateString,
  user_id: Type.Integer(),
  user_name: Type.String(),
  user_type: Type.Integer(),
  town_name: Nullable(Type.String()),
  route_name: Nullable(Type.String()),
  order_total_amount: Type.Number(),
  order_items_count: Type.Integer(),
  production_unit_id: Nullable(Type.Integer()),
  production_unit_name: Nullable(Type.String()),
  delivery_date: Nullable(DateString),
  cancelled_at: Nullable(Timestamp),
  cancel_reason: Nullable(Type.String()),
  cancelled_by_user_id: Nullable(Type.Integer()),
  cancelled_by_api_key_id: Nullable(Type.Integer()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** The answer to POST /orders; delivery_otp appears only here. */
export const CreatedOrderBody = Type.Object({
  id: Type.Integer(),
  order_code: Type.String(),
  order_status: Type.Integer(),
  order_date: DateString,
  user_id: Type.Integer(),
  user_name: Type.String(),
  order_total_amount: Type.Number(),
  order_items_count: Type.Integer(),
  delivery_date: Nullable(DateString),
  delivery_otp: Type.String({ description: 'Six digits; shown once, stored only as a keyed hash' }),
  createdAt: Timestamp,
});

const OrderItemBody = Type.Object({
  id: Type.Integer(),
  product_variant_id: Type.Integer(),
  variant_name: Type.String(),
  item_sku_code: Type.String(),
  product_id: Type.Integer(),
  product_name: Type.String(),
  quantity: Type.Integer(),
  unit_price: Type.Number(),
  amount: Type.Number({ description: 'quantity × unit_price − discount_amount' }),
  discount_amount: Type.Number({ description: 'What schemes took off this line' }),
  scheme_id: Nullable(Type.Integer({ description: 'On a free line (unit_price 0): the scheme that gave it' })),
});

/** A single order with items, customer and delivery details, and its status history. */
export const OrderDetailBody = Type.Composite([
  OrderBody,
  Type.Object({
    mode_of_payment: Nullable(Type.String()),
    items: Type.Array(OrderItemBody),
    user: Type.Object({
      id: Type.Integer(),
      first_name: Type.String(),
      last_name: Type.String(),
      store_name: Nullable(Type.String()),
      primary_contact_number: Type.String(),
      official_email: Nullable(Type.String()),
      user_type: Type.Integer(),
      town_name: Nullable(Type.String()),
      route_name: Nullable(Type.String()),
    }),
    delivery: Type.Object({
      delivery_date: Nullable(DateString),
      delivered_at: Nullable(Timestamp),
      production_unit_id: Nullable(Type.Integer()),
      production_unit_name: Nullable(Type.String()),
      town_name: Nullable(Type.String()),
      route_name: Nullable(Type.String()),
    }),
    status_history: Type.Array(
      Type.Object({
        from_status: Nullable(Type.Integer()),
        to_status: Type.Integer(),
        cancellation: Type.Boolean({ description: 'True for the entry of the cancel (from_status = to_status)' }),
        changed_at: Timestamp,
        changed_by_user_id: Nullable(Type.Integer()),
        changed_by_api_key_id: Nullable(Type.Integer()),
      }),
    ),
  }),
]);

/** The answer to POST /orders/{id}/cancel. */
export const CancelledOrderBody = Type.Object({
  id: Type.Integer(),
  order_status: Type.Integer({ description: 'Unchanged by the cancel' }),
  cancelled_at: Timestamp,
  cancel_reason: Type.String(),
  cancelled_by_user_id: Nullable(Type.Integer()),
  cancelled_by_api_key_id: Nullable(Type.Integer()),
  updatedAt: Timestamp,
});

/** The answer to PATCH /orders/{id}/status. */
export const OrderStatusBody = Type.Object({
  id: Type.Integer(),
  order_status: Type.Integer(),
  updatedAt: Timestamp,
});

/** An order as the list shows it. */
export function presentOrder({ order: o, customer: c, town, route, productionUnit: unit }: OrderSummaryRead) {
  return {
    id: o.id,
    order_code: o.orderCode,
    order_status: o.status,
    order_date: o.orderDate,
    user_id: c.id,
    user_name: `${c.firstName} ${c.lastName}`,
    user_type: c.userType,
    town_name: town?.name ?? null,
    route_name: route?.name ?? null,
    order_total_amount: o.totalAmount,
    order_items_count: o.itemsCount,
    production_unit_id: unit?.id ?? null,
    production_unit_name: unit?.name ?? null,
    delivery_date: o.deliveryDate,
    ...cancelFields(o),
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

/** When, why and by whom an order was cancelled (nulls while it is not). */
function cancelFields(o: Row<Order>) {
  return {
    cancelled_at: o.cancelledAt,
    cancel_reason: o.cancelReason,
    cancelled_by_user_id: o.cancelledBy,
    cancelled_by_api_key_id: o.cancelledByApiKeyId,
  };
}

/** A page of the order list, in its envelope. */
export function presentOrderPage(page: OrderRowPage) {
  return paginated({ ...page, items: summaryReadsOf(page) }, presentOrder);
}

/** The answer to POST /orders. */
export function presentCreatedOrder({ order, customer, deliveryOtp }: CreatedOrder) {
  return {
    id: order.id,
    order_code: order.orderCode,
    order_status: order.status,
    order_date: order.orderDate,
    user_id: customer.id,
    user_name: `${customer.firstName} ${customer.lastName}`,
    order_total_amount: order.totalAmount,
    order_items_count: order.itemsCount,
    delivery_date: order.deliveryDate,
    delivery_otp: deliveryOtp,
    createdAt: order.createdAt,
  };
}

/** A single order with its lines, customer, delivery details and status history. */
export function presentOrderDetail(read: OrderRead) {
  const { order, customer: c, history } = read;
  const variants = new Map(read.variants.map((v) => [v.id, v]));
  const products = new Map(read.products.map((p) => [p.id, p]));
  const delivered = history.find((h) => h.toStatus === OrderStatus.DELIVERED);
  return {
    ...presentOrder(read),
    mode_of_payment: order.modeOfPayment,
    items: read.lines.map((i) => {
      const variant = variants.get(i.variant)!;
      const product = products.get(variant.product)!;
      return {
        id: i.id,
        product_variant_id: variant.id,
        variant_name: variant.variantName,
        item_sku_code: variant.itemSkuCode,
        product_id: product.id,
        product_name: product.name,
        quantity: i.quantity,
        unit_price: i.unitPrice,
        discount_amount: i.discountAmount,
        scheme_id: i.schemeId,
        amount: i.amount,
      };
    }),
    user: {
      id: c.id,
      first_name: c.firstName,
      last_name: c.lastName,
      store_name: c.storeName,
      primary_contact_number: c.primaryContactNumber,
      official_email: c.officialEmail,
      user_type: c.userType,
      town_name: read.customerTown?.name ?? null,
      route_name: read.customerRoute?.name ?? null,
    },
    delivery: {
      delivery_date: order.deliveryDate,
      delivered_at: delivered?.changedAt ?? null,
      production_unit_id: read.productionUnit?.id ?? null,
      production_unit_name: read.productionUnit?.name ?? null,
      town_name: read.town?.name ?? null,
      route_name: read.route?.name ?? null,
    },
    status_history: history.map((h) => ({
      from_status: h.fromStatus,
      to_status: h.toStatus,
      cancellation: h.cancellation,
      changed_at: h.changedAt,
      changed_by_user_id: h.changedBy,
      changed_by_api_key_id: h.changedByApiKeyId,
    })),
  };
}

/** The answer to POST /orders/{id}/cancel. */
export function presentCancelledOrder(o: Row<Order>) {
  return { id: o.id, order_status: o.status, ...cancelFields(o), updatedAt: o.updatedAt };
}

/** The answer to PATCH /orders/{id}/status. */
export function presentOrderStatus(o: Row<Order>) {
  return { id: o.id, order_status: o.status, updatedAt: o.updatedAt };
}

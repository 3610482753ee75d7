import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ValidationError } from '../../src/errors/app-error';
import { PAYMENT_MODES } from '../../src/domains/orders/order.service';
import { changed, created, ok } from '../envelope';
import { exportRoute } from '../export-route';
import { ordersExport } from '../../src/domains/orders/orders.export';
import { salesExport } from '../../src/domains/orders/sales.export';
import {
  CancelledOrderBody,
  CreatedOrderBody,
  OrderBody,
  OrderDetailBody,
  OrderStatusBody,
  presentCancelledOrder,
  presentCreatedOrder,
  presentOrderDetail,
  presentOrderPage,
  presentOrderStatus,
} from '../presenters/order.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, OrderStatusFilter, pageRequestOf } from '../schemas';
import { ORDER_SORT } from '../../src/domains/orders/order-statements';
import { REQUESTABLE_STATUSES } from '../../src/domains/orders/order-status.rules';

const OrderListQuery = listQuery(
  {
    status: OrderStatusFilter,
    date_from: Type.Optional(DateString),
    date_to: Type.Optional(DateString),
    user_id: Type.Optional(Type.Integer({ minimum: 1 })),
    production_unit_id: Type.Optional(Type.Integer({ minimum: 1, description: 'A production unit of the workspace (400 otherwise)' })),
    town_id: Type.Optional(Type.Integer({ minimum: 1, description: "The order's town, a town of the workspace (400 otherwise)" })),
    route_id: Type.Optional(Type.Integer({ minimum: 1, description: "The order's route, a route of the workspace (400 otherwise)" })),
    cancelled: Type.Optional(Type.String({ enum: ['true', 'false'], description: 'true: only cancelled orders; false: only orders not cancelled; default both' })),
  },
  { sort: ORDER_SORT, search: 'Matches the order code or the customer name' },
);

const OrderLines = Type.Array(
  Type.Object({ product_variant_id: Type.Integer({ minimum: 1 }), quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }),
  { minItems: 1, maxItems: 200 },
);

const CreateOrderBody = Type.Object({
  user_id: Type.Integer({ minimum: 1, description: 'The customer: a distributor or retailer' }),
  items: OrderLines,
  order_date: Type.Optional(DateString),
  delivery_date: Type.Optional(Nullable(DateString)),
  production_unit_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'Extension' }))),
  // One enum rather than a union of literals, so a bad value is told every accepted mode, not just the first.
  mode_of_payment: Type.Optional(Nullable(Type.String({ enum: [...PAYMENT_MODES], description: 'Extension' }))),
});

const CancelBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why the order is cancelled' }) });
const ReplaceItemsBody = Type.Object({ items: OrderLines });

/** Order lines of a body as the service takes them. */
const linesOf = (items: Array<{ product_variant_id: number; quantity: number }>) =>
  items.map((i) => ({ productVariantId: i.product_variant_id, quantity: i.quantity }));

const NextStatus = { enum: REQUESTABLE_STATUSES };
const StatusBody = Type.Object({
  order_status: Type.Optional(Type.Integer({ ...NextStatus, description: 'Only the next status: 1→2→3→4. Required unless the deprecated `status` is sent' })),
  status: Type.Optional(Type.Integer({ ...NextStatus, deprecated: true, description: 'Deprecated alias of order_status (the interface guide sends it); answered with a Deprecation header' })),
});

/**
 * `Deprecation` (RFC 9745: the date from which `status` is deprecated, as a structured-field date)
 * and a `Link` to the API reference, on answers to a body that used the alias.
 */
const STATUS_ALIAS_DEPRECATION = { deprecation: `@${Date.UTC(2026, 10, 26) / 1000}`, link: '</docs>; rel="deprecation"; type="text/html"' };

/** The status a PATCH /orders/{id}/status body asks for: `order_status`, or its alias `status` (both only if equal). */
function requestedStatus(body: { order_status?: number; status?: number }): { status: number; viaAlias: boolean } {
  const { order_status: named, status: alias } = body;
  if (named !== undefined && alias !== undefined && named !== alias) {
    throw new ValidationError('status', 'is a deprecated alias of order_status and must not differ from it; send order_status alone');
  }
  if (named !== undefined) return { status: named, viaAlias: alias !== undefined };
  if (alias !== undefined) return { status: alias, viaAlias: true };
  throw new ValidationError('order_status', 'is required');
}

/** GET/POST /orders, GET /orders/{id}, PATCH /orders/{id}/status, POST /orders/{id}/cancel, PUT /orders/{id}/items. */
export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orders',
    { schema: { tags: ['Orders'], summary: 'List orders', querystring: OrderListQuery, response: listResponse(OrderBody) } },
    async (request) => {
      const q = request.query;
      const page = await app.services.orders.listRows(
        request.ctx,
        {
          status: q.status,
          dateFrom: q.date_from,
          dateTo: q.date_to,
          userId: q.user_id,
          search: q.search,
          productionUnitId: q.production_unit_id,
          townId: q.town_id,
          routeId: q.route_id,
          cancelled: q.cancelled === undefined ? undefined : q.cancelled === 'true',
        },
        pageRequestOf(q),
        { withPlaces: true },
      );
      return presentOrderPage(page);
    },
  );

  app.post(
    '/orders',
    { schema: { tags: ['Orders'], summary: 'Place an order', body: CreateOrderBody, response: createdResponse(CreatedOrderBody) } },
    async (request, reply) => {
      const b = request.body;
      const placed = await app.services.orders.create(request.ctx, {
        userId: b.user_id,
        items: linesOf(b.items),
        orderDate: b.order_date,
        deliveryDate: b.delivery_date,
        productionUnitId: b.production_unit_id,
        modeOfPayment: b.mode_of_payment,
      });
      return reply.code(201).send(created('Order created', presentCreatedOrder(placed)));
    },
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags: ['Orders'],
        summary: 'One order with items, customer, delivery details and status history',
        params: IdParams,
        response: okResponse(OrderDetailBody),
      },
    },
    async (request) => ok(presentOrderDetail(await app.services.orders.get(request.ctx, request.params.id))),
  );

  app.patch(
    '/orders/:id/status',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Move an order to its next status',
        params: IdParams,
        body: StatusBody,
        response: changedResponse(OrderStatusBody),
      },
    },
    async (request, reply) => {
      const { status, viaAlias } = requestedStatus(request.body);
      if (viaAlias) reply.header('deprecation', STATUS_ALIAS_DEPRECATION.deprecation).header('link', STATUS_ALIAS_DEPRECATION.link);
      const order = await app.services.orders.changeStatus(request.ctx, request.params.id, status);
      return changed('Order status updated', presentOrderStatus(order));
    },
  );

  app.post(
    '/orders/:id/cancel',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Cancel an order not yet delivered (staff and API keys); it keeps its status and leaves the dashboard figures',
        params: IdParams,
        body: CancelBody,
        response: changedResponse(CancelledOrderBody),
      },
    },
    async (request) => changed('Order cancelled', presentCancelledOrder(await app.services.orders.cancel(request.ctx, request.params.id, request.body.reason))),
  );

  app.put(
    '/orders/:id/items',
    {
      schema: {
        tags: ['Orders'],
        summary: "Replace an Initiated order's lines, re-priced at today's prices",
        params: IdParams,
        body: ReplaceItemsBody,
        response: changedResponse(OrderDetailBody),
      },
    },
    async (request) => changed('Order items replaced', presentOrderDetail(await app.services.orders.replaceItems(request.ctx, request.params.id, linesOf(request.body.items)))),
  );

  exportRoute(app, {
    source: ordersExport,
    summary: 'Orders as XLSX or PDF (administrators and API keys)',
    query: {
      status: OrderStatusFilter,
      date_from: Type.Optional(DateString),
      date_to: Type.Optional(DateString),
      production_unit_id: Type.Optional(Type.Integer({ minimum: 1 })),
    },
    filters: (q) => ({ orderStatus: q.status, dateFrom: q.date_from, dateTo: q.date_to, productionUnitId: q.production_unit_id }),
  });

  exportRoute(app, {
    source: salesExport,
    summary: 'Sales, one row per order line, as XLSX or PDF (administrators and API keys)',
    query: { date_from: Type.Optional(DateString), date_to: Type.Optional(DateString) },
    filters: (q) => ({ dateFrom: q.date_from, dateTo: q.date_to }),
  });
};

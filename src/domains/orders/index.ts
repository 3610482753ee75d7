import DataLoader from 'dataloader';
import type { Row } from '../../db/entity-rows';
import { byId, childrenOf, grouped, type RowLoader } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { OrderItem } from './order-item.entity';
import { OrderStatusHistory } from './order-status-history.entity';
import { Order } from './order.entity';
import { OrderItemResolver, OrderResolver } from './order.resolver';
import { OrderService } from './order.service';
import { ordersExport } from './orders.export';
import { salesExport } from './sales.export';

declare module '../domain-module' {
  interface Services {
    orders: OrderService;
  }
  interface Loaders {
    order: RowLoader<Row<Order>>;
    orderItems: DataLoader<number, Array<Row<OrderItem>>>;
    statusHistory: DataLoader<number, Array<Row<OrderStatusHistory>>>;
  }
}

/** Customers' orders: placing them, their status flow and their history. */
export const ordersDomain = defineDomain({
  name: 'orders',
  entities: [Order, OrderItem, OrderStatusHistory],
  services: ({ secrets, services }) => ({ orders: new OrderService(secrets.hashKey, services.webhookEvents) }),
  resolvers: [OrderResolver, OrderItemResolver],
  loaders: ({ ctx, services, columns, loaders }) => ({
    order: byId(ctx.em, Order, columns),
    // With their variants and products, in one statement: lines are almost always shown with them.
    orderItems: new DataLoader(async (orderIds: readonly number[]) => {
      const { lines, variants, products } = await services.orders.linesOf(ctx, orderIds, columns());
      loaders.variant.prime(variants);
      loaders.product.prime(products);
      return grouped(orderIds, lines, 'order');
    }),
    statusHistory: childrenOf(ctx.em, OrderStatusHistory, 'order', columns),
  }),
  exports: [ordersExport, salesExport],
  routeGroups: { orders: 'scoped' },
  webhookEvents: ['order.created', 'order.delivered', 'order.cancelled'],
});

import DataLoader from 'dataloader';
import type { EntityRecord } from '../../db/entity-records';
import { childrenOf, grouped } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { OrderItem } from './order-item.entity';
import { OrderStatusHistory } from './order-status-history.entity';
import { Order } from './order.entity';
import { OrderItemResolver, OrderResolver } from './order.resolver';
import { OrderService } from './order.service';

declare module '../domain-module' {
  interface Services {
    orders: OrderService;
  }
  interface Loaders {
    orderItems: DataLoader<number, Array<EntityRecord<OrderItem>>>;
    statusHistory: DataLoader<number, Array<EntityRecord<OrderStatusHistory>>>;
  }
}

/** Customers' orders: placing them, their status flow and their history. */
export const ordersDomain = defineDomain({
  name: 'orders',
  entities: [Order, OrderItem, OrderStatusHistory],
  services: ({ secrets, services }) => ({ orders: new OrderService(secrets.hashKey, services.webhookEvents) }),
  resolvers: [OrderResolver, OrderItemResolver],
  loaders: ({ ctx, services, selection }) => ({
    // With their variants and products, in one statement: lines are almost always shown with them.
    orderItems: new DataLoader(async (orderIds: readonly number[]) => grouped(orderIds, await services.orders.linesOf(ctx, orderIds, selection()), 'order')),
    statusHistory: childrenOf(ctx.em, OrderStatusHistory, 'order', selection),
  }),
  routeGroups: { orders: 'scoped' },
  webhookEvents: ['order.created', 'order.delivered'],
});

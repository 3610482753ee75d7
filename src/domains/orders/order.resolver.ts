import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import type { Row } from '../../db/entity-rows';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { ProductionUnit } from '../masters/production-unit.entity';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { User } from '../users/user.entity';
import { OrderItem } from './order-item.entity';
import { OrderStatusHistory } from './order-status-history.entity';
import { Order, OrderStatus } from './order.entity';
import { CreateOrderInput, CreateOrderPayload, OrderLineInput, OrderListArgs } from './order.types';
import { createdOrderRowOf, orderPageRowsOf, orderRowOf } from './order-priming';
import { ASSUMED_LENGTH, COST, listCost, pageCost } from '../../graphql/costs';

const OrderPage = PageOf(Order, 'Order');
/** The fields of Order that the page's statement reads places for. */
const PLACE_FIELDS = ['town', 'route', 'productionUnit'];

// Authorized per operation, not per class: a class's `@Authorized()` would also guard each of its
// field resolvers, which serve this type wherever it appears (another type's relation included).
@Resolver(() => Order)
export class OrderResolver {
  @Authorized()
  @InGroup('orders')
  @Query(() => OrderPage, { complexity: pageCost(), description: 'Orders, newest first; customers see only their own.' })
  async orders(
    @Args(() => OrderListArgs) args: OrderListArgs,
    @Ctx() { ctx, services, loaders, operation: { fields, columns } }: GraphqlContext,
  ): Promise<Page<Row<Order>>> {
    const { page, limit, sort, ...filter } = args;
    // Customers, and lines and places when asked for, come with the page's statement; the loaders hand them to the nested fields.
    const selected = fields?.get('Order');
    const withLines = selected?.has('items') ?? false;
    const withPlaces = PLACE_FIELDS.some((field) => selected?.has(field));
    const found = await services.orders.listRows(ctx, filter, { page, limit, sort }, { columns, withLines, withPlaces });
    return toPage({ ...found, items: orderPageRowsOf(found, loaders) });
  }

  @Authorized()
  @InGroup('orders')
  @Query(() => Order, { complexity: COST.record })
  async order(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders, operation: { columns } }: GraphqlContext): Promise<Row<Order>> {
    return orderRowOf(await services.orders.get(ctx, id, columns), loaders);
  }

  @Authorized()
  @InGroup('orders')
  @Mutation(() => CreateOrderPayload, { complexity: COST.write })
  async createOrder(@Arg('input', () => CreateOrderInput) input: CreateOrderInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<CreateOrderPayload> {
    const placed = await services.orders.create(ctx, input);
    return { order: createdOrderRowOf(placed, loaders), deliveryOtp: placed.deliveryOtp };
  }

  @Authorized()
  @InGroup('orders')
  @Mutation(() => Order, { complexity: COST.write, description: 'Moves an order to its next status (staff only).' })
  async updateOrderStatus(
    @Arg('id', () => Int) id: number,
    @Arg('orderStatus', () => OrderStatus, { description: 'The next status: FORWARDED, APPROVED or DELIVERED' }) status: OrderStatus,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<Order>> {
    return services.orders.changeStatus(ctx, id, status);
  }

  @Authorized()
  @InGroup('orders')
  @Mutation(() => Order, { complexity: COST.write, description: 'Cancels an order not yet delivered (staff and API keys); it keeps its status.' })
  async cancelOrder(
    @Arg('id', () => Int) id: number,
    @Arg('reason', { description: 'Why the order is cancelled, 1 to 500 characters' }) reason: string,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<Order>> {
    return services.orders.cancel(ctx, id, reason);
  }

  @Authorized()
  @InGroup('orders')
  @Mutation(() => Order, { complexity: COST.write, description: "Replaces an Initiated order's lines, re-priced at today's prices." })
  async replaceOrderItems(
    @Arg('id', () => Int) id: number,
    @Arg('items', () => [OrderLineInput]) items: OrderLineInput[],
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<Order>> {
    return orderRowOf(await services.orders.replaceItems(ctx, id, items), loaders);
  }

  // An id, not the User: customers read their cancelled orders, and staff users' details are not theirs to read.
  @FieldResolver(() => Int, { complexity: COST.property, nullable: true, description: 'The user who cancelled the order, when one did.' })
  cancelledByUserId(@Root() order: Row<Order>): number | null {
    return order.cancelledBy;
  }

  @FieldResolver(() => User, { complexity: COST.relation, description: 'The customer who placed the order.' })
  customer(@Root() order: Row<Order>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    return loaders.user.load(order.customer);
  }

  @FieldResolver(() => [OrderItem], { complexity: listCost(COST.relation, ASSUMED_LENGTH.orderLines) })
  items(@Root() order: Row<Order>, @Ctx() { loaders }: GraphqlContext): Promise<Array<Row<OrderItem>>> {
    return loaders.orderItems.load(order.id);
  }

  @FieldResolver(() => Town, { complexity: COST.relation, nullable: true })
  town(@Root() order: Row<Order>, @Ctx() { loaders }: GraphqlContext): Related<Row<Town>> {
    return loaders.town.load(order.town);
  }

  @FieldResolver(() => Route, { complexity: COST.relation, nullable: true })
  route(@Root() order: Row<Order>, @Ctx() { loaders }: GraphqlContext): Related<Row<Route>> {
    return loaders.route.load(order.route);
  }

  @FieldResolver(() => ProductionUnit, { complexity: COST.relation, nullable: true })
  productionUnit(@Root() order: Row<Order>, @Ctx() { loaders }: GraphqlContext): Related<Row<ProductionUnit>> {
    return loaders.productionUnit.load(order.productionUnit);
  }

  @FieldResolver(() => [OrderStatusHistory], { complexity: listCost(COST.relation, ASSUMED_LENGTH.statusSteps), description: 'Every status move, oldest first.' })
  statusHistory(@Root() order: Row<Order>, @Ctx() { loaders }: GraphqlContext): Promise<Array<Row<OrderStatusHistory>>> {
    return loaders.statusHistory.load(order.id);
  }
}

@Resolver(() => OrderItem)
export class OrderItemResolver {
  @FieldResolver(() => ProductVariant, { complexity: COST.relation })
  variant(@Root() item: Row<OrderItem>, @Ctx() { loaders }: GraphqlContext): Related<Row<ProductVariant>> {
    return loaders.variant.load(item.variant);
  }
}

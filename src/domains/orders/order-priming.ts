import type { Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import type { CreatedOrder, OrderPlaces, OrderRead, OrderRowPage } from './order-read';
import type { Order } from './order.entity';

/**
 * The order reads as GraphQL resolves them: the order rows, with the rows read beside them handed
 * to the request's loaders, so nested fields answer from them without another statement.
 */

/** Hands over the rows of places, but for the missing ones. */
function primePlaces(loaders: Loaders, places: readonly OrderPlaces[]): void {
  for (const { town, route, productionUnit } of places) {
    if (town) loaders.town.prime([town]);
    if (route) loaders.route.prime([route]);
    if (productionUnit) loaders.productionUnit.prime([productionUnit]);
  }
}

/** The page's order rows; its customers, places and lines go to the loaders. */
export function orderPageRowsOf(page: OrderRowPage, loaders: Loaders): Array<Row<Order>> {
  loaders.user.prime(page.customers);
  if (page.places) primePlaces(loaders, page.places);
  if (page.lines) {
    for (const [orderId, lines] of page.lines.byOrder) loaders.orderItems.prime(orderId, lines);
    loaders.variant.prime(page.lines.variants);
    loaders.product.prime(page.lines.products);
  }
  return page.items;
}

/** The order's row; everything read with it goes to the loaders. */
export function orderRowOf(read: OrderRead, loaders: Loaders): Row<Order> {
  const { order } = read;
  loaders.user.prime([read.customer]);
  primePlaces(loaders, [read, { town: read.customerTown, route: read.customerRoute, productionUnit: null }]);
  loaders.orderItems.prime(order.id, read.lines);
  loaders.variant.prime(read.variants);
  loaders.product.prime(read.products);
  loaders.statusHistory.prime(order.id, read.history);
  return order;
}

/** A placed order's row; its customer's goes to the loaders. */
export function createdOrderRowOf(created: CreatedOrder, loaders: Loaders): Row<Order> {
  loaders.user.prime([created.customer]);
  return created.order;
}

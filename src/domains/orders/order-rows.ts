import type { EntityManager } from '@mikro-orm/postgresql';
import { rowMapper, type Row, type RowColumns } from '../../db/entity-rows';
import { ProductionUnit } from '../masters/production-unit.entity';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { User } from '../users/user.entity';
import { OrderItem } from './order-item.entity';
import { OrderStatusHistory } from './order-status-history.entity';
import { Order } from './order.entity';
import type { LineRows, OrderPageRead, OrderPlaces, OrderRead, OrderRowPage } from './order-read';
import type { OptionalRow, OrderLineRow, OrderPageRows, OrderRows, VariantRows } from './order-statements';

/** Turns the JSON arrays order-statements.ts reads into the rows of order-read.ts. */

/** A mapper of rows that may be missing. */
function optional<R>(map: (values: unknown[]) => R): (values: OptionalRow | undefined) => R | null {
  return (values) => (values == null ? null : map(values));
}

/** The variants' and products' rows of a statement's VariantRows, each product once. */
function variantAndProductRows(em: EntityManager, rows: VariantRows[], columns: RowColumns | undefined): Omit<LineRows, 'lines'> {
  const [variant, product] = [rowMapper(em, ProductVariant, columns), rowMapper(em, Product, columns)];
  const products = new Map<number, Row<Product>>();
  const variants = rows.map(([variantRow, productRow]) => {
    const read = product(productRow);
    if (!products.has(read.id)) products.set(read.id, read);
    return variant(variantRow);
  });
  return { variants, products: [...products.values()] };
}

/** Order lines' rows, as `findOrderLines` or the other statements read them. */
export function lineRows(em: EntityManager, lines: OrderLineRow[], variants: VariantRows[], columns: RowColumns | undefined): LineRows {
  const line = rowMapper(em, OrderItem, columns);
  return { lines: lines.map(line), ...variantAndProductRows(em, variants, columns) };
}

/** A page as `findOrderRowPage` read it with `read`, as rows. */
export function orderRowPage(
  em: EntityManager,
  found: { orders: OrderPageRows[]; variants: VariantRows[]; total: number },
  page: { page: number; limit: number },
  read: OrderPageRead,
): OrderRowPage {
  const { columns } = read;
  const [order, customer] = [rowMapper(em, Order, columns), rowMapper(em, User, columns)];
  const items = found.orders.map(([orderRow]) => order(orderRow));
  const customers = found.orders.map(([, customerRow]) => customer(customerRow));
  const result: OrderRowPage = { items, total: found.total, ...page, customers };
  if (read.withPlaces) {
    const [town, route, unit] = [optional(rowMapper(em, Town, columns)), optional(rowMapper(em, Route, columns)), optional(rowMapper(em, ProductionUnit, columns))];
    result.places = found.orders.map(([, , , t, r, pu]): OrderPlaces => ({ town: town(t), route: route(r), productionUnit: unit(pu) }));
  }
  if (read.withLines) {
    const line = rowMapper(em, OrderItem, columns);
    const byOrder = new Map(found.orders.map(([, , rows], k) => [items[k].id, (rows ?? []).map(line)]));
    result.lines = { byOrder, ...variantAndProductRows(em, found.variants, columns) };
  }
  return result;
}

/** One order as `findOrderRows` read it, as rows. */
export function orderRead(em: EntityManager, found: OrderRows, columns: RowColumns | undefined): OrderRead {
  const [town, route] = [optional(rowMapper(em, Town, columns)), optional(rowMapper(em, Route, columns))];
  const history = rowMapper(em, OrderStatusHistory, columns);
  return {
    order: rowMapper(em, Order, columns)(found.order),
    customer: rowMapper(em, User, columns)(found.customer),
    town: town(found.town),
    route: route(found.route),
    productionUnit: optional(rowMapper(em, ProductionUnit, columns))(found.productionUnit),
    customerTown: town(found.customerTown),
    customerRoute: route(found.customerRoute),
    ...lineRows(em, found.lines ?? [], found.variants ?? [], columns),
    history: (found.history ?? []).map(history),
  };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { rowMapper, type Row, type RowColumns } from '../../db/entity-rows';
import type { Paginated } from '../../lists/page-request';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { User } from '../users/user.entity';
import { OrderItem } from './order-item.entity';
import { Order } from './order.entity';
import type { OrderLineRow, OrderPageRows, VariantRows } from './order-views';

/** Order lines as rows, with the rows of the variants they name and of those variants' products, each once. */
export interface LineRows {
  /** By order and line id. */
  lines: Array<Row<OrderItem>>;
  variants: Array<Row<ProductVariant>>;
  products: Array<Row<Product>>;
}

/**
 * A page of orders as rows, with the rows of their customers; with lines asked for, each order's
 * lines by order id, and the variants and products they name.
 */
export interface OrderRowPage extends Paginated<Row<Order>> {
  customers: Array<Row<User>>;
  lines?: Omit<LineRows, 'lines'> & { byOrder: Map<number, Array<Row<OrderItem>>> };
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

/** Order lines' rows, as `findOrderLines` or the page statement read them. */
export function lineRows(em: EntityManager, lines: OrderLineRow[], variants: VariantRows[], columns: RowColumns | undefined): LineRows {
  const line = rowMapper(em, OrderItem, columns);
  return { lines: lines.map(line), ...variantAndProductRows(em, variants, columns) };
}

/** A page as `findOrderRowPage` read it, as rows. */
export function orderRowPage(
  em: EntityManager,
  found: { orders: OrderPageRows[]; variants: VariantRows[]; total: number },
  page: { page: number; limit: number },
  columns: RowColumns | undefined,
): OrderRowPage {
  const [order, customer] = [rowMapper(em, Order, columns), rowMapper(em, User, columns)];
  const items = found.orders.map(([orderRow]) => order(orderRow));
  const customers = found.orders.map(([, customerRow]) => customer(customerRow));
  const result: OrderRowPage = { items, total: found.total, ...page, customers };
  if (found.orders.length === 0 || found.orders[0][2] === undefined) return result;
  const line = rowMapper(em, OrderItem, columns);
  const byOrder = new Map(found.orders.map(([, , rows], k) => [items[k].id, (rows ?? []).map(line)]));
  return { ...result, lines: { byOrder, ...variantAndProductRows(em, found.variants, columns) } };
}

import type { Row, RowColumns } from '../../db/entity-rows';
import type { Paginated } from '../../lists/page-request';
import type { ProductionUnit } from '../masters/production-unit.entity';
import type { Route } from '../masters/route.entity';
import type { Town } from '../masters/town.entity';
import type { ProductVariant } from '../products/product-variant.entity';
import type { Product } from '../products/product.entity';
import type { User } from '../users/user.entity';
import type { OrderItem } from './order-item.entity';
import type { OrderStatusHistory } from './order-status-history.entity';
import type { Order } from './order.entity';

/**
 * The read model of orders: plain rows, read by one SQL statement each (order-statements.ts), that
 * REST presenters and GraphQL resolvers both take. Services answer these, never entities.
 */

/** The rows of the places an order names (null where it names none). */
export interface OrderPlaces {
  town: Row<Town> | null;
  route: Row<Route> | null;
  productionUnit: Row<ProductionUnit> | null;
}

/** An order as the order list shows it: its row, its customer's and its places'. */
export interface OrderSummaryRead extends OrderPlaces {
  order: Row<Order>;
  customer: Row<User>;
}

/** Order lines as rows, with the rows of the variants they name and of those variants' products, each once. */
export interface LineRows {
  /** By order and line id. */
  lines: Array<Row<OrderItem>>;
  variants: Array<Row<ProductVariant>>;
  products: Array<Row<Product>>;
}

/** One order as its own page shows it: the summary, the customer's places, its lines and its status history. */
export interface OrderRead extends OrderSummaryRead, LineRows {
  customerTown: Row<Town> | null;
  customerRoute: Row<Route> | null;
  /** Oldest first. */
  history: Array<Row<OrderStatusHistory>>;
}

/** What a read of an order page reads besides the orders' and customers' rows, and of which columns. */
export interface OrderPageRead {
  /** The columns of each entity's rows (every column without it). */
  columns?: RowColumns;
  /** Each order's lines, with their variants and products. */
  withLines?: boolean;
  /** Each order's places. */
  withPlaces?: boolean;
}

/**
 * A page of orders as rows, with the rows of their customers (one per order, in the same order);
 * with places asked for, each order's places (likewise); with lines asked for, each order's lines
 * by order id, and the variants and products they name.
 */
export interface OrderRowPage extends Paginated<Row<Order>> {
  customers: Array<Row<User>>;
  places?: OrderPlaces[];
  lines?: Omit<LineRows, 'lines'> & { byOrder: Map<number, Array<Row<OrderItem>>> };
}

/** Each order of a page read with its places, as the list shows it. */
export function summaryReadsOf(page: OrderRowPage): OrderSummaryRead[] {
  const { places } = page;
  if (!places) throw new Error('an order page read without its places has no summaries');
  return page.items.map((order, k) => ({ order, customer: page.customers[k], ...places[k] }));
}

/** A placed order as rows: its row and its customer's, and the delivery OTP, which is shown only now. */
export interface CreatedOrder {
  order: Row<Order>;
  customer: Row<User>;
  deliveryOtp: string;
}

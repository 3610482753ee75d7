import type { EntityManager } from '@mikro-orm/postgresql';
import { rowJson, type RowColumns } from '../../db/entity-rows';
import { executeSql, joinSql, raw, sql, tenantSql, type Sql, type TenantSql } from '../../db/tenant-sql';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { User, type UserType } from '../users/user.entity';
import { OrderItem } from './order-item.entity';
import { Order, type OrderStatus } from './order.entity';

/**
 * The order list and the single-order view as plain rows, each read by one SQL statement.
 *
 * Why not entities: MikroORM registers, proxies and merges every entity it hydrates, and a page
 * of orders with their customers and places cost several times a request's whole budget at the
 * list's throughput goal (BENCHMARKS.md, "Figures behind the code").
 * These statements are raw SQL, so tenancy is written here (tenant-sql.ts), not applied by the
 * ORM's filter: every statement starts from `o.organization_id = ?` bound to the caller's
 * organization, and every joined table (customer, places, lines, variants, products) is matched on
 * organization_id as well as on its id, as the composite foreign keys hold them.
 */

/** An order as lists show it, with its customer's name and its places. */
export interface OrderSummary {
  id: number;
  orderCode: string;
  status: OrderStatus;
  /** YYYY-MM-DD. */
  orderDate: string;
  customerId: number;
  /** First and last name. */
  customerName: string;
  customerType: UserType;
  townName: string | null;
  routeName: string | null;
  totalAmount: number;
  itemsCount: number;
  productionUnitId: number | null;
  productionUnitName: string | null;
  deliveryDate: string | null;
  /** ISO 8601 in UTC with milliseconds, as a Date's toISOString() writes it. */
  createdAt: string;
  updatedAt: string;
}

/** One line of an order with its variant and product. */
export interface OrderLineView {
  id: number;
  variantId: number;
  variantName: string;
  itemSkuCode: string;
  productId: number;
  productName: string;
  quantity: number;
  unitPrice: number;
  amount: number;
}

/** One move of an order's status. */
export interface OrderStatusMoveView {
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  changedAt: string;
  changedByUserId: number | null;
  changedByApiKeyId: number | null;
}

/** An order with everything the single-order view shows. */
export interface OrderDetailView extends OrderSummary {
  modeOfPayment: string | null;
  customer: {
    id: number;
    firstName: string;
    lastName: string;
    storeName: string | null;
    primaryContactNumber: string;
    officialEmail: string | null;
    userType: UserType;
    townName: string | null;
    routeName: string | null;
  };
  /** By line id. */
  items: OrderLineView[];
  /** Oldest first. */
  history: OrderStatusMoveView[];
}

/** Conditions on `sales_order o`, ANDed. */
export interface OrderConditions {
  /** The organization's SQL builder, rooted at `o`. */
  tenant: TenantSql;
  /** The first is the tenant's. */
  conditions: Sql[];
}

/** Conditions that start with the tenant: every list and view is confined to one organization. */
export function orderConditions(organizationId: number): OrderConditions {
  const tenant = tenantSql(organizationId, 'o');
  return { tenant, conditions: [tenant.owns()] };
}

const whereSql = (where: OrderConditions) => joinSql(where.conditions, ' and ');

/** A timestamp as Date#toISOString() writes it (milliseconds cut, not rounded, as a Date keeps them). */
const isoTimestamp = (column: string) => `to_char(date_trunc('milliseconds', ${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SUMMARY_COLUMNS = `o.id, o.order_code as "orderCode", o.status, o.order_date as "orderDate",
  c.id as "customerId", c.first_name || ' ' || c.last_name as "customerName", c.user_type as "customerType",
  t.name as "townName", r.name as "routeName", o.total_amount::float8 as "totalAmount", o.items_count as "itemsCount",
  pu.id as "productionUnitId", pu.name as "productionUnitName", o.delivery_date as "deliveryDate",
  ${isoTimestamp('o.created_at')} as "createdAt", ${isoTimestamp('o.updated_at')} as "updatedAt"`;

/** The customer and the places of `sales_order o`. */
const summaryJoins = (t: TenantSql) => sql`${t.join('app_user', 'c', 'c.id = o.customer_id')}
  ${t.leftJoin('town', 't', 't.id = o.town_id')}
  ${t.leftJoin('route', 'r', 'r.id = o.route_id')}
  ${t.leftJoin('production_unit', 'pu', 'pu.id = o.production_unit_id')}`;

/**
 * Newest first. The (organization_id, created_at, id) index walks it to the page's end without
 * reading the table, and holds customer_id and order_code too, so a searched page is found by
 * matching its entries alone (sales_order_newest_first_index).
 */
const NEWEST_FIRST = 'o.created_at desc, o.id desc';

/** The matching orders: `sales_order o` and the conditions. */
function matching(where: OrderConditions): Sql {
  return sql`sales_order o where ${whereSql(where)}`;
}

/**
 * One statement for a page of summaries and the total: the count of every matching order, and
 * beside it the page, found on sales_order alone (joined with customers, the planner misjudges the
 * tenant condition on both tables and sorts the whole workspace) and only then joined for its
 * columns. Always one row at least: an empty page is the total with null columns.
 */
function summaryPageStatement(where: OrderConditions, limit: number, offset: number): Sql {
  const from = matching(where);
  const page = where.tenant.rooted('page');
  return sql`select total.count, paged.* from (select count(*)::int as count from ${from}) total
    left join lateral (select ${raw(SUMMARY_COLUMNS)}, o.created_at as sort_at
      from (select o.id, o.organization_id from ${from} order by ${raw(NEWEST_FIRST)} limit ${limit} offset ${offset}) page
      ${page.join('sales_order', 'o', 'o.id = page.id')} ${summaryJoins(where.tenant)}) paged on true
    order by paged.sort_at desc, paged.id desc`;
}

/** A page of orders matching `where`, as summaries, and how many match in all. */
export async function findOrderPage(em: EntityManager, where: OrderConditions, limit: number, offset: number): Promise<{ rows: OrderSummary[]; total: number }> {
  const found = await executeSql<OrderSummary & { count: number; sort_at: unknown }>(em, summaryPageStatement(where, limit, offset));
  const rows = found.filter((row) => row.id !== null).map(({ count: _count, sort_at: _sortAt, ...row }) => row);
  return { rows, total: found[0]?.count ?? 0 };
}

/** An order line's row, as rowJson writes it; its variant is among the statement's variants. */
export type OrderLineRow = unknown[];
/** A variant's row and its product's, as rowJson writes them. */
export type VariantRows = [variant: unknown[], product: unknown[]];

/**
 * SQL for the lines of the orders of CTE `picked` (their id and organization_id), read by the
 * statements below. The lines' variants, each with its product, come once each in a column of
 * their own (`variantsJson`), not with every line that names them: a page's 91 lines name about 50
 * variants, and PostgreSQL builds, and Node parses and maps, each once (bench/, GraphQL page).
 */
function linesCte(em: EntityManager, t: TenantSql, columns: RowColumns | undefined): Sql {
  return sql`lines as materialized (select i.order_id, i.id, i.product_variant_id, ${raw(rowJson(em, OrderItem, 'i', columns))} as line
    from picked ${t.rooted('picked').join('order_item', 'i', 'i.order_id = picked.id')})`;
}

/** SQL for the variants that CTE `lines` names, each once with its product, as a JSON array of VariantRows. */
function variantsJson(em: EntityManager, t: TenantSql, columns: RowColumns | undefined): Sql {
  const v = t.rooted('v');
  return sql`(select json_agg(json_build_array(${raw(rowJson(em, ProductVariant, 'v', columns))}, ${raw(rowJson(em, Product, 'p', columns))}))
    from product_variant v ${v.join('product', 'p', 'p.id = v.product_id')} where ${v.owns()} and v.id in (select product_variant_id from lines))`;
}

/** A page of orders' rows: each order's row, its customer's, and (when asked for) its lines' rows. */
export type OrderPageRows = [order: unknown[], customer: unknown[], lines?: OrderLineRow[]];

/**
 * A page of orders matching `where` as rows of the columns `columns` names (as rowJson
 * writes them), each with its customer's, and with `withLines` its lines' and their variants'; and
 * how many match in all. One statement, one row: the page's orders are found on sales_order alone
 * and only then joined.
 */
export async function findOrderRowPage(
  em: EntityManager,
  where: OrderConditions,
  read: { columns?: RowColumns; withLines: boolean },
  limit: number,
  offset: number,
): Promise<{ orders: OrderPageRows[]; variants: VariantRows[]; total: number }> {
  const { columns, withLines } = read;
  const from = matching(where);
  const t = where.tenant;
  const orderRows = raw(`json_build_array(${rowJson(em, Order, 'o', columns)}, ${rowJson(em, User, 'c', columns)}${withLines ? `, coalesce(l.lines, '[]')` : ''})`);
  const statement = sql`with picked as materialized (select o.id, o.organization_id, o.created_at from ${from} order by ${raw(NEWEST_FIRST)} limit ${limit} offset ${offset})
    ${withLines ? sql`, ${linesCte(em, t, columns)}` : raw('')}
    select (select count(*)::int from ${from}) as count,
      (select json_agg(${orderRows} order by picked.created_at desc, picked.id desc)
        from picked ${t.rooted('picked').join('sales_order', 'o', 'o.id = picked.id')} ${t.join('app_user', 'c', 'c.id = o.customer_id')}
        ${raw(withLines ? `left join (select order_id, json_agg(line order by id) as lines from lines group by order_id) l on l.order_id = o.id` : '')}) as orders
      ${withLines ? sql`, ${variantsJson(em, t, columns)} as variants` : raw('')}`;
  const [row] = await executeSql<{ count: number; orders: OrderPageRows[] | null; variants?: VariantRows[] | null }>(em, statement);
  return { orders: row.orders ?? [], variants: row.variants ?? [], total: row.count };
}

/** The single-order view of the order matching `where`. */
const detailStatement = (where: OrderConditions) => {
  const t = where.tenant;
  const i = t.rooted('i');
  return sql`select ${raw(SUMMARY_COLUMNS)}, o.mode_of_payment as "modeOfPayment",
  json_build_object('id', c.id, 'firstName', c.first_name, 'lastName', c.last_name, 'storeName', c.store_name,
    'primaryContactNumber', c.primary_contact_number, 'officialEmail', c.official_email, 'userType', c.user_type,
    'townName', ct.name, 'routeName', cr.name) as customer,
  coalesce((select json_agg(json_build_object('id', i.id, 'variantId', v.id, 'variantName', v.variant_name,
      'itemSkuCode', v.item_sku_code, 'productId', p.id, 'productName', p.name, 'quantity', i.quantity,
      'unitPrice', i.unit_price::float8, 'amount', i.amount::float8) order by i.id)
    from order_item i ${i.join('product_variant', 'v', 'v.id = i.product_variant_id')} ${i.join('product', 'p', 'p.id = v.product_id')}
    where i.organization_id = o.organization_id and i.order_id = o.id), '[]') as items,
  coalesce((select json_agg(json_build_object('fromStatus', h.from_status, 'toStatus', h.to_status,
      'changedAt', ${raw(isoTimestamp('h.changed_at'))}, 'changedByUserId', h.changed_by_user_id,
      'changedByApiKeyId', h.changed_by_api_key_id) order by h.changed_at, h.id)
    from order_status_history h where h.organization_id = o.organization_id and h.order_id = o.id), '[]') as history
  from sales_order o ${summaryJoins(t)}
  ${t.leftJoin('town', 'ct', 'ct.id = c.town_id')}
  ${t.leftJoin('route', 'cr', 'cr.id = c.route_id')}
  where ${whereSql(where)}`;
};

/** The one order matching `where` with its customer, lines and status history, or null. */
export async function findOrderDetail(em: EntityManager, where: OrderConditions): Promise<OrderDetailView | null> {
  const [row] = await executeSql<OrderDetailView>(em, detailStatement(where));
  return row ?? null;
}

/**
 * The lines of the orders `orderIds` that match `where` (the caller's visible orders), by order
 * and line id, and the variants they name with their products (one statement), of the columns
 * `columns` names.
 */
export async function findOrderLines(
  em: EntityManager,
  where: OrderConditions,
  orderIds: readonly number[],
  columns: RowColumns | undefined,
): Promise<{ lines: OrderLineRow[]; variants: VariantRows[] }> {
  const ids = joinSql(orderIds.map((id) => sql`${id}`), ', ');
  const [row] = await executeSql<{ lines: OrderLineRow[] | null; variants: VariantRows[] | null }>(
    em,
    sql`with picked as materialized (select o.id, o.organization_id from ${matching(where)} and o.id in (${ids})),
      ${linesCte(em, where.tenant, columns)}
      select (select json_agg(line order by order_id, id) from lines) as lines, ${variantsJson(em, where.tenant, columns)} as variants`,
  );
  return { lines: row.lines ?? [], variants: row.variants ?? [] };
}

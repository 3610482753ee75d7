import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rowJson, type RowColumns } from '../../db/entity-rows';
import { executeSql, joinSql, raw, sql, tenantSql, type Sql, type TenantSql } from '../../db/tenant-sql';
import { ProductionUnit } from '../masters/production-unit.entity';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { User } from '../users/user.entity';
import { OrderItem } from './order-item.entity';
import { OrderStatusHistory } from './order-status-history.entity';
import { Order } from './order.entity';
import type { OrderPageRead } from './order-read';
import { sortable, type ResolvedSort } from '../../lists/sort';
import { pickedOrder } from '../../lists/sql-sort';

/**
 * The order reads as rows (see order-read.ts), each read by one SQL statement: the page of the
 * order list (REST's and GraphQL's), the lines of some orders, and one order with all it shows.
 *
 * Why not entities: MikroORM registers, proxies and merges every entity it hydrates, and a page
 * of orders with their customers and places cost several times a request's whole budget at the
 * list's throughput goal (BENCHMARKS.md, "Figures behind the code").
 * These statements are raw SQL, so tenancy is written here (tenant-sql.ts), not applied by the
 * ORM's filter: every statement starts from `o.organization_id = ?` bound to the caller's
 * organization, and every joined table (customer, places, lines, variants, products, history) is
 * matched on organization_id as well as on its id, as the composite foreign keys hold them.
 * Rows come as JSON arrays of their columns (rowJson), turned into rows by order-rows.ts.
 */

/** Conditions on `sales_order o`, ANDed. */
export interface OrderConditions {
  /** The organization's SQL builder, rooted at `o`. */
  tenant: TenantSql;
  /** The first is the tenant's. */
  conditions: Sql[];
}

/** Conditions that start with the tenant: every read is confined to one organization. */
export function orderConditions(organizationId: number): OrderConditions {
  const tenant = tenantSql(organizationId, 'o');
  return { tenant, conditions: [tenant.owns()] };
}

/**
 * The order list's sortable fields and their columns. The default, newest first, is walked by the
 * (organization_id, created_at, id) index to the page's end without reading the table, and the
 * index holds customer_id and order_code too, so a searched page is found by matching its entries
 * alone (sales_order_newest_first_index). Another order sorts the matching orders.
 */
export const ORDER_SORT = sortable({
  name: 'Order',
  fields: {
    created_at: 'o.created_at',
    order_date: 'o.order_date',
    order_code: 'o.order_code',
    order_total_amount: 'o.total_amount',
    order_status: 'o.status',
    delivery_date: 'o.delivery_date',
    id: 'o.id',
  },
  default: '-created_at',
});

/** The matching orders: `sales_order o` and the conditions. */
function matching(where: OrderConditions): Sql {
  return sql`sales_order o where ${joinSql(where.conditions, ' and ')}`;
}

/** An entity's row (table alias `alias`) as rowJson writes it, or null for a left join's missing row. */
function optionalRowJson(em: EntityManager, entity: EntityClass<object>, alias: string, columns: RowColumns | undefined): string {
  return `case when ${alias}.id is null then null else ${rowJson(em, entity, alias, columns)} end`;
}

/** The places of `sales_order o`, left joined as t, r and pu. */
const placeJoins = (t: TenantSql) => sql`${t.leftJoin('town', 't', 't.id = o.town_id')}
  ${t.leftJoin('route', 'r', 'r.id = o.route_id')}
  ${t.leftJoin('production_unit', 'pu', 'pu.id = o.production_unit_id')}`;

/** The rows of the places of `placeJoins`, in OrderPageRows' order. */
function placeRowsJson(em: EntityManager, columns: RowColumns | undefined): string {
  return [
    optionalRowJson(em, Town, 't', columns),
    optionalRowJson(em, Route, 'r', columns),
    optionalRowJson(em, ProductionUnit, 'pu', columns),
  ].join(', ');
}

/** An order line's row, as rowJson writes it; its variant is among the statement's variants. */
export type OrderLineRow = unknown[];
/** A variant's row and its product's, as rowJson writes them. */
export type VariantRows = [variant: unknown[], product: unknown[]];
/** A row as rowJson writes it, or null for none. */
export type OptionalRow = unknown[] | null;

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

/**
 * A page of orders' rows: each order's row, its customer's, its lines' (when asked for, else null)
 * and, when asked for, its places' (town, route, production unit).
 */
export type OrderPageRows = [order: unknown[], customer: unknown[], lines: OrderLineRow[] | null, town?: OptionalRow, route?: OptionalRow, productionUnit?: OptionalRow];

/**
 * A page of orders matching `where` as rows of the columns `read.columns` names (as rowJson
 * writes them), each with its customer's, and as `read` asks, its lines' and their variants', and
 * its places'; and how many match in all. One statement, one row: the page's orders are found on
 * sales_order alone (joined with customers, the planner misjudges the tenant condition on both
 * tables and sorts the whole workspace) and only then joined.
 */
export async function findOrderRowPage(
  em: EntityManager,
  where: OrderConditions,
  read: OrderPageRead,
  page: { sort: ResolvedSort<string>; limit: number; offset: number },
): Promise<{ orders: OrderPageRows[]; variants: VariantRows[]; total: number }> {
  const { sort, limit, offset } = page;
  const { columns, withLines = false, withPlaces = false } = read;
  const from = matching(where);
  const t = where.tenant;
  const rows = [rowJson(em, Order, 'o', columns), rowJson(em, User, 'c', columns), withLines ? `coalesce(l.lines, '[]')` : 'null'];
  if (withPlaces) rows.push(placeRowsJson(em, columns));
  const order = pickedOrder(sort);
  const statement = sql`with picked as materialized (select o.id, o.organization_id, ${raw(order.keys)} from ${from} order by ${raw(order.orderBy)} limit ${limit} offset ${offset})
    ${withLines ? sql`, ${linesCte(em, t, columns)}` : raw('')}
    select (select count(*)::int from ${from}) as count,
      (select json_agg(json_build_array(${raw(rows.join(', '))}) order by ${raw(order.pickedOrderBy)})
        from picked ${t.rooted('picked').join('sales_order', 'o', 'o.id = picked.id')} ${t.join('app_user', 'c', 'c.id = o.customer_id')}
        ${withPlaces ? placeJoins(t) : raw('')}
        ${raw(withLines ? `left join (select order_id, json_agg(line order by id) as lines from lines group by order_id) l on l.order_id = o.id` : '')}) as orders
      ${withLines ? sql`, ${variantsJson(em, t, columns)} as variants` : raw('')}`;
  const [row] = await executeSql<{ count: number; orders: OrderPageRows[] | null; variants?: VariantRows[] | null }>(em, statement);
  return { orders: row.orders ?? [], variants: row.variants ?? [], total: row.count };
}

/** One order's rows as `findOrderRows` reads them (see OrderRead). */
export interface OrderRows {
  order: unknown[];
  customer: unknown[];
  town: OptionalRow;
  route: OptionalRow;
  productionUnit: OptionalRow;
  customerTown: OptionalRow;
  customerRoute: OptionalRow;
  lines: OrderLineRow[] | null;
  variants: VariantRows[] | null;
  history: unknown[][] | null;
}

/**
 * The one order matching `where` with its customer, the places of both, its lines with their
 * variants and products, and its status history (oldest first), as rows of the columns `columns`
 * names; null when none matches. One statement.
 */
export async function findOrderRows(em: EntityManager, where: OrderConditions, columns: RowColumns | undefined): Promise<OrderRows | null> {
  const t = where.tenant;
  const [i, v, h] = [t.rooted('i'), t.rooted('v'), t.rooted('h')];
  // Correlated subqueries rather than the page's CTEs: for one order, PostgreSQL plans them in
  // about half the time, and planning is most of this statement's cost (EXPLAIN, bench database).
  const lineOf = sql`from order_item i where ${i.owns()} and i.order_id = o.id`;
  const statement = sql`select ${raw(rowJson(em, Order, 'o', columns))} as "order", ${raw(rowJson(em, User, 'c', columns))} as customer,
      ${raw(optionalRowJson(em, Town, 't', columns))} as town, ${raw(optionalRowJson(em, Route, 'r', columns))} as route,
      ${raw(optionalRowJson(em, ProductionUnit, 'pu', columns))} as "productionUnit",
      ${raw(optionalRowJson(em, Town, 'ct', columns))} as "customerTown", ${raw(optionalRowJson(em, Route, 'cr', columns))} as "customerRoute",
      (select json_agg(${raw(rowJson(em, OrderItem, 'i', columns))} order by i.id) ${lineOf}) as lines,
      (select json_agg(json_build_array(${raw(rowJson(em, ProductVariant, 'v', columns))}, ${raw(rowJson(em, Product, 'p', columns))}))
        from product_variant v ${v.join('product', 'p', 'p.id = v.product_id')}
        where ${v.owns()} and v.id in (select i.product_variant_id ${lineOf})) as variants,
      (select json_agg(${raw(rowJson(em, OrderStatusHistory, 'h', columns))} order by h.changed_at, h.id)
        from order_status_history h where ${h.owns()} and h.order_id = o.id) as history
    from sales_order o ${t.join('app_user', 'c', 'c.id = o.customer_id')}
    ${placeJoins(t)}
    ${t.leftJoin('town', 'ct', 'ct.id = c.town_id')}
    ${t.leftJoin('route', 'cr', 'cr.id = c.route_id')}
    where ${joinSql(where.conditions, ' and ')}`;
  const [row] = await executeSql<OrderRows>(em, statement);
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

import type { EntityClass, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findRows, type Row } from '../db/entity-rows';
import { resolvePage, type PageRequest, type Paginated } from './page-request';
import { searchCondition } from './search';
import { resolveSort, type Sortable, type SortKey } from './sort';

/**
 * A list of one entity's rows, declared once by its domain: the orders it may be read in and the
 * properties a `search` matches. `readPage` serves it with the list
 * contract (page and limit checked, `{items, total, page, limit}`), which REST shapes as
 * `{data, pagination}` (rest-shim/envelope.ts) and GraphQL as `{nodes, pageInfo}` (graphql/page.types.ts).
 */
export interface EntityList<E extends object> {
  entity: EntityClass<E>;
  /** Sortable fields (API name → property) and the default order. */
  sort: Sortable<keyof E & string>;
  /** Properties a search term may match, case-insensitively, anywhere in their text. */
  searchIn?: ReadonlyArray<keyof E & string>;
}

/** What a caller asks of a list: a page, and a free-text search. */
export interface ListRequest extends PageRequest {
  search?: string;
}

/** Declares a list (for the type check). */
export function entityList<E extends object>(list: EntityList<E>): EntityList<E> {
  return list;
}

/** The filters of `filter` whose value is given, as equality conditions on the properties of the same names. */
export function equalTo<E extends object, F extends object>(filter: F, names: ReadonlyArray<keyof F & keyof E & string>): FilterQuery<E> {
  const where: Record<string, unknown> = {};
  for (const name of names) if (filter[name] != null) where[name] = filter[name];
  return where as FilterQuery<E>;
}

/** The rows of `list` matching `where` and every term of the search. */
function matching<E extends object>(list: EntityList<E>, where: FilterQuery<E>, search: string | undefined): FilterQuery<E> {
  const searched = searchCondition<FilterQuery<E>>(search, (list.searchIn ?? []).map((name) => (pattern: string) => ({ [name]: { $ilike: pattern } }) as FilterQuery<E>));
  return { $and: [where, searched] } as FilterQuery<E>;
}

/**
 * One page of `list` as plain rows matching `where` and every term of the search, and the total of
 * them all. Both are read at once; the total counts the root table alone (joining only what
 * `where` names). The tenant filter applies to both. No entity is hydrated: the caller reads the
 * rows its rows refer to (`rowsById`), for REST and GraphQL alike.
 */
export async function readPage<E extends object>(em: EntityManager, list: EntityList<E>, where: FilterQuery<E>, request: ListRequest): Promise<Paginated<Row<E>>> {
  const { page, limit, offset } = resolvePage(request);
  const orderBy = orderByOf(list, request.sort);
  const rows = matching(list, where, request.search);
  const [items, total] = await Promise.all([findRows(em, list.entity, rows, { orderBy, limit, offset }), em.count(list.entity, rows)]);
  return { items, total, page, limit };
}

/** The order a request asks of `list` (or its default), as MikroORM takes it: one map per key, `id` last. */
function orderByOf<E extends object>(list: EntityList<E>, sort: readonly SortKey[] | undefined): Array<QueryOrderMap<E>> {
  return resolveSort(list.sort, sort).map(({ by, direction }) => ({ [by]: direction }) as QueryOrderMap<E>);
}

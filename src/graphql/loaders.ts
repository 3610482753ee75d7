import { Utils, wrap, type EntityClass, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { RequestContext } from '../context/request-context';
import { findRecords, type EntityRecord, type RecordSelection } from '../db/entity-records';
import { ProductClass } from '../domains/masters/product-class.entity';
import { ProductionUnit } from '../domains/masters/production-unit.entity';
import { Route } from '../domains/masters/route.entity';
import { Town } from '../domains/masters/town.entity';
import { OrderStatusHistory } from '../domains/orders/order-status-history.entity';
import { ProductVariant } from '../domains/products/product-variant.entity';
import { Product } from '../domains/products/product.entity';
import { Role } from '../domains/users/role.entity';
import { User } from '../domains/users/user.entity';
import type { Services } from '../services';

/**
 * What a GraphQL object type resolves from: the entity, as queries and mutations return it, or its
 * plain record, as the loaders and the order page read it (see findRecords). Nested fields reach
 * relations through `related`, which takes either.
 */
export type Resolvable<E> = E | EntityRecord<E>;

/** A to-one relation resolved: at once when its parent holds it, else when its loader's batch comes back. */
export type Related<E> = Resolvable<E> | null | Promise<Resolvable<E> | null>;

/** The selection records are read for, known once the operation is (see GraphqlContext.operation). */
type SelectionOf = () => RecordSelection | undefined;

/** Loads records by id in one tenant-filtered statement per batch. */
function byId<E extends { id: number }>(em: EntityManager, entity: EntityClass<E>, selection: SelectionOf): DataLoader<number, EntityRecord<E> | null> {
  return new DataLoader(async (ids) => {
    const rows = await findRecords(em, entity, { id: { $in: [...ids] } } as unknown as FilterQuery<E>, { selection: selection() });
    const found = new Map(rows.map((r) => [r.id as number, r]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** Loads the children of many parents in one tenant-filtered statement per batch, ordered by id. */
function childrenOf<E extends { id: number }>(
  em: EntityManager,
  entity: EntityClass<E>,
  parentKey: keyof E & string,
  selection: SelectionOf,
): DataLoader<number, Array<EntityRecord<E>>> {
  return new DataLoader(async (parentIds) => {
    const where = { [parentKey]: { $in: [...parentIds] } } as FilterQuery<E>;
    const rows = await findRecords(em, entity, where, { orderBy: { id: 'asc' } as never, selection: selection() });
    return grouped(parentIds, rows, parentKey);
  });
}

/** `rows` by parent id (the value of their `parentKey`), in the order of `parentIds`. */
function grouped<R>(parentIds: readonly number[], rows: R[], parentKey: keyof R): R[][] {
  const groups = new Map<number, R[]>(parentIds.map((id) => [id, []]));
  for (const row of rows) groups.get(row[parentKey] as number)?.push(row);
  return parentIds.map((id) => groups.get(id) ?? []);
}

/**
 * The per-request DataLoaders behind nested GraphQL fields; they make a page cost a fixed number of
 * statements, each reading the columns of the fields the operation selects.
 */
export function createLoaders(ctx: RequestContext, services: Services, selection: SelectionOf) {
  const { em } = ctx;
  return {
    user: byId(em, User, selection),
    role: byId(em, Role, selection),
    town: byId(em, Town, selection),
    route: byId(em, Route, selection),
    productionUnit: byId(em, ProductionUnit, selection),
    productClass: byId(em, ProductClass, selection),
    product: byId(em, Product, selection),
    variant: byId(em, ProductVariant, selection),
    // With their variants and products, in one statement: lines are almost always shown with them.
    orderItems: new DataLoader(async (orderIds: readonly number[]) =>
      grouped(orderIds, await services.orders.linesOf(ctx, orderIds, selection()), 'order'),
    ),
    statusHistory: childrenOf(em, OrderStatusHistory, 'order', selection),
    productVariants: childrenOf(em, ProductVariant, 'product', selection),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/**
 * Resolves a to-one relation, whichever way its parent holds it: a record or a loaded entity is
 * returned as it is (at once, not as a promise: GraphQL completes it without a turn of the event
 * loop); an id (a record's relation) or an unloaded entity reference is loaded, batched.
 */
export function related<E extends { id: number }>(
  ref: E | EntityRecord<E> | number | null | undefined,
  loader: DataLoader<number, EntityRecord<E> | null>,
): Related<E> {
  if (ref == null) return null;
  if (typeof ref === 'number') return loader.load(ref);
  if (Utils.isEntity<E>(ref) && !wrap(ref).isInitialized()) return loader.load(ref.id);
  return ref;
}

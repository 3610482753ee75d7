import { Utils, wrap, type EntityClass, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { findRecords, type EntityRecord } from '../db/entity-records';
import type { LoaderFactory, LoaderScope, Loaders } from '../domains/domain-module';

/**
 * What a GraphQL object type resolves from: the entity, as queries and mutations return it, or its
 * plain record, as the loaders and the order page read it (see findRecords). Nested fields reach
 * relations through `related`, which takes either.
 */
export type Resolvable<E> = E | EntityRecord<E>;

/** A to-one relation resolved: at once when its parent holds it, else when its loader's batch comes back. */
export type Related<E> = Resolvable<E> | null | Promise<Resolvable<E> | null>;

/** The selection records are read for, known once the operation is (see GraphqlContext.operation). */
export type SelectionOf = LoaderScope['selection'];

/** Loads records by id in one tenant-filtered statement per batch. */
export function byId<E extends { id: number }>(em: EntityManager, entity: EntityClass<E>, selection: SelectionOf): DataLoader<number, EntityRecord<E> | null> {
  return new DataLoader(async (ids) => {
    const rows = await findRecords(em, entity, { id: { $in: [...ids] } } as unknown as FilterQuery<E>, { selection: selection() });
    const found = new Map(rows.map((r) => [r.id as number, r]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** Loads the children of many parents in one tenant-filtered statement per batch, ordered by id. */
export function childrenOf<E extends { id: number }>(
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
export function grouped<R>(parentIds: readonly number[], rows: R[], parentKey: keyof R): R[][] {
  const groups = new Map<number, R[]>(parentIds.map((id) => [id, []]));
  for (const row of rows) groups.get(row[parentKey] as number)?.push(row);
  return parentIds.map((id) => groups.get(id) ?? []);
}

/** Builds one request's loaders with every domain's factory. */
export function createLoaders(scope: LoaderScope, factories: readonly LoaderFactory[]): Loaders {
  const loaders = {};
  for (const factory of factories) Object.assign(loaders, factory(scope));
  return loaders as Loaders;
}

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

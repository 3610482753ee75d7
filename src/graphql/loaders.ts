import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { findRows, type Row, type RowColumns } from '../db/entity-rows';
import type { LoaderFactory, LoaderScope, Loaders } from '../domains/domain-module';

/**
 * Rows by id for one request: at once when a statement already read them (an order page reads its
 * customers, variants and products with its orders, and hands them over with `prime`), else in one
 * tenant-filtered statement per batch. Answering at once rather than with a promise lets GraphQL
 * complete the field without a turn of the event loop.
 */
export class RowLoader<R extends { id: number }> {
  private readonly read = new Map<number, R>();
  private readonly batches: DataLoader<number, R | null>;

  constructor(load: (ids: readonly number[]) => Promise<R[]>) {
    this.batches = new DataLoader(async (ids) => {
      const found = new Map((await load(ids)).map((row) => [row.id, row]));
      return ids.map((id) => found.get(id) ?? null);
    });
  }

  /** Hands over rows another statement read. */
  prime(rows: Iterable<R>): void {
    for (const row of rows) this.read.set(row.id, row);
  }

  /** The row of `id` (null for none): at once when read already, else when its batch comes back. */
  load(id: number | null): Related<R> {
    if (id === null) return null;
    return this.read.get(id) ?? this.batches.load(id);
  }
}

/** A related row as a field resolver answers it: at once when read already, else when loaded. */
export type Related<R> = R | null | Promise<R | null>;

/** The columns of the operation's selection, once it is known (every column before). */
export type ColumnsOf = LoaderScope['columns'];

/** Loads an entity's rows by id, with the ORM's filters (the tenant's among them). */
export function byId<E extends { id: number }>(em: EntityManager, entity: EntityClass<E>, columns: ColumnsOf): RowLoader<Row<E> & { id: number }> {
  return new RowLoader(async (ids) => findRows(em, entity, { id: { $in: [...ids] } } as unknown as FilterQuery<E>, { columns: columns() }) as Promise<Array<Row<E> & { id: number }>>);
}

/** Loads the children of many parents in one tenant-filtered statement per batch, ordered by id. */
export function childrenOf<E extends { id: number }>(
  em: EntityManager,
  entity: EntityClass<E>,
  parentKey: keyof Row<E> & string,
  columns: ColumnsOf,
): DataLoader<number, Array<Row<E>>> {
  return new DataLoader(async (parentIds) => {
    const where = { [parentKey]: { $in: [...parentIds] } } as FilterQuery<E>;
    const rows = await findRows(em, entity, where, { orderBy: { id: 'asc' } as never, columns: columns() });
    return grouped(parentIds, rows, parentKey);
  });
}

/** `rows` by parent id (the value of their `parentKey`), in the order of `parentIds`. */
export function grouped<R>(parentIds: readonly number[], rows: R[], parentKey: keyof R): R[][] {
  const groups = new Map<number, R[]>(parentIds.map((id) => [id, []]));
  for (const row of rows) groups.get(row[parentKey] as number)?.push(row);
  return parentIds.map((id) => groups.get(id) ?? []);
}

/** Builds one request's loaders with every domain's factory; a factory may use the others' loaders when its batches run. */
export function createLoaders(scope: Omit<LoaderScope, 'loaders'>, factories: readonly LoaderFactory[]): Loaders {
  const loaders = {} as Loaders;
  for (const factory of factories) Object.assign(loaders, factory({ ...scope, loaders }));
  return loaders;
}

/** The fields an operation selects of each object type, by the name of the class it is declared on (see selected-fields.ts). */
export type FieldSelection = ReadonlyMap<string, ReadonlySet<string>>;

/** The columns a selection names of each entity, for the read model (see RowColumns). */
export function rowColumns(selection: FieldSelection): RowColumns {
  return { columnsOf: (entity) => selection.get(entity.name) as ReadonlySet<never> | undefined };
}

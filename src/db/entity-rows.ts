import { ReferenceKind, wrap, type Collection, type EntityClass, type EntityMetadata, type EntityProperty, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A row of an entity's table as a plain object: the read model that GraphQL resolves from. It holds
 * the entity's properties by name, with the values hydration would give them, and each to-one
 * relation as the related row's id; collections are absent, and so are hidden properties (secrets
 * and bookkeeping such as password and OTP hashes), which rows never read.
 */
export type Row<E> = {
  [K in keyof E as E[K] extends Collection<infer _> ? never : K]: E[K] extends { id: number } | null ? number | Extract<E[K], null> : E[K];
};

/**
 * The columns a read needs of each entity, such as the fields a GraphQL operation selects (the
 * GraphQL layer works them out; services only pass them on). A row always holds its id and its
 * to-one references (what nested fields load from), and nothing else the choice leaves out; a read
 * without a choice reads every column.
 */
export interface RowColumns {
  columnsOf<E extends object>(entity: EntityClass<E>): ReadonlySet<keyof Row<E> & string> | undefined;
}
const NONE: ReadonlySet<string> = new Set();

/** The columns a row of one entity is read from. */
interface ColumnList {
  /** Their properties. */
  props: string[];
  /** SQL for them as one JSON array, in their order, for a table alias. */
  json: (alias: string) => string;
  /** Turns such an array into a record. */
  fromJson: (values: unknown[]) => Record<string, unknown>;
}

/** What rows of one entity need, worked out once from its metadata. */
interface RowShape {
  /** Every property a row can hold: the entity's own columns and to-one references, less hidden ones. */
  all: ColumnList;
  /** The columns of the properties `selected` and of the id and to-one references (worked out once per set). */
  of: (selected: ReadonlySet<string>) => ColumnList;
  /** Maps a row's columns to the properties, with their values as hydration would give them. */
  map: (row: Record<string, unknown>) => Record<string, unknown>;
  /** The to-one relations among the properties. */
  references: ReadonlySet<string>;
}
const shapes = new WeakMap<EntityMetadata, RowShape>();

function shapeOf(em: EntityManager, entity: EntityClass<object>): RowShape {
  const meta = em.getMetadata().get(entity.name);
  let shape = shapes.get(meta);
  if (shape) return shape;
  const persisted = meta.props.filter((p) => p.persist !== false && p.fieldNames?.length);
  const isColumn = (p: EntityProperty) =>
    p.kind === ReferenceKind.SCALAR || p.kind === ReferenceKind.MANY_TO_ONE || (p.kind === ReferenceKind.ONE_TO_ONE && p.owner);
  const readable = persisted.filter((p) => isColumn(p) && !p.hidden);
  const multiColumn = readable.find((p) => p.fieldNames.length !== 1);
  if (multiColumn) throw new Error(`rows read properties of one column each; ${meta.className}.${multiColumn.name} has ${multiColumn.fieldNames.length}`);
  const bySelection = new WeakMap<ReadonlySet<string>, ColumnList>();
  const driver = em.getDriver();
  const platform = em.getPlatform();
  // The driver renames columns to properties; custom types (decimals arrive as strings) are
  // converted by hydration, which rows skip, so here.
  const typed = meta.props.filter((p) => p.kind === ReferenceKind.SCALAR && p.customType);
  const map = (row: Record<string, unknown>) => {
    const record = driver.mapResult(row, meta) as Record<string, unknown>;
    for (const prop of typed) {
      const value = record[prop.name];
      if (value != null) record[prop.name] = prop.customType!.convertToJSValue(value, platform);
    }
    return record;
  };
  // A property that the driver copies as it comes (not a date, a boolean or an embeddable, which it
  // converts) is set straight from a JSON array's value, converted by its custom type if it has
  // one; any other goes through the driver on its own. Building a row for the driver to map
  // instead cost the GraphQL page about 6% of its CPU (A/B, 6 alternating runs of each).
  const converterOf = (p: EntityProperty): ((value: unknown) => unknown) | null => {
    const copiedAsIs = p.runtimeType !== 'Date' && p.runtimeType !== 'boolean' && !p.embedded && p.kind !== ReferenceKind.EMBEDDED;
    if (!copiedAsIs) return (value) => map({ [p.fieldNames[0]]: value })[p.name];
    if (p.customType) return (value) => (value == null ? value : p.customType!.convertToJSValue(value, platform));
    return null;
  };
  // Arrays rather than objects: without a key per value, PostgreSQL builds a page's JSON faster and
  // sends less (the bench's GraphQL page statement through raw pg: 1,440 against 1,080 a second).
  const columnsFor = (props: EntityProperty[]): ColumnList => {
    const names = props.map((p) => p.name);
    const converters = props.map(converterOf);
    return {
      props: names,
      json: (alias) => `json_build_array(${props.map((p) => `${alias}."${p.fieldNames[0]}"`).join(', ')})`,
      fromJson: (values) => {
        const record: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i += 1) {
          const convert = converters[i];
          record[names[i]] = convert === null ? values[i] : convert(values[i]);
        }
        return record;
      },
    };
  };
  shape = {
    all: columnsFor(readable),
    of: (selected) => {
      let columns = bySelection.get(selected);
      if (!columns) {
        columns = columnsFor(readable.filter((p) => p.primary || p.kind !== ReferenceKind.SCALAR || selected.has(p.name)));
        bySelection.set(selected, columns);
      }
      return columns;
    },
    map,
    references: new Set(readable.filter((p) => p.kind !== ReferenceKind.SCALAR).map((p) => p.name)),
  };
  shapes.set(meta, shape);
  return shape;
}

/** The columns rows of `entity` are read from: the ones `columns` names, or all without a choice. */
function columnsOf(em: EntityManager, entity: EntityClass<object>, columns: RowColumns | undefined): ColumnList {
  const shape = shapeOf(em, entity);
  return columns ? shape.of(columns.columnsOf(entity) ?? NONE) : shape.all;
}

/**
 * SQL for a row of `entity` (table alias `alias`) as a JSON array of its columns, less its hidden
 * ones and those `columns` leaves out: for statements that read several tables' rows at once, to
 * be turned into rows by `rowMapper` of the same columns.
 */
export function rowJson(em: EntityManager, entity: EntityClass<object>, alias: string, columns?: RowColumns): string {
  return columnsOf(em, entity, columns).json(alias);
}

/**
 * Turns an entity's rows, as `rowJson` of the same columns writes them, into rows. For reads that
 * only show data, above all GraphQL's nested fields: hydrating a MikroORM entity costs tens of
 * microseconds (it registers the entity and defines accessors on it), which made an order page
 * with its lines, variants and products spend half its time there (BENCHMARKS.md). Tenancy is the
 * caller's: the values must come from a statement confined to the workspace.
 */
export function rowMapper<E extends object>(em: EntityManager, entity: EntityClass<E>, columns?: RowColumns): (values: unknown[]) => Row<E> {
  return columnsOf(em, entity, columns).fromJson as (values: unknown[]) => Row<E>;
}

/**
 * An entity's rows matching `where` (of the columns `columns` names; `limit` of them from `offset`
 * when given), read in one statement with the ORM's filters (the tenant's among them) applied.
 */
export async function findRows<E extends object>(
  em: EntityManager,
  entity: EntityClass<E>,
  where: FilterQuery<E>,
  options: { orderBy?: QueryOrderMap<E> | Array<QueryOrderMap<E>>; columns?: RowColumns; limit?: number; offset?: number } = {},
): Promise<Array<Row<E>>> {
  const { orderBy, columns, limit, offset } = options;
  const qb = em
    .createQueryBuilder(entity)
    .select(columnsOf(em, entity, columns).props as never)
    .where(where as never);
  if (orderBy) qb.orderBy(orderBy as never);
  if (limit !== undefined) qb.limit(limit, offset);
  await qb.applyFilters();
  const rows: Array<Record<string, unknown>> = await qb.execute('all', false);
  return rows.map(shapeOf(em, entity).map as (row: Record<string, unknown>) => Row<E>);
}

/**
 * The row of an entity the ORM loaded (a service's answer), as rows read by SQL hold it: its
 * readable properties, each to-one relation as the related row's id.
 */
export function rowOf<E extends object>(em: EntityManager, entity: EntityClass<E>, loaded: E): Row<E> {
  const { all, references } = shapeOf(em, entity);
  const row: Record<string, unknown> = {};
  for (const name of all.props) {
    const value = (loaded as Record<string, unknown>)[name];
    // A reference is an entity (or its reference), but for one mapped to its key (organizationId).
    row[name] = references.has(name) && value !== null && typeof value === 'object' ? (value as { id: number }).id : value;
  }
  return row as Row<E>;
}

/** The rows of those of `related` (relations of loaded entities) the ORM has loaded; references alone and nulls are left out. */
export function loadedRows<E extends object>(em: EntityManager, entity: EntityClass<E>, related: ReadonlyArray<E | null | undefined>): Array<Row<E>> {
  return related.filter((e): e is E => e != null && wrap(e).isInitialized()).map((e) => rowOf(em, entity, e));
}

/**
 * The rows of `entity` whose ids are among `ids` (nulls and repeats skipped), by id: one statement
 * with the ORM's filters (the tenant's among them), none when there are no ids. For the rows a
 * read's rows refer to (a user's role and places), which REST and GraphQL both show.
 */
export async function rowsById<E extends { id: number }>(em: EntityManager, entity: EntityClass<E>, ids: Iterable<number | null>): Promise<Map<number, Row<E>>> {
  const wanted = [...new Set([...ids].filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await findRows(em, entity, { id: { $in: wanted } } as unknown as FilterQuery<E>);
  return new Map(rows.map((row) => [(row as unknown as { id: number }).id, row]));
}

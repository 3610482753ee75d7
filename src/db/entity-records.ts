import { ReferenceKind, type Collection, type EntityClass, type EntityMetadata, type EntityProperty, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A row of an entity's table as a plain object: the entity's properties by name, with the values
 * hydration would give them, and each to-one relation as the related row's id, or as its record
 * when the two were read together. Collections are absent, and so are hidden properties (secrets
 * and bookkeeping such as password and OTP hashes), which records never read, and the properties a
 * read's `RecordSelection` leaves out.
 */
export type EntityRecord<E> = {
  [K in keyof E]: E[K] extends Collection<infer _>
    ? never
    : E[K] extends { id: number } | null
      ? number | EntityRecord<NonNullable<E[K]>> | Extract<E[K], null>
      : E[K];
};

/**
 * The properties a read must give the records of each entity, by entity name, such as the fields a
 * GraphQL operation selects of each type. Records always hold their id and their to-one references
 * (what nested fields load from), and nothing else of an entity the selection does not name.
 */
export type RecordSelection = ReadonlyMap<string, ReadonlySet<string>>;
const NONE: ReadonlySet<string> = new Set();

/** The columns a record of one entity is read from. */
interface RecordColumns {
  /** Their properties. */
  props: string[];
  /** SQL for them as one JSON array, in their order, for a table alias. */
  json: (alias: string) => string;
  /** Turns such an array into a record. */
  fromJson: (values: unknown[]) => Record<string, unknown>;
}

/** What records of one entity need, worked out once from its metadata. */
interface RecordShape {
  /** Every property a record can hold: the entity's own columns and to-one references, less hidden ones. */
  all: RecordColumns;
  /** The columns of the properties `selected` and of the id and to-one references (worked out once per set). */
  of: (selected: ReadonlySet<string>) => RecordColumns;
  /** Maps a row's columns to the properties, with their values as hydration would give them. */
  map: (row: Record<string, unknown>) => Record<string, unknown>;
}
const shapes = new WeakMap<EntityMetadata, RecordShape>();

function shapeOf(em: EntityManager, entity: EntityClass<object>): RecordShape {
  const meta = em.getMetadata().get(entity.name);
  let shape = shapes.get(meta);
  if (shape) return shape;
  const persisted = meta.props.filter((p) => p.persist !== false && p.fieldNames?.length);
  const isColumn = (p: EntityProperty) =>
    p.kind === ReferenceKind.SCALAR || p.kind === ReferenceKind.MANY_TO_ONE || (p.kind === ReferenceKind.ONE_TO_ONE && p.owner);
  const readable = persisted.filter((p) => isColumn(p) && !p.hidden);
  const multiColumn = readable.find((p) => p.fieldNames.length !== 1);
  if (multiColumn) throw new Error(`records read properties of one column each; ${meta.className}.${multiColumn.name} has ${multiColumn.fieldNames.length}`);
  const bySelection = new WeakMap<ReadonlySet<string>, RecordColumns>();
  const driver = em.getDriver();
  const platform = em.getPlatform();
  // The driver renames columns to properties; custom types (decimals arrive as strings) are
  // converted by hydration, which records skip, so here.
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
  const columnsFor = (props: EntityProperty[]): RecordColumns => {
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
  };
  shapes.set(meta, shape);
  return shape;
}

/** The columns records of `entity` are read from: the ones `selection` asks for, or all without one. */
function columnsOf(em: EntityManager, entity: EntityClass<object>, selection: RecordSelection | undefined): RecordColumns {
  const shape = shapeOf(em, entity);
  return selection ? shape.of(selection.get(entity.name) ?? NONE) : shape.all;
}

/**
 * SQL for a row of `entity` (table alias `alias`) as a JSON array of its columns, less its hidden
 * ones and those `selection` leaves out: for statements that read several tables' rows at once, to
 * be turned into records by `recordMapper` of the same selection.
 */
export function recordJson(em: EntityManager, entity: EntityClass<object>, alias: string, selection?: RecordSelection): string {
  return columnsOf(em, entity, selection).json(alias);
}

/**
 * Turns rows of an entity's table, as `recordJson` of the same selection writes them, into records.
 * For reads that only show data, above all GraphQL's nested fields: hydrating a MikroORM entity
 * costs tens of microseconds (it registers the entity and defines accessors on it), which made an
 * order page with its lines, variants and products spend half its time there (bench/, GraphQL
 * nested page). Tenancy is the caller's: rows must come from a statement confined to the workspace.
 */
export function recordMapper<E extends object>(
  em: EntityManager,
  entity: EntityClass<E>,
  selection?: RecordSelection,
): (values: unknown[]) => EntityRecord<E> {
  return columnsOf(em, entity, selection).fromJson as (values: unknown[]) => EntityRecord<E>;
}

/**
 * An entity's rows matching `where` as records (of the properties `selection` asks for), read in one
 * statement with the ORM's filters (the tenant's among them) applied.
 */
export async function findRecords<E extends object>(
  em: EntityManager,
  entity: EntityClass<E>,
  where: FilterQuery<E>,
  options: { orderBy?: QueryOrderMap<E>; selection?: RecordSelection } = {},
): Promise<Array<EntityRecord<E>>> {
  const { orderBy, selection } = options;
  const qb = em
    .createQueryBuilder(entity)
    .select(columnsOf(em, entity, selection).props as never)
    .where(where as never);
  if (orderBy) qb.orderBy(orderBy as never);
  await qb.applyFilters();
  const rows: Array<Record<string, unknown>> = await qb.execute('all', false);
  return rows.map(shapeOf(em, entity).map as (row: Record<string, unknown>) => EntityRecord<E>);
}

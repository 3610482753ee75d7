import { ReferenceKind, type Collection, type EntityClass, type EntityMetadata, type EntityProperty, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A row of an entity's table as a plain object: the entity's properties by name, with the values
 * hydration would give them, and each to-one relation as the related row's id, or as its record
 * when the two were read together. Collections are absent, and so are hidden properties (secrets
 * and bookkeeping such as password and OTP hashes), which records never read.
 */
export type EntityRecord<E> = {
  [K in keyof E]: E[K] extends Collection<infer _>
    ? never
    : E[K] extends { id: number } | null
      ? number | EntityRecord<NonNullable<E[K]>> | Extract<E[K], null>
      : E[K];
};

/** The properties a record holds: the entity's own columns and to-one references, less hidden ones. */
function recordProps(meta: EntityMetadata): EntityProperty[] {
  const column = (p: EntityProperty) =>
    p.kind === ReferenceKind.SCALAR || p.kind === ReferenceKind.MANY_TO_ONE || (p.kind === ReferenceKind.ONE_TO_ONE && p.owner);
  return meta.props.filter((p) => column(p) && p.persist !== false && !p.hidden && p.fieldNames?.length);
}

/** The hidden columns of an entity's table, which records leave out. */
function hiddenColumns(meta: EntityMetadata): string[] {
  return meta.props.filter((p) => p.hidden && p.persist !== false).flatMap((p) => p.fieldNames ?? []);
}

/**
 * SQL for a row of `entity` (table alias `alias`) as JSON, less its hidden columns: for statements
 * that read several tables' rows at once, to be turned into records by `recordMapper`.
 */
export function recordJson(em: EntityManager, entity: EntityClass<object>, alias: string): string {
  const hidden = hiddenColumns(em.getMetadata().get(entity.name));
  return `(to_jsonb(${alias})${hidden.map((column) => ` - '${column}'`).join('')})`;
}

/** Maps a row's columns to an entity's properties, with their values as hydration would give them. */
type RowMapper = (row: Record<string, unknown>) => Record<string, unknown>;
const mappers = new WeakMap<EntityMetadata, RowMapper>();

function mapperOf(em: EntityManager, meta: EntityMetadata): RowMapper {
  let map = mappers.get(meta);
  if (map) return map;
  const driver = em.getDriver();
  const platform = em.getPlatform();
  // The driver renames columns to properties; custom types (decimals arrive as strings) are
  // converted by hydration, which records skip, so here.
  const typed = meta.props.filter((p) => p.kind === ReferenceKind.SCALAR && p.customType);
  map = (row) => {
    const record = driver.mapResult(row, meta) as Record<string, unknown>;
    for (const prop of typed) {
      const value = record[prop.name];
      if (value != null) record[prop.name] = prop.customType!.convertToJSValue(value, platform);
    }
    return record;
  };
  mappers.set(meta, map);
  return map;
}

/**
 * Turns rows of an entity's table, as the database sends them (as `findRecords` selects them, or
 * as `recordJson` writes them), into records. For reads that only show data, above all GraphQL's nested fields: hydrating a
 * MikroORM entity costs tens of microseconds (it registers the entity and defines accessors on
 * it), which made an order page with its lines, variants and products spend half its time there
 * (bench/, GraphQL nested page). Tenancy is the caller's: rows must come from a statement confined
 * to the workspace.
 */
export function recordMapper<E extends object>(em: EntityManager, entity: EntityClass<E>): (row: Record<string, unknown>) => EntityRecord<E> {
  return mapperOf(em, em.getMetadata().get(entity.name)) as (row: Record<string, unknown>) => EntityRecord<E>;
}

/** An entity's rows matching `where` as records, read in one statement with the ORM's filters (the tenant's among them) applied. */
export async function findRecords<E extends object>(
  em: EntityManager,
  entity: EntityClass<E>,
  where: FilterQuery<E>,
  orderBy?: QueryOrderMap<E>,
): Promise<Array<EntityRecord<E>>> {
  const meta = em.getMetadata().get(entity.name);
  const qb = em
    .createQueryBuilder(entity)
    .select(recordProps(meta).map((p) => p.name) as never)
    .where(where as never);
  if (orderBy) qb.orderBy(orderBy as never);
  await qb.applyFilters();
  const rows: Array<Record<string, unknown>> = await qb.execute('all', false);
  return rows.map(recordMapper(em, entity));
}

import type { EntityManager, MetadataStorage, MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { DatabaseSchema, SqlSchemaGenerator, type ForeignKey } from '@mikro-orm/postgresql';
import { TenantEntity } from './tenant.entity';

/*
 * The database holds tenancy too: every reference between two tenant-owned tables is a composite
 * foreign key (organization_id, x_id) → (organization_id, id), so a row can only name a row of its
 * own workspace whatever the code writes (and the tables are shaped as a distributed PostgreSQL
 * such as Citus co-locates them, by organization_id). The target of each such key is the
 * `unique (organization_id, id)` every tenant-owned table has (declared on TenantEntity).
 *
 * MikroORM 6 cannot declare these keys on the entities: a ManyToOne's join columns must match its
 * target's primary key (here `id` alone), and organization_id is already the entity's own
 * property, which a relation cannot share. So the entities keep their one-column relations (the
 * ORM reads and writes through them as before), and the schema generator below turns each
 * relation's foreign key into the composite one when it builds the schema the entities describe.
 * Schema diffs (`migration:create`, the migrations test that compares entities with the migrated
 * database) then see the keys the migrations created, and never propose to undo them.
 */

/** Short names of the tables of tenant-owned entities. */
function tenantTables(metadata: MetadataStorage): Set<string> {
  const tables = new Set<string>();
  for (const meta of Object.values(metadata.getAll())) {
    if (!meta.abstract && meta.class?.prototype instanceof TenantEntity) tables.add(meta.tableName);
  }
  return tables;
}

const shortName = (table: string) => table.slice(table.lastIndexOf('.') + 1);

/**
 * A relation's one-column key as its composite form. ON DELETE CASCADE stays; anything else
 * (MikroORM's SET NULL of nullable relations included) is NO ACTION: the service deletes none of
 * the rows such references name, an audit reference must not vanish quietly, and SET NULL of one
 * column of the key would need PostgreSQL 15 (see Migration20261123000000). ON UPDATE is NO ACTION: ids and organizations never change, and a cascade would move the
 * referencing rows to another workspace along with the row they name.
 */
export function compositeTenantKey(fk: ForeignKey): ForeignKey {
  const [column] = fk.columnNames;
  const deleteRule = fk.deleteRule?.toLowerCase();
  return {
    ...fk,
    columnNames: ['organization_id', column],
    referencedColumnNames: ['organization_id', ...fk.referencedColumnNames],
    updateRule: 'no action',
    deleteRule: deleteRule === 'cascade' ? 'cascade' : 'no action',
  };
}

/** Rewrites the foreign keys between tenant-owned tables of a schema built from the entities. */
export function withCompositeTenantKeys(schema: DatabaseSchema, tenant: Set<string>): DatabaseSchema {
  for (const table of schema.getTables()) {
    if (!tenant.has(table.name)) continue;
    const keys = table.getForeignKeys();
    for (const [name, fk] of Object.entries(keys)) {
      if (fk.columnNames.length !== 1 || !tenant.has(shortName(fk.referencedTableName))) continue;
      keys[name] = compositeTenantKey(fk);
    }
  }
  return schema;
}

const SCHEMA_GENERATOR = '@mikro-orm/schema-generator';

/** The SQL schema generator, with the composite tenant keys in the schema the entities describe. */
export class TenantSchemaGenerator extends SqlSchemaGenerator {
  static override register(orm: MikroORM): void {
    orm.config.registerExtension(SCHEMA_GENERATOR, () => new TenantSchemaGenerator(orm.em));
    // MikroORM.init() connects (ensureDatabase) before it registers the configured extensions, and
    // that caches the default generator: drop it, or `orm.schema` would go on serving it.
    (orm.config as unknown as { cache: Map<string, unknown> }).cache.delete(SCHEMA_GENERATOR);
  }

  override getTargetSchema(schema?: string): DatabaseSchema {
    return withCompositeTenantKeys(super.getTargetSchema(schema), tenantTables(this.metadata));
  }
}

/** The migrator, diffing with TenantSchemaGenerator (MikroORM's own creates a plain one). */
export class TenantMigrator extends Migrator {
  constructor(em: EntityManager) {
    super(em as ConstructorParameters<typeof Migrator>[0]);
    // The field is private in the typings; it is what `migration:create` diffs with.
    (this as unknown as { schemaGenerator: SqlSchemaGenerator }).schemaGenerator = new TenantSchemaGenerator(em);
  }

  static override register(orm: MikroORM): void {
    orm.config.registerExtension('@mikro-orm/migrator', () => new TenantMigrator(orm.em));
  }
}

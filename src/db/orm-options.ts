import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { TenantMigrator, TenantSchemaGenerator } from './tenant-schema';

/** MikroORM options for a database URL; shared by the service, the CLI config and the tests. */
export function ormOptions(clientUrl: string, overrides: Partial<Options> = {}): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    // Both build the schema with the composite tenant keys (tenant-schema.ts explains why).
    extensions: [TenantSchemaGenerator, TenantMigrator],
    migrations: {
      migrationsList: MIGRATIONS,
      path: 'src/db/migrations',
      pathTs: 'src/db/migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
    forceUtcTimezone: true,
    // Every tenant row carries its own organization_id, filtered on the root of each query, and a
    // reference never crosses workspaces (writes check it): joining each referenced table only to
    // filter it again costs a join per relation, and its planning, on every list.
    autoJoinRefsForFilters: false,
    allowGlobalContext: false,
    pool: { min: 0, max: 10 },
    ...overrides,
  });
}

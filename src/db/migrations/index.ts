import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121211825 } from './Migration20261121211825';

/** Every migration, oldest first; new ones are appended here when created. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121211825', class: Migration20261121211825 },
];

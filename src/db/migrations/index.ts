import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121211825 } from './Migration20261121211825';
import { Migration20261121220431 } from './Migration20261121220431';
import { Migration20261121235944 } from './Migration20261121235944';
import { Migration20261122004059 } from './Migration20261122004059';
import { Migration20261122013740 } from './Migration20261122013740';
import { Migration20261122014102 } from './Migration20261122014102';
import { Migration20261122015044 } from './Migration20261122015044';
import { Migration20261122020118 } from './Migration20261122020118';
import { Migration20261122030000 } from './Migration20261122030000';
import { Migration20261122031000 } from './Migration20261122031000';
import { Migration20261123000000 } from './Migration20261123000000';
import { Migration20261126100000 } from './Migration20261126100000';
import { Migration20261126110000 } from './Migration20261126110000';
import { Migration20261126120000 } from './Migration20261126120000';
import { Migration20261126130000 } from './Migration20261126130000';
import { Migration20261126140000 } from './Migration20261126140000';
import { Migration20261127060000 } from './Migration20261127060000';

/** Every migration, oldest first; new ones are appended here when created. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121211825', class: Migration20261121211825 },
  { name: 'Migration20261121220431', class: Migration20261121220431 },
  { name: 'Migration20261121235944', class: Migration20261121235944 },
  { name: 'Migration20261122004059', class: Migration20261122004059 },
  { name: 'Migration20261122013740', class: Migration20261122013740 },
  { name: 'Migration20261122014102', class: Migration20261122014102 },
  { name: 'Migration20261122015044', class: Migration20261122015044 },
  { name: 'Migration20261122020118', class: Migration20261122020118 },
  { name: 'Migration20261122030000', class: Migration20261122030000 },
  { name: 'Migration20261122031000', class: Migration20261122031000 },
  { name: 'Migration20261123000000', class: Migration20261123000000 },
  { name: 'Migration20261126100000', class: Migration20261126100000 },
  { name: 'Migration20261126110000', class: Migration20261126110000 },
  { name: 'Migration20261126120000', class: Migration20261126120000 },
  { name: 'Migration20261126130000', class: Migration20261126130000 },
  { name: 'Migration20261126140000', class: Migration20261126140000 },
  { name: 'Migration20261127060000', class: Migration20261127060000 },
];

import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { ormOptions } from './orm-options';

/** Opens the ORM on a database URL. */
export async function openOrm(databaseUrl: string, overrides: Partial<Options> = {}): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl, overrides));
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}

/** True when the database answers and no migration is pending (the readiness rule). */
export async function isDatabaseReady(orm: MikroORM): Promise<boolean> {
  try {
    const pending = await orm.getMigrator().getPendingMigrations();
    return pending.length === 0;
  } catch {
    return false;
  }
}

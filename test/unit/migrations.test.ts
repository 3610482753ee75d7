import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { migrate, openOrm } from '../../src/db/orm';
import { MIGRATIONS } from '../../src/db/migrations';
import { secretsFrom } from '../../src/secrets';
import { createEmptyDatabase, type TestDatabase } from '../helpers/database';

describe('migrations', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  beforeAll(async () => {
    db = await createEmptyDatabase();
    orm = await openOrm(db.url);
  });
  afterAll(async () => {
    await orm.close();
    await db.drop();
  });

  it('readiness is 503 before migrating, every migration applies on an empty database, then it is 200', async () => {
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      orm,
      secrets: secretsFrom('migration-test-secret'),
      silent: true,
    });
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    const applied = await migrate(orm);
    expect(applied).toEqual(MIGRATIONS.map((m) => m.name));
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(await migrate(orm)).toEqual([]); // idempotent
    await app.close();
  });

  it('the migrated schema matches the entities exactly (no drift between code and migrations)', async () => {
    const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});

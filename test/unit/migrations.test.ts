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

describe('the tenant keys migration checks the rows first', () => {
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

  it('a reference that crosses workspaces stops it, naming the row, and nothing changes', async () => {
    const index = MIGRATIONS.findIndex((m) => m.name === 'Migration20261123000000');
    const previous = MIGRATIONS[index - 1].name;
    // It and every later migration stay pending while it fails.
    const fromIt = MIGRATIONS.slice(index).map((m) => m.name);
    await orm.getMigrator().up({ to: previous });
    const conn = orm.em.fork().getConnection();
    const run = (text: string, params: unknown[] = []) => conn.execute<Array<{ id: number }>>(text, params);
    const org = async (slug: string) =>
      (await run(`insert into organization (workspace_id, slug, display_name) values (?, ?, ?) returning id`, [`ws_${slug}`, slug, slug]))[0].id;
    const [a, b] = [await org('alpha'), await org('beta')];
    const role = async (o: number) => (await run(`insert into role (organization_id, name) values (?, 'Retailer') returning id`, [o]))[0].id;
    const user = async (o: number, r: number, phone: string) =>
      (await run(
        `insert into app_user (organization_id, first_name, last_name, primary_contact_number, password_hash, role_id, user_type) values (?, 'U', 'V', ?, 'x', ?, 3) returning id`,
        [o, phone, r],
      ))[0].id;
    const customerOfA = await user(a, await role(a), '9000000001');
    await user(b, await role(b), '9000000002');
    // B's order names A's customer: the one-column key of the time accepts it.
    const [order] = await run(
      `insert into sales_order (organization_id, order_code, order_date, customer_id, total_amount, items_count, delivery_otp_hash)
       values (?, 'ORD-1', current_date, ?, 1, 1, 'x') returning id`,
      [b, customerOfA],
    );
    // And a delivery names an endpoint that does not exist (no key at all until this migration).
    const [delivery] = await run(
      `insert into webhook_delivery (organization_id, webhook_id, event_id, event_type, event_data, event_at, status, max_attempts)
       values (?, 999, 'evt_1', 'order.created', '{}', now(), 'pending', 1) returning id`,
      [a],
    );

    const failed = await orm.getMigrator().up().then(
      () => null,
      (err: Error) => err,
    );
    expect(failed?.message).toContain(
      `sales_order id ${order.id} (organization ${b}): customer_id = ${customerOfA} is app_user id ${customerOfA} of organization ${a}`,
    );
    expect(failed?.message).toContain(`webhook_delivery id ${delivery.id} (organization ${a}): webhook_id = 999 names no webhook_endpoint row`);
    expect((await orm.getMigrator().getPendingMigrations()).map((m) => m.name)).toEqual(fromIt);
    const [unique] = await run(`select count(*)::int as id from pg_constraint where conname = 'app_user_organization_id_id_unique'`);
    expect(unique.id).toBe(0);

    // Once the rows are put right, it applies.
    await run('update sales_order set customer_id = (select id from app_user where organization_id = ?) where id = ?', [b, order.id]);
    await run('delete from webhook_delivery where id = ?', [delivery.id]);
    expect(await migrate(orm)).toEqual(fromIt);
  });
});

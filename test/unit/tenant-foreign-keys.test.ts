import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantEntity } from '../../src/db/tenant.entity';
import { TenantSchemaGenerator } from '../../src/db/tenant-schema';
import { createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { foreignKeys, query, tablesWithOrganization } from '../helpers/tenant-keys';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** One workspace's rows that the references below point at. */
interface Held {
  ws: Workspace;
  catalog: Catalog;
  orderId: number;
  unitId: number;
  webhookId: number;
  exportJobId: number;
}

describe('tenancy held by the database', () => {
  let t: TestApp;
  let url: string;
  let A: Held;
  let B: Held;

  const one = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => (await query<T>(url, text, params))[0];

  async function hold(): Promise<Held> {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const unit = await t.request({ method: 'POST', url: '/api/v1/masters/production-units', token: ws.token, payload: { production_unit_name: `Unit ${unique()}` } });
    expect(unit.statusCode, unit.body).toBe(201);
    const order = await placeOrder(t, ws.token, {
      user_id: catalog.distributorId,
      items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }],
      production_unit_id: unit.json().data.id,
    });
    const org = ws.organizationId;
    const webhook = await one<{ id: number }>(
      `insert into webhook_endpoint (organization_id, name, url, events) values ($1, 'ERP', 'https://erp.example.test', 'order.created') returning id`,
      [org],
    );
    const job = await one<{ id: number }>(
      `insert into export_job (organization_id, kind, format, filters, file_name) values ($1, 'orders', 'xlsx', '{}', 'orders.xlsx') returning id`,
      [org],
    );
    return { ws, catalog, orderId: order.id, unitId: unit.json().data.id, webhookId: webhook.id, exportJobId: job.id };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    url = t.db.url;
    A = await hold();
    B = await hold();
  });
  afterAll(() => t?.close());

  const tenantTables = () =>
    Object.values(t.orm.getMetadata().getAll())
      .filter((meta) => !meta.abstract && meta.class?.prototype instanceof TenantEntity)
      .map((meta) => meta.tableName)
      .sort();

  it('the tables with organization_id are exactly those of the tenant-owned entities', async () => {
    expect(await tablesWithOrganization(url)).toEqual(tenantTables());
  });

  it('every tenant-owned table has unique (organization_id, id)', async () => {
    for (const table of tenantTables()) {
      const found = await query(
        url,
        `select 1 from pg_constraint c
          where c.conrelid = $1::regclass and c.contype in ('u', 'p')
            and array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i)
                = array['organization_id', 'id']`,
        [table],
      );
      expect(found, `${table} lacks unique (organization_id, id)`).toHaveLength(1);
    }
  });

  it('every foreign key between tenant-owned tables is (organization_id, x_id) → (organization_id, id); keys to organization are (organization_id)', async () => {
    const tenant = new Set(tenantTables());
    const between = [];
    for (const fk of await foreignKeys(url)) {
      if (!tenant.has(fk.table)) continue;
      if (fk.target === 'organization') {
        expect(fk.columns, fk.name).toEqual(['organization_id']);
        continue;
      }
      expect(tenant.has(fk.target), `${fk.name} references ${fk.target}, which is not tenant-owned`).toBe(true);
      between.push(fk.name);
      expect(fk.columns, `${fk.name} lacks organization_id`).toHaveLength(2);
      expect(fk.columns[0], `${fk.name} lacks organization_id`).toBe('organization_id');
      expect(fk.targetColumns, fk.name).toEqual(['organization_id', 'id']);
      // CASCADE or NO ACTION only: SET NULL of the whole key would null organization_id.
      expect(fk.definition, fk.name).not.toMatch(/SET NULL|SET DEFAULT/);
      expect(fk.definition, fk.name).not.toMatch(/ON UPDATE/); // NO ACTION: a cascade would move rows between workspaces
    }
    expect(between.length).toBeGreaterThanOrEqual(30);
  });

  it('every to-one relation between tenant-owned entities has its composite key', async () => {
    const keys = new Set((await foreignKeys(url)).map((fk) => `${fk.table}.${fk.columns.join(',')}`));
    for (const meta of Object.values(t.orm.getMetadata().getAll())) {
      if (meta.abstract || !(meta.class?.prototype instanceof TenantEntity)) continue;
      for (const prop of meta.relations) {
        if (prop.kind !== 'm:1' || !(prop.targetMeta?.class.prototype instanceof TenantEntity)) continue;
        expect(keys.has(`${meta.tableName}.organization_id,${prop.fieldNames[0]}`), `${meta.className}.${prop.name}`).toBe(true);
      }
    }
  });

  describe("a reference to another workspace's row, written in SQL, is a foreign-key violation", () => {
    const cases: Array<[string, (from: Held, to: Held) => [string, unknown[]]]> = [
      [
        'sales_order.customer_id (insert)',
        (from, to) => [
          `insert into sales_order (organization_id, order_code, order_date, customer_id, total_amount, items_count, delivery_otp_hash)
           values ($1, $3, current_date, $2, 1, 1, 'x')`,
          [from.ws.organizationId, to.catalog.distributorId, `X-${unique()}`],
        ],
      ],
      ['sales_order.customer_id (update)', (from, to) => ['update sales_order set customer_id = $2 where id = $1', [from.orderId, to.catalog.retailerId]]],
      ['sales_order.production_unit_id (update)', (from, to) => ['update sales_order set production_unit_id = $2 where id = $1', [from.orderId, to.unitId]]],
      [
        'order_item.product_variant_id',
        (from, to) => [
          'insert into order_item (organization_id, order_id, product_variant_id, quantity, unit_price, amount) values ($1, $2, $3, 1, 1, 1)',
          [from.ws.organizationId, from.orderId, to.catalog.variantIds[0]],
        ],
      ],
      [
        'payment.order_id',
        (from, to) => [
          // The order's customer, whichever workspace it is in (payment.customer_id is NOT NULL).
          `insert into payment (organization_id, order_id, customer_id, amount, mode_of_payment, paid_at)
           values ($1, $2, (select o.customer_id from sales_order o where o.id = $2), 1, 'cash', now())`,
          [from.ws.organizationId, to.orderId],
        ],
      ],
      [
        'payment.customer_id (on account)',
        (from, to) => [
          `insert into payment (organization_id, customer_id, amount, mode_of_payment, paid_at) values ($1, $2, 1, 'cash', now())`,
          [from.ws.organizationId, to.catalog.distributorId],
        ],
      ],
      [
        'product.product_class_id',
        (from, to) => [`insert into product (organization_id, name, product_class_id) values ($1, $3, $2)`, [from.ws.organizationId, to.catalog.productClassId, `P ${unique()}`]],
      ],
      ['app_user.role_id', (from, to) => ['update app_user set role_id = $2 where id = $1', [from.catalog.retailerId, to.ws.roles.Retailer]]],
      [
        'webhook_delivery.webhook_id',
        (from, to) => [
          `insert into webhook_delivery (organization_id, webhook_id, event_id, event_type, event_data, event_at, status, max_attempts)
           values ($1, $2, 'evt_x', 'order.created', '{}', now(), 'pending', 1)`,
          [from.ws.organizationId, to.webhookId],
        ],
      ],
      [
        'export_chunk.export_job_id',
        (from, to) => [`insert into export_chunk (organization_id, export_job_id, seq, data) values ($1, $2, 0, '\\x00')`, [from.ws.organizationId, to.exportJobId]],
      ],
      [
        'order_status_history.changed_by_api_key_id',
        (from, to) => [
          `insert into order_status_history (organization_id, order_id, to_status, changed_by_api_key_id)
           values ($1, $2, 2, (select id from api_key where organization_id = $3 limit 1))`,
          [from.ws.organizationId, from.orderId, to.ws.organizationId],
        ],
      ],
    ];

    beforeAll(async () => {
      // An API key in each workspace, for the history case.
      for (const held of [A, B]) {
        await query(
          url,
          `insert into api_key (organization_id, name, key_hash, key_prefix, scopes) values ($1, 'k', md5(random()::text), 'sd_', 'read')`,
          [held.ws.organizationId],
        );
      }
    });

    it.each(cases)('%s', async (_name, statement) => {
      const [crossing, params] = statement(B, A);
      await expect(query(url, crossing, params)).rejects.toMatchObject({ code: '23503' });
      // The same statement within one workspace is accepted: the workspace is what is refused.
      const [own, ownParams] = statement(B, B);
      await expect(query(url, `with done as (${own} returning 1) select count(*)::int as n from done`, ownParams)).resolves.toEqual([{ n: 1 }]);
    });
  });

  it('deleting a row that orders name is refused (NO ACTION); the orders keep their reference', async () => {
    await expect(query(url, 'delete from production_unit where id = $1', [A.unitId])).rejects.toMatchObject({ code: '23503' });
    const order = await one<{ organization_id: number; production_unit_id: number | null }>(
      'select organization_id, production_unit_id from sales_order where id = $1',
      [A.orderId],
    );
    expect(order).toEqual({ organization_id: A.ws.organizationId, production_unit_id: A.unitId });
  });

  it("MikroORM's schema generator holds the composite keys too (migration:create and schema diffs keep them)", async () => {
    const generator = t.orm.getSchemaGenerator();
    expect(generator).toBeInstanceOf(TenantSchemaGenerator);
    const create = await generator.getCreateSchemaSQL({ wrap: false });
    expect(create).toContain(
      `alter table "sales_order" add constraint "sales_order_customer_id_foreign" foreign key ("organization_id", "customer_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`,
    );
    expect(create).toContain(
      `alter table "sales_order" add constraint "sales_order_town_id_foreign" foreign key ("organization_id", "town_id") references "town" ("organization_id", "id") on update no action on delete no action;`,
    );
    expect(create).not.toContain('set null');
    // That the migrated schema and the entities agree is the migrations test's (on a database without graphile-worker's schema).
  });
});

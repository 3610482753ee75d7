import { Migration } from '@mikro-orm/migrations';

/*
 * Tenancy held by the database: every tenant-owned table gets `unique (organization_id, id)`, and
 * every reference between tenant-owned tables becomes a composite foreign key
 * (organization_id, x_id) → (organization_id, id), so a row can only name a row of its own
 * workspace. References to `organization` itself stay as they are.
 *
 * Before anything changes, the existing rows are checked: a reference that crosses workspaces (or
 * names no row at all, for the five references that had no foreign key until now) stops the
 * migration with an error naming each such row, and nothing is changed. Such a row is a bug's
 * leftover that someone must look at; the migration does not guess which side is right.
 *
 * ON DELETE: CASCADE stays. A reference that cleared itself when the row it named was deleted
 * (SET NULL: who created a key, who recorded a payment, an order's town) is NO ACTION now, so
 * deleting that row is refused. The service never deletes those rows (users are deactivated, keys
 * revoked, masters kept), an audit reference should not vanish quietly, and clearing one column
 * of a composite key (`set null (x_id)`) would need PostgreSQL 15 while the service supports 14.
 * The lists below are this migration's own: later entity changes must not change what it did.
 */

type OnDelete = 'cascade' | 'set null' | 'no action';

/** [table, column, referenced table, ON DELETE of the one-column key before, had such a key]. */
const REFERENCES: ReadonlyArray<readonly [string, string, string, OnDelete, boolean]> = [
  ['product', 'product_class_id', 'product_class', 'no action', true],
  ['product_variant', 'product_id', 'product', 'no action', true],
  ['route', 'town_id', 'town', 'no action', true],
  ['outlet', 'town_id', 'town', 'no action', true],
  ['outlet', 'route_id', 'route', 'no action', true],
  ['app_user', 'role_id', 'role', 'no action', true],
  ['app_user', 'town_id', 'town', 'set null', true],
  ['app_user', 'route_id', 'route', 'set null', true],
  ['sign_in_code', 'user_id', 'app_user', 'cascade', true],
  ['passkey', 'user_id', 'app_user', 'cascade', true],
  ['sales_order', 'customer_id', 'app_user', 'no action', true],
  ['sales_order', 'town_id', 'town', 'set null', true],
  ['sales_order', 'route_id', 'route', 'set null', true],
  ['sales_order', 'production_unit_id', 'production_unit', 'set null', true],
  ['sales_order', 'created_by_user_id', 'app_user', 'set null', true],
  ['order_item', 'order_id', 'sales_order', 'cascade', true],
  ['order_item', 'product_variant_id', 'product_variant', 'no action', true],
  ['order_status_history', 'order_id', 'sales_order', 'cascade', true],
  ['order_status_history', 'changed_by_user_id', 'app_user', 'set null', true],
  ['order_status_history', 'changed_by_api_key_id', 'api_key', 'set null', false],
  ['attendance', 'user_id', 'app_user', 'cascade', true],
  ['api_key', 'created_by_user_id', 'app_user', 'set null', true],
  ['api_key', 'revoked_by_user_id', 'app_user', 'set null', true],
  ['payment', 'order_id', 'sales_order', 'cascade', true],
  ['payment', 'recorded_by_user_id', 'app_user', 'set null', true],
  ['payment', 'recorded_by_api_key_id', 'api_key', 'set null', false],
  ['export_job', 'requested_by_user_id', 'app_user', 'set null', false],
  ['export_job', 'requested_by_api_key_id', 'api_key', 'set null', false],
  ['export_chunk', 'export_job_id', 'export_job', 'cascade', true],
  ['webhook_delivery', 'webhook_id', 'webhook_endpoint', 'no action', false],
];

/** Every tenant-owned table (each has organization_id). */
const TENANT_TABLES = [
  'product_class', 'product', 'production_unit', 'product_variant', 'role', 'tenant_counter', 'town', 'route',
  'outlet', 'app_user', 'sign_in_code', 'passkey', 'sales_order', 'order_item', 'order_status_history',
  'attendance', 'api_key', 'payment', 'export_job', 'export_chunk', 'webhook_endpoint', 'webhook_delivery',
  'workspace_config',
];

/** How many offending rows of one reference the error lists (the count says how many there are). */
const LISTED_PER_REFERENCE = 20;

interface Offender {
  id: number;
  organization_id: number;
  ref: number;
  ref_organization_id: number | null;
  total: string;
}

const foreignKeyName = (table: string, column: string) => `${table}_${column}_foreign`;

export class Migration20261123000000 extends Migration {
  override async up(): Promise<void> {
    const problems: string[] = [];
    for (const [table, column, target] of REFERENCES) problems.push(...(await this.crossings(table, column, target)));
    if (problems.length > 0) {
      throw new Error(
        `Cannot enforce tenancy in the database: ${problems.length === 1 ? 'this row references' : 'these rows reference'} ` +
          `a row of another workspace, or no row. Correct or delete them, then migrate again:\n  ${problems.join('\n  ')}`,
      );
    }

    for (const table of TENANT_TABLES) {
      this.addSql(`alter table "${table}" add constraint "${table}_organization_id_id_unique" unique ("organization_id", "id");`);
    }
    for (const [table, column, target, onDelete, hadKey] of REFERENCES) {
      const name = foreignKeyName(table, column);
      if (hadKey) this.addSql(`alter table "${table}" drop constraint "${name}";`);
      const deleteRule = onDelete === 'cascade' ? 'cascade' : 'no action';
      this.addSql(
        `alter table "${table}" add constraint "${name}" foreign key ("organization_id", "${column}") ` +
          `references "${target}" ("organization_id", "id") on update no action on delete ${deleteRule};`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const [table, column, target, onDelete, hadKey] of REFERENCES) {
      const name = foreignKeyName(table, column);
      this.addSql(`alter table "${table}" drop constraint "${name}";`);
      if (hadKey) {
        this.addSql(
          `alter table "${table}" add constraint "${name}" foreign key ("${column}") references "${target}" ("id") on update cascade` +
            (onDelete === 'no action' ? ';' : ` on delete ${onDelete};`),
        );
      }
    }
    for (const table of TENANT_TABLES) this.addSql(`alter table "${table}" drop constraint "${table}_organization_id_id_unique";`);
  }

  /** The rows of `table` whose `column` names a row of another workspace in `target`, or none. */
  private async crossings(table: string, column: string, target: string): Promise<string[]> {
    const rows = (await this.execute(
      `select c.id, c.organization_id, c."${column}" as ref, t.organization_id as ref_organization_id, count(*) over () as total
         from "${table}" c left join "${target}" t on t.id = c."${column}"
        where c."${column}" is not null and (t.id is null or t.organization_id <> c.organization_id)
        order by c.id limit ${LISTED_PER_REFERENCE}`,
    )) as Offender[];
    const lines = rows.map((r) =>
      r.ref_organization_id === null
        ? `${table} id ${r.id} (organization ${r.organization_id}): ${column} = ${r.ref} names no ${target} row`
        : `${table} id ${r.id} (organization ${r.organization_id}): ${column} = ${r.ref} is ${target} id ${r.ref} of organization ${r.ref_organization_id}`,
    );
    const total = Number(rows[0]?.total ?? 0);
    if (total > rows.length) lines.push(`${table}.${column}: ${total - rows.length} more such rows`);
    return lines;
  }
}

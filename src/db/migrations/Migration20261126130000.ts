import { Migration } from '@mikro-orm/migrations';

/*
 * Cancelled orders (issue 22): an order keeps its status and gains when, why and by whom (a user or
 * an API key) it was cancelled; its status history gains an entry marked as the cancellation. The
 * references are composite tenant keys, as Migration20261123000000 made every other one.
 * The dashboard's rollups leave a cancelled order out: the cancel subtracts its share in its own
 * transaction (src/domains/dashboard/rollup-reversal.ts), so nothing here recomputes them; no order
 * is cancelled before this migration.
 */
export class Migration20261126130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sales_order" add column "cancelled_at" timestamptz null, add column "cancel_reason" varchar(500) null, add column "cancelled_by_user_id" int null, add column "cancelled_by_api_key_id" int null;`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_cancelled_by_user_id_foreign" foreign key ("organization_id", "cancelled_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_cancelled_by_api_key_id_foreign" foreign key ("organization_id", "cancelled_by_api_key_id") references "api_key" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "order_status_history" add column "cancellation" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_status_history" drop column "cancellation";`);
    this.addSql(`alter table "sales_order" drop constraint "sales_order_cancelled_by_api_key_id_foreign";`);
    this.addSql(`alter table "sales_order" drop constraint "sales_order_cancelled_by_user_id_foreign";`);
    this.addSql(`alter table "sales_order" drop column "cancelled_at", drop column "cancel_reason", drop column "cancelled_by_user_id", drop column "cancelled_by_api_key_id";`);
  }
}

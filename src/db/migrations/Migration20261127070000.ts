import { Migration } from '@mikro-orm/migrations';

/*
 * An order is the outcome of at most one visit: two visits naming the same order would count it
 * as two productive calls (beat productivity, sales plan).
 */
export class Migration20261127070000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "visit" add constraint "visit_organization_id_order_id_unique" unique ("organization_id", "order_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "visit" drop constraint "visit_organization_id_order_id_unique";`);
  }
}

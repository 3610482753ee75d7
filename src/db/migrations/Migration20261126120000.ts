import { Migration } from '@mikro-orm/migrations';

/*
 * Export kinds are declared by the domains (each module's `exports`), so `export_job.kind` is
 * checked by the exports catalog, not by a list in the database that every new kind would change.
 */
export class Migration20261126120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "export_job" drop constraint "export_job_kind_check";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "export_job" add constraint "export_job_kind_check" check ("kind" in ('orders', 'users', 'sales'));`);
  }
}

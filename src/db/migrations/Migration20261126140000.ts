import { Migration } from '@mikro-orm/migrations';

/* Exports are written as CSV too (issue 22): `export_job.format` takes 'csv'. */
export class Migration20261126140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "export_job" drop constraint "export_job_format_check";`);
    this.addSql(`alter table "export_job" add constraint "export_job_format_check" check ("format" in ('xlsx', 'pdf', 'csv'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "export_job" drop constraint "export_job_format_check";`);
    this.addSql(`alter table "export_job" add constraint "export_job_format_check" check ("format" in ('xlsx', 'pdf'));`);
  }
}

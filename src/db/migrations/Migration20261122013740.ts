import { Migration } from '@mikro-orm/migrations';

export class Migration20261122013740 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "workspace_config" add column "time_zone" varchar(64) not null default 'UTC';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "workspace_config" drop column "time_zone";`);
  }

}

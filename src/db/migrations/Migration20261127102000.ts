import { Migration } from '@mikro-orm/migrations';

/*
 * webhook_endpoint.events as text: the comma-separated list of every event the domains emit passed
 * 200 characters with the FOC events (issue 24), and subscribing to all of them failed.
 */
export class Migration20261127102000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" alter column "events" type text using ("events"::text);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" alter column "events" type varchar(200) using ("events"::varchar(200));`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/*
 * "Scheme started" notifications (issue 25): scheme.announced_at, stamped when the
 * announce_started_schemes task has told the customers in the scheme's scope, so each scheme is
 * announced once (the task looks at schemes that started in the last week only).
 */
export class Migration20261128140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "scheme" add column "announced_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "scheme" drop column "announced_at";`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/*
 * A crate movement's ledger entry (issue 24: a damage or loss charged at the crate type's deposit
 * value, or that charge's reversal) as a composite tenant key into ledger_entry.
 */
export class Migration20261127121000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_ledger_entry_id_foreign" foreign key ("organization_id", "ledger_entry_id") references "ledger_entry" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "crate_movement" drop constraint "crate_movement_ledger_entry_id_foreign";`);
  }
}

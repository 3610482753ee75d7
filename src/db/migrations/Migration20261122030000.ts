import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "product_variant" add column "unit_quantity" numeric(12,3) not null default 1;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "product_variant" drop column "unit_quantity";`);
  }

}

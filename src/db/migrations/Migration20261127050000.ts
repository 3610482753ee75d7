import { Migration } from '@mikro-orm/migrations';

/* Sales plan (issue 23): employees' targets per month or quarter, optionally per product class. */
export class Migration20261127050000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "sales_target" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "period_type" smallint not null, "period_start" date not null, "period_end" date not null, "product_class_id" int null, "target_amount" numeric(14,2) null, "target_quantity" int null, "target_productive_calls" int null, "target_outlets" int null);`);
    this.addSql(`create index "sales_target_organization_id_period_start_index" on "sales_target" ("organization_id", "period_start");`);
    this.addSql(`alter table "sales_target" add constraint "sales_target_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`create unique index "sales_target_user_period_class_unique" on "sales_target" ("organization_id", "user_id", "period_type", "period_start", coalesce("product_class_id", 0));`);

    this.addSql(`alter table "sales_target" add constraint "sales_target_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sales_target" add constraint "sales_target_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "sales_target" add constraint "sales_target_product_class_id_foreign" foreign key ("organization_id", "product_class_id") references "product_class" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sales_target" cascade;`);
  }

}

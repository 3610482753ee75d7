import { Migration } from '@mikro-orm/migrations';

/** Schemes: the scheme table, its budget's consumption ledger (scheme_use), and order lines' discount and free-goods scheme. */
export class Migration20261127110000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "scheme" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "code" varchar(40) not null, "kind" smallint not null, "target_kind" smallint not null, "target_id" int not null, "scope" smallint not null, "scope_ids" jsonb not null, "valid_from" date not null, "valid_to" date null, "priority" int not null default 0, "stackable" boolean not null default false, "budget_kind" smallint null, "budget" numeric(14,2) null, "status" smallint not null default 1, "slabs" jsonb not null);`);
    this.addSql(`create index "scheme_organization_id_status_valid_from_index" on "scheme" ("organization_id", "status", "valid_from");`);
    this.addSql(`alter table "scheme" add constraint "scheme_organization_id_code_unique" unique ("organization_id", "code");`);
    this.addSql(`alter table "scheme" add constraint "scheme_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "scheme" add constraint "scheme_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "scheme_use" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "scheme_id" int not null, "order_id" int not null, "amount" numeric(14,2) not null, "units" int not null, "reversal" boolean not null default false);`);
    this.addSql(`create index "scheme_use_organization_id_scheme_id_index" on "scheme_use" ("organization_id", "scheme_id");`);
    this.addSql(`create index "scheme_use_organization_id_order_id_index" on "scheme_use" ("organization_id", "order_id");`);
    this.addSql(`alter table "scheme_use" add constraint "scheme_use_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "scheme_use" add constraint "scheme_use_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scheme_use" add constraint "scheme_use_scheme_id_foreign" foreign key ("organization_id", "scheme_id") references "scheme" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "scheme_use" add constraint "scheme_use_order_id_foreign" foreign key ("organization_id", "order_id") references "sales_order" ("organization_id", "id") on update no action on delete cascade;`);

    this.addSql(`alter table "order_item" add column "discount_amount" numeric(14,2) not null default 0, add column "scheme_id" int null;`);
    this.addSql(`alter table "order_item" add constraint "order_item_scheme_id_foreign" foreign key ("organization_id", "scheme_id") references "scheme" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_item" drop constraint "order_item_scheme_id_foreign";`);
    this.addSql(`alter table "order_item" drop column "discount_amount", drop column "scheme_id";`);
    this.addSql(`drop table if exists "scheme_use" cascade;`);
    this.addSql(`drop table if exists "scheme" cascade;`);
  }

}

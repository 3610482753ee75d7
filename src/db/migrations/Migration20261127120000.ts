import { Migration } from '@mikro-orm/migrations';

/**
 * Crate types (a master) and the crate ledger. crate_movement is append-only: a trigger refuses
 * every UPDATE, and a DELETE unless a cascade runs it (a workspace being removed), so a balance,
 * the sum of a customer's rows, can only change by a new row. ledger_entry_id has no foreign key
 * yet: the customer ledger's table is added by its own migration, which adds the key.
 */
export class Migration20261127120000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "crate_type" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "status" smallint not null default 1, "deposit_value" numeric(12,2) not null default 0);`);
    this.addSql(`alter table "crate_type" add constraint "crate_type_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "crate_type" add constraint "crate_type_organization_id_name_unique" unique ("organization_id", "name");`);

    this.addSql(`create table "crate_movement" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "crate_type_id" int not null, "customer_id" int not null, "kind" smallint not null, "quantity" int not null, "order_id" int null, "reverses_id" int null, "occurred_at" timestamptz not null, "note" varchar(500) null, "recorded_by_user_id" int null, "recorded_by_api_key_id" int null, "ledger_entry_id" int null, constraint crate_movement_quantity_check check (quantity <> 0));`);
    this.addSql(`create index "crate_movement_organization_id_order_id_index" on "crate_movement" ("organization_id", "order_id");`);
    this.addSql(`create index "crate_movement_organization_id_crate_type_id_index" on "crate_movement" ("organization_id", "crate_type_id");`);
    this.addSql(`create index "crate_movement_organization_id_occurred_at_index" on "crate_movement" ("organization_id", "occurred_at");`);
    this.addSql(`create index "crate_movement_organization_id_customer_id_crate_t_46f60_index" on "crate_movement" ("organization_id", "customer_id", "crate_type_id", "occurred_at");`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_organization_id_reverses_id_unique" unique ("organization_id", "reverses_id");`);

    this.addSql(`alter table "crate_type" add constraint "crate_type_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "crate_movement" add constraint "crate_movement_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_crate_type_id_foreign" foreign key ("organization_id", "crate_type_id") references "crate_type" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_customer_id_foreign" foreign key ("organization_id", "customer_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_order_id_foreign" foreign key ("organization_id", "order_id") references "sales_order" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_reverses_id_foreign" foreign key ("organization_id", "reverses_id") references "crate_movement" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_recorded_by_user_id_foreign" foreign key ("organization_id", "recorded_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "crate_movement" add constraint "crate_movement_recorded_by_api_key_id_foreign" foreign key ("organization_id", "recorded_by_api_key_id") references "api_key" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`create function crate_movement_append_only() returns trigger language plpgsql as $$
      begin
        -- pg_trigger_depth() > 1: the DELETE comes from a foreign key's cascade (the workspace is being removed).
        if tg_op = 'DELETE' and pg_trigger_depth() > 1 then return old; end if;
        raise exception 'crate_movement rows are append-only: record a reversal instead' using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger crate_movement_append_only before update or delete on "crate_movement" for each row execute function crate_movement_append_only();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists crate_movement_append_only on "crate_movement";`);
    this.addSql(`drop function if exists crate_movement_append_only();`);
    this.addSql(`alter table "crate_movement" drop constraint "crate_movement_crate_type_id_foreign";`);

    this.addSql(`alter table "crate_movement" drop constraint "crate_movement_reverses_id_foreign";`);

    this.addSql(`drop table if exists "crate_type" cascade;`);

    this.addSql(`drop table if exists "crate_movement" cascade;`);
  }

}

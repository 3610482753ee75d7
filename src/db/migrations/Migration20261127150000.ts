import { Migration } from '@mikro-orm/migrations';

/**
 * The price history of variants (variant_price): append-only versions of a variant's selling price
 * and MRP, each in force from a local day of the workspace. A trigger refuses every UPDATE, and a
 * DELETE unless a cascade runs it (a workspace or a variant being removed). Every existing variant gets one
 * opening row (source 3) with its current prices, effective from the local day it was created,
 * so the history is complete from the start. import_id names the rate-list import (import_job)
 * that wrote a version.
 */
export class Migration20261127150000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "variant_price" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "variant_id" int not null, "sp" numeric(12,2) not null, "mrp" numeric(12,2) not null, "effective_from" date not null, "source" smallint not null, "import_id" int null, "created_by_user_id" int null, "created_by_api_key_id" int null, constraint variant_price_sp_check check (sp >= 0 and sp <= mrp));`);
    this.addSql(`create index "variant_price_organization_id_import_id_index" on "variant_price" ("organization_id", "import_id");`);
    this.addSql(`create index "variant_price_organization_id_effective_from_index" on "variant_price" ("organization_id", "effective_from");`);
    this.addSql(`create index "variant_price_in_force_index" on "variant_price" ("organization_id", "variant_id", "effective_from", "id");`);
    this.addSql(`alter table "variant_price" add constraint "variant_price_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`alter table "variant_price" add constraint "variant_price_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "variant_price" add constraint "variant_price_variant_id_foreign" foreign key ("organization_id", "variant_id") references "product_variant" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "variant_price" add constraint "variant_price_created_by_user_id_foreign" foreign key ("organization_id", "created_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "variant_price" add constraint "variant_price_import_id_foreign" foreign key ("organization_id", "import_id") references "import_job" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "variant_price" add constraint "variant_price_created_by_api_key_id_foreign" foreign key ("organization_id", "created_by_api_key_id") references "api_key" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`create function variant_price_append_only() returns trigger language plpgsql as $$
      begin
        -- pg_trigger_depth() > 1: the DELETE comes from a foreign key's cascade (the workspace is being removed).
        if tg_op = 'DELETE' and pg_trigger_depth() > 1 then return old; end if;
        raise exception 'variant_price rows are append-only: write a new version instead' using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger variant_price_append_only before update or delete on "variant_price" for each row execute function variant_price_append_only();`);

    // The opening version of every variant: its prices now, from the local day it was created.
    this.addSql(`insert into "variant_price" ("organization_id", "variant_id", "sp", "mrp", "effective_from", "source", "created_at", "updated_at")
      select v.organization_id, v.id, least(v.sp, v.mrp), v.mrp, (v.created_at at time zone coalesce(c.time_zone, 'UTC'))::date, 3, v.created_at, v.created_at
        from "product_variant" v left join "workspace_config" c on c.organization_id = v.organization_id
       order by v.organization_id, v.id;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists variant_price_append_only on "variant_price";`);
    this.addSql(`drop function if exists variant_price_append_only();`);
    this.addSql(`drop table if exists "variant_price" cascade;`);
  }

}

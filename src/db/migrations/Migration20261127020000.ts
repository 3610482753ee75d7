import { Migration } from '@mikro-orm/migrations';

/*
 * Visits (issue 23): the `no_sale_reason` master, the `visit` record of a staff member's call on
 * an outlet, and the workspace's geo-verification settings `visit_radius_m` (default 100) and
 * `visit_min_dwell_minutes` (default 2). Every reference is a composite tenant key. The partial
 * unique index visit_one_open_per_user holds one in-progress visit (status 2) per user, and
 * unique (organization_id, client_ref) makes a re-sent check-in idempotent
 * (src/domains/visits/visit.entity.ts).
 */
export class Migration20261127020000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "no_sale_reason" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "status" smallint not null default 1);`);
    this.addSql(`alter table "no_sale_reason" add constraint "no_sale_reason_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "no_sale_reason" add constraint "no_sale_reason_organization_id_name_unique" unique ("organization_id", "name");`);
    this.addSql(`alter table "no_sale_reason" add constraint "no_sale_reason_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "visit" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "client_ref" uuid not null, "user_id" int not null, "outlet_id" int not null, "status" smallint not null default 2, "visit_date" date not null, "check_in_at" timestamptz not null, "check_in_device_time" timestamptz not null, "check_in_latitude" double precision not null, "check_in_longitude" double precision not null, "check_in_accuracy_m" real null, "check_in_is_mock" boolean null, "check_out_at" timestamptz null, "check_out_device_time" timestamptz null, "check_out_latitude" double precision null, "check_out_longitude" double precision null, "check_out_accuracy_m" real null, "check_out_is_mock" boolean null, "distance_from_outlet_m" real null, "dwell_seconds" int null, "geo_verified" boolean null, "radius_m" int null, "min_dwell_minutes" int null, "outcome" smallint null, "order_id" int null, "no_sale_reason_id" int null, "remarks" varchar(500) null);`);
    this.addSql(`alter table "visit" add constraint "visit_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "visit" add constraint "visit_organization_id_client_ref_unique" unique ("organization_id", "client_ref");`);
    this.addSql(`create index "visit_organization_id_visit_date_index" on "visit" ("organization_id", "visit_date");`);
    this.addSql(`create index "visit_organization_id_user_id_visit_date_index" on "visit" ("organization_id", "user_id", "visit_date");`);
    this.addSql(`create unique index "visit_one_open_per_user" on "visit" ("organization_id", "user_id") where "status" = 2;`);
    this.addSql(`alter table "visit" add constraint "visit_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "visit" add constraint "visit_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "visit" add constraint "visit_outlet_id_foreign" foreign key ("organization_id", "outlet_id") references "outlet" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "visit" add constraint "visit_order_id_foreign" foreign key ("organization_id", "order_id") references "sales_order" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "visit" add constraint "visit_no_sale_reason_id_foreign" foreign key ("organization_id", "no_sale_reason_id") references "no_sale_reason" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "workspace_config" add column "visit_radius_m" int not null default 100, add column "visit_min_dwell_minutes" int not null default 2;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "workspace_config" drop column "visit_radius_m", drop column "visit_min_dwell_minutes";`);
    this.addSql(`drop table if exists "visit" cascade;`);
    this.addSql(`drop table if exists "no_sale_reason" cascade;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261127030000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "beat_plan" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "route_id" int not null, "weekday" smallint not null, "frequency" smallint not null, "effective_from" date not null, "effective_to" date null, "status" smallint not null default 1, "revised_on" date not null);`);
    this.addSql(`create index "beat_plan_organization_id_route_id_index" on "beat_plan" ("organization_id", "route_id");`);
    this.addSql(`create index "beat_plan_organization_id_user_id_weekday_index" on "beat_plan" ("organization_id", "user_id", "weekday");`);
    this.addSql(`alter table "beat_plan" add constraint "beat_plan_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`create table "beat_plan_outlet" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "beat_plan_id" int not null, "outlet_id" int not null, "sequence" int not null);`);
    this.addSql(`alter table "beat_plan_outlet" add constraint "beat_plan_outlet_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "beat_plan_outlet" add constraint "beat_plan_outlet_organization_id_beat_plan_id_outlet_id_unique" unique ("organization_id", "beat_plan_id", "outlet_id");`);

    this.addSql(`create table "beat_plan_day" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "date" date not null, "beat_plan_id" int not null, "route_id" int not null, "frozen_at" timestamptz not null);`);
    this.addSql(`create index "beat_plan_day_organization_id_date_index" on "beat_plan_day" ("organization_id", "date");`);
    this.addSql(`alter table "beat_plan_day" add constraint "beat_plan_day_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "beat_plan_day" add constraint "beat_plan_day_organization_id_user_id_date_unique" unique ("organization_id", "user_id", "date");`);

    this.addSql(`create table "beat_plan_day_outlet" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "day_id" int not null, "outlet_id" int not null, "sequence" int not null);`);
    this.addSql(`alter table "beat_plan_day_outlet" add constraint "beat_plan_day_outlet_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "beat_plan_day_outlet" add constraint "beat_plan_day_outlet_organization_id_day_id_outlet_id_unique" unique ("organization_id", "day_id", "outlet_id");`);

    this.addSql(`alter table "beat_plan" add constraint "beat_plan_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "beat_plan" add constraint "beat_plan_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "beat_plan" add constraint "beat_plan_route_id_foreign" foreign key ("organization_id", "route_id") references "route" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "beat_plan_outlet" add constraint "beat_plan_outlet_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "beat_plan_outlet" add constraint "beat_plan_outlet_beat_plan_id_foreign" foreign key ("organization_id", "beat_plan_id") references "beat_plan" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "beat_plan_outlet" add constraint "beat_plan_outlet_outlet_id_foreign" foreign key ("organization_id", "outlet_id") references "outlet" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "beat_plan_day" add constraint "beat_plan_day_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "beat_plan_day" add constraint "beat_plan_day_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "beat_plan_day" add constraint "beat_plan_day_beat_plan_id_foreign" foreign key ("organization_id", "beat_plan_id") references "beat_plan" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "beat_plan_day" add constraint "beat_plan_day_route_id_foreign" foreign key ("organization_id", "route_id") references "route" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "beat_plan_day_outlet" add constraint "beat_plan_day_outlet_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "beat_plan_day_outlet" add constraint "beat_plan_day_outlet_day_id_foreign" foreign key ("organization_id", "day_id") references "beat_plan_day" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "beat_plan_day_outlet" add constraint "beat_plan_day_outlet_outlet_id_foreign" foreign key ("organization_id", "outlet_id") references "outlet" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "beat_plan_outlet" drop constraint "beat_plan_outlet_beat_plan_id_foreign";`);

    this.addSql(`alter table "beat_plan_day" drop constraint "beat_plan_day_beat_plan_id_foreign";`);

    this.addSql(`alter table "beat_plan_day_outlet" drop constraint "beat_plan_day_outlet_day_id_foreign";`);

    this.addSql(`drop table if exists "beat_plan" cascade;`);

    this.addSql(`drop table if exists "beat_plan_outlet" cascade;`);

    this.addSql(`drop table if exists "beat_plan_day" cascade;`);

    this.addSql(`drop table if exists "beat_plan_day_outlet" cascade;`);
  }

}

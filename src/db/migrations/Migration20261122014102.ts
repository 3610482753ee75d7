import { Migration } from '@mikro-orm/migrations';

export class Migration20261122014102 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "attendance" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "day" date not null, "check_in_at" timestamptz not null, "check_out_at" timestamptz null, "latitude" numeric(9,6) null, "longitude" numeric(9,6) null);`);
    this.addSql(`create index "attendance_organization_id_day_index" on "attendance" ("organization_id", "day");`);
    this.addSql(`alter table "attendance" add constraint "attendance_organization_id_user_id_day_unique" unique ("organization_id", "user_id", "day");`);

    this.addSql(`alter table "attendance" add constraint "attendance_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "attendance" add constraint "attendance_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "attendance" cascade;`);
  }

}

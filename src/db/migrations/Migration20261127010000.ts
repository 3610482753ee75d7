import { Migration } from '@mikro-orm/migrations';

export class Migration20261127010000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "leave_application" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "leave_type" smallint not null, "from_date" date not null, "to_date" date not null, "half_day" boolean not null default false, "days" numeric(4,1) not null, "reason" varchar(500) not null, "status" smallint not null default 1, "decided_by_user_id" int null, "decided_at" timestamptz null, "decision_note" varchar(500) null, "cancelled_at" timestamptz null);`);
    this.addSql(`create index "leave_application_organization_id_from_date_index" on "leave_application" ("organization_id", "from_date");`);
    this.addSql(`create index "leave_application_organization_id_user_id_from_date_index" on "leave_application" ("organization_id", "user_id", "from_date");`);
    this.addSql(`alter table "leave_application" add constraint "leave_application_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`alter table "leave_application" add constraint "leave_application_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "leave_application" add constraint "leave_application_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "leave_application" add constraint "leave_application_decided_by_user_id_foreign" foreign key ("organization_id", "decided_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "leave_application" cascade;`);
  }

}

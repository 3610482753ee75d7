import { Migration } from '@mikro-orm/migrations';

/**
 * Notifications (issue 25, research §14): the inbox (notification), device tokens per user, app and
 * platform (one row per token in a workspace; disabled_at once the push provider answers
 * UNREGISTERED), and per-user quiet hours (notification_preference, minutes of the workspace's day).
 */
export class Migration20261128100000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "notification_preference" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "quiet_start_minute" smallint null, "quiet_end_minute" smallint null, constraint notification_preference_quiet_check check ((quiet_start_minute is null) = (quiet_end_minute is null) and quiet_start_minute >= 0 and quiet_start_minute <= 1439 and quiet_end_minute >= 0 and quiet_end_minute <= 1439 and quiet_start_minute <> quiet_end_minute));`);
    this.addSql(`alter table "notification_preference" add constraint "notification_preference_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "notification_preference" add constraint "notification_preference_organization_id_user_id_unique" unique ("organization_id", "user_id");`);
    this.addSql(`create table "notification" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "type" varchar(40) not null, "title" varchar(200) not null, "body" varchar(2000) not null, "entity_type" varchar(40) null, "entity_id" int null, "read_at" timestamptz null, "pushed_at" timestamptz null);`);
    this.addSql(`create index "notification_unread_index" on "notification" ("organization_id", "user_id") where "read_at" is null;`);
    this.addSql(`create index "notification_organization_id_user_id_created_at_index" on "notification" ("organization_id", "user_id", "created_at");`);
    this.addSql(`alter table "notification" add constraint "notification_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`create table "device_token" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "app" varchar(20) not null, "platform" varchar(20) not null, "token" varchar(1000) not null, "last_seen_at" timestamptz not null default now(), "disabled_at" timestamptz null, "last_error" varchar(500) null);`);
    this.addSql(`create index "device_token_organization_id_user_id_index" on "device_token" ("organization_id", "user_id");`);
    this.addSql(`alter table "device_token" add constraint "device_token_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "device_token" add constraint "device_token_organization_id_token_unique" unique ("organization_id", "token");`);
    this.addSql(`alter table "notification_preference" add constraint "notification_preference_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "notification_preference" add constraint "notification_preference_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "notification" add constraint "notification_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "notification" add constraint "notification_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "device_token" add constraint "device_token_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_token" add constraint "device_token_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "device_token" cascade;`);
    this.addSql(`drop table if exists "notification" cascade;`);
    this.addSql(`drop table if exists "notification_preference" cascade;`);
  }

}

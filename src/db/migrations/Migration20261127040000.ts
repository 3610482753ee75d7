import { Migration } from '@mikro-orm/migrations';

/*
 * Live tracking (issue 23): the `user_position` breadcrumbs of staff devices (not `position`: an
 * SQL keyword, which PostgreSQL quotes in catalog output such as regclass), and the workspace's
 * `position_retention_days` (default 90) after which the cron task delete_old_positions deletes
 * them. The user reference is a composite tenant key, as Migration20261123000000 made every other
 * one. unique (organization_id, user_id, recorded_at) serves the live and trail reads and makes a
 * re-sent batch idempotent (src/domains/tracking/position.entity.ts).
 */
export class Migration20261127040000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "user_position" ("id" bigserial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "recorded_at" timestamptz not null, "received_at" timestamptz not null default now(), "latitude" double precision not null, "longitude" double precision not null, "accuracy_m" real null, "speed_mps" real null, "heading" real null, "battery_pct" smallint null, "is_charging" boolean null, "is_mock" boolean null);`);
    this.addSql(`alter table "user_position" add constraint "user_position_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "user_position" add constraint "user_position_organization_id_user_id_recorded_at_unique" unique ("organization_id", "user_id", "recorded_at");`);
    this.addSql(`alter table "user_position" add constraint "user_position_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_position" add constraint "user_position_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "workspace_config" add column "position_retention_days" int not null default 90;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "workspace_config" drop column "position_retention_days";`);
    this.addSql(`drop table if exists "user_position" cascade;`);
  }
}

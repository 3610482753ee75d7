import { Migration } from '@mikro-orm/migrations';

export class Migration20261122004059 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook_delivery" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "webhook_id" int not null, "event_id" varchar(40) not null, "event_type" varchar(40) not null, "event_data" json not null, "event_at" timestamptz not null, "status" varchar(10) not null, "attempts" int not null default 0, "max_attempts" int not null, "next_attempt_at" timestamptz null, "last_attempt_at" timestamptz null, "sent_at" timestamptz null, "response_status" int null, "response_body" text null, "duration_ms" int null, "last_error" text null, "lease_until" timestamptz null);`);
    this.addSql(`create index "webhook_delivery_organization_id_status_created_at_index" on "webhook_delivery" ("organization_id", "status", "created_at");`);
    this.addSql(`create index "webhook_delivery_organization_id_webhook_id_created_at_index" on "webhook_delivery" ("organization_id", "webhook_id", "created_at");`);

    this.addSql(`create table "webhook_endpoint" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(100) not null, "url" varchar(2048) not null, "secret_ciphertext" text null, "events" varchar(200) not null, "status" smallint not null default 1, "last_triggered_at" timestamptz null, "failure_count" int not null default 0, "deleted_at" timestamptz null);`);
    this.addSql(`create index "webhook_endpoint_organization_id_status_index" on "webhook_endpoint" ("organization_id", "status");`);

    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_endpoint" add constraint "webhook_endpoint_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_delivery" cascade;`);

    this.addSql(`drop table if exists "webhook_endpoint" cascade;`);
  }

}

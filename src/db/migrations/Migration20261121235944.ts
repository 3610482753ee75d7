import { Migration } from '@mikro-orm/migrations';

export class Migration20261121235944 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "api_key" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(100) not null, "key_hash" varchar(64) not null, "key_prefix" varchar(16) not null, "scopes" varchar(200) not null, "status" smallint not null default 1, "last_used_at" timestamptz null, "expires_at" timestamptz null, "created_by_user_id" int null, "revoked_at" timestamptz null, "revoked_by_user_id" int null);`);
    this.addSql(`alter table "api_key" add constraint "api_key_key_hash_unique" unique ("key_hash");`);
    this.addSql(`create index "api_key_organization_id_status_index" on "api_key" ("organization_id", "status");`);

    this.addSql(`alter table "api_key" add constraint "api_key_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "api_key" add constraint "api_key_created_by_user_id_foreign" foreign key ("created_by_user_id") references "app_user" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "api_key" add constraint "api_key_revoked_by_user_id_foreign" foreign key ("revoked_by_user_id") references "app_user" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "api_key" cascade;`);
  }

}

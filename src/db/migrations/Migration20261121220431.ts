import { Migration } from '@mikro-orm/migrations';

export class Migration20261121220431 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "spent_nonce" ("nonce" varchar(200) not null, "expires_at" timestamptz not null, constraint "spent_nonce_pkey" primary key ("nonce"));`);
    this.addSql(`create index "spent_nonce_expires_at_index" on "spent_nonce" ("expires_at");`);

    this.addSql(`create table "sign_in_code" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "purpose" text check ("purpose" in ('otp', 'magic_link', 'invite', 'password_reset', 'desktop')) not null, "code_hash" varchar(64) not null, "state_hash" varchar(64) null, "expires_at" timestamptz not null, "used_at" timestamptz null);`);
    this.addSql(`create index "sign_in_code_expires_at_index" on "sign_in_code" ("expires_at");`);
    this.addSql(`create unique index "sign_in_code_hash_unique" on "sign_in_code" ("code_hash");`);
    this.addSql(`create index "sign_in_code_organization_id_user_id_purpose_index" on "sign_in_code" ("organization_id", "user_id", "purpose");`);

    this.addSql(`create table "passkey" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "name" varchar(100) not null, "credential_id" varchar(1024) not null, "public_key" bytea not null, "sign_count" bigint not null, "transports" text[] not null, "backed_up" boolean not null default false, "last_used_at" timestamptz null);`);
    this.addSql(`create unique index "passkey_credential_id_unique" on "passkey" ("credential_id");`);
    this.addSql(`create index "passkey_organization_id_user_id_index" on "passkey" ("organization_id", "user_id");`);

    this.addSql(`alter table "sign_in_code" add constraint "sign_in_code_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sign_in_code" add constraint "sign_in_code_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "passkey" add constraint "passkey_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "passkey" add constraint "passkey_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "app_user" add column "failed_sign_ins" smallint not null default 0, add column "locked_until" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "spent_nonce" cascade;`);

    this.addSql(`drop table if exists "sign_in_code" cascade;`);

    this.addSql(`drop table if exists "passkey" cascade;`);

    this.addSql(`alter table "app_user" drop column "failed_sign_ins", drop column "locked_until";`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261127140000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "import_job" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "kind" varchar(40) not null, "status" text check ("status" in ('pending', 'running', 'succeeded', 'failed', 'partial', 'error')) not null default 'pending', "dry_run" boolean not null default false, "partial" boolean not null default false, "file_name" varchar(255) not null, "file_format" text check ("file_format" in ('csv', 'xlsx')) not null, "file_sha256" varchar(64) not null, "file_bytes" int not null, "headers" jsonb not null, "total_rows" int not null default 0, "processed_rows" int not null default 0, "valid_rows" int not null default 0, "failed_rows" int not null default 0, "inserted" int not null default 0, "updated" int not null default 0, "unchanged" int not null default 0, "error" text null, "created_by_user_id" int null, "created_by_api_key_id" int null, "started_at" timestamptz null, "finished_at" timestamptz null);`);
    this.addSql(`create index "import_job_organization_id_created_at_index" on "import_job" ("organization_id", "created_at");`);
    this.addSql(`alter table "import_job" add constraint "import_job_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`create table "import_failed_row" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "import_job_id" int not null, "row_number" int not null, "field" varchar(100) not null, "message" text not null, "values" jsonb not null);`);
    this.addSql(`create index "import_failed_row_organization_id_import_job_id_ro_71df2_index" on "import_failed_row" ("organization_id", "import_job_id", "row_number");`);
    this.addSql(`alter table "import_failed_row" add constraint "import_failed_row_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`create table "import_chunk" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "import_job_id" int not null, "seq" int not null, "data" bytea not null);`);
    this.addSql(`alter table "import_chunk" add constraint "import_chunk_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "import_chunk" add constraint "import_chunk_organization_id_import_job_id_seq_unique" unique ("organization_id", "import_job_id", "seq");`);

    this.addSql(`alter table "import_job" add constraint "import_job_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "import_job" add constraint "import_job_created_by_user_id_foreign" foreign key ("organization_id", "created_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "import_job" add constraint "import_job_created_by_api_key_id_foreign" foreign key ("organization_id", "created_by_api_key_id") references "api_key" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "import_failed_row" add constraint "import_failed_row_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "import_failed_row" add constraint "import_failed_row_import_job_id_foreign" foreign key ("organization_id", "import_job_id") references "import_job" ("organization_id", "id") on update no action on delete cascade;`);

    this.addSql(`alter table "import_chunk" add constraint "import_chunk_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "import_chunk" add constraint "import_chunk_import_job_id_foreign" foreign key ("organization_id", "import_job_id") references "import_job" ("organization_id", "id") on update no action on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "import_failed_row" drop constraint "import_failed_row_import_job_id_foreign";`);

    this.addSql(`alter table "import_chunk" drop constraint "import_chunk_import_job_id_foreign";`);

    this.addSql(`drop table if exists "import_job" cascade;`);

    this.addSql(`drop table if exists "import_failed_row" cascade;`);

    this.addSql(`drop table if exists "import_chunk" cascade;`);
  }

}

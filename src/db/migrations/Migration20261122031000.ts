import { Migration } from '@mikro-orm/migrations';

export class Migration20261122031000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "export_job" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "kind" text check ("kind" in ('orders', 'users', 'sales')) not null, "format" text check ("format" in ('xlsx', 'pdf')) not null, "filters" jsonb not null, "status" text check ("status" in ('queued', 'running', 'ready', 'failed')) not null default 'queued', "rows_done" int not null default 0, "rows_total" int null, "file_name" varchar(100) not null, "byte_size" int null, "error" text null, "requested_by_user_id" int null, "requested_by_api_key_id" int null, "started_at" timestamptz null, "finished_at" timestamptz null, "expires_at" timestamptz null);`);
    this.addSql(`create index "export_job_organization_id_created_at_index" on "export_job" ("organization_id", "created_at");`);

    this.addSql(`create table "export_chunk" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "export_job_id" int not null, "seq" int not null, "data" bytea not null);`);
    this.addSql(`alter table "export_chunk" add constraint "export_chunk_organization_id_export_job_id_seq_unique" unique ("organization_id", "export_job_id", "seq");`);

    this.addSql(`alter table "export_job" add constraint "export_job_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "export_chunk" add constraint "export_chunk_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "export_chunk" add constraint "export_chunk_export_job_id_foreign" foreign key ("export_job_id") references "export_job" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "export_chunk" drop constraint "export_chunk_export_job_id_foreign";`);

    this.addSql(`drop table if exists "export_job" cascade;`);

    this.addSql(`drop table if exists "export_chunk" cascade;`);
  }

}

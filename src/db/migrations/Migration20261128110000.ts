import { Migration } from '@mikro-orm/migrations';

/**
 * Grievances (issue 25): `grievance` (a customer's complaint with its SLA clocks, transitions,
 * breach-warning stamps and the credit note or FOC request its resolution issued) and
 * `grievance_photo` (bytes in bytea, or a file under UPLOAD_DIR); the workspace's deadlines
 * `grievance_ack_hours` (default 48) and `grievance_resolve_days` (default 30). Every reference is a
 * composite tenant key.
 */
export class Migration20261128110000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "workspace_config" add column "grievance_ack_hours" int not null default 48, add column "grievance_resolve_days" int not null default 30;`);

    this.addSql(`create table "grievance" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "customer_id" int not null, "raised_by_user_id" int null, "raised_via" smallint not null, "category" smallint not null, "order_id" int null, "description" varchar(2000) not null, "status" smallint not null default 1, "assignee_user_id" int null, "ack_due_at" timestamptz not null, "resolve_due_at" timestamptz not null, "acknowledged_at" timestamptz null, "resolved_at" timestamptz null, "closed_at" timestamptz null, "reopened_at" timestamptz null, "reopen_count" smallint not null default 0, "ack_warned_at" timestamptz null, "resolve_warned_at" timestamptz null, "resolution" varchar(2000) not null default '', "resolution_action" smallint not null default 0, "credit_note_entry_id" int null, "foc_request_id" int null);`);
    this.addSql(`create index "grievance_organization_id_status_index" on "grievance" ("organization_id", "status");`);
    this.addSql(`create index "grievance_organization_id_customer_id_index" on "grievance" ("organization_id", "customer_id");`);
    this.addSql(`create index "grievance_organization_id_created_at_index" on "grievance" ("organization_id", "created_at");`);
    this.addSql(`alter table "grievance" add constraint "grievance_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`create table "grievance_photo" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "grievance_id" int not null, "file_name" varchar(200) not null, "content_type" varchar(20) not null, "byte_size" int not null, "data" bytea null, "storage_path" varchar(300) null, "uploaded_by_user_id" int null);`);
    this.addSql(`create index "grievance_photo_organization_id_grievance_id_index" on "grievance_photo" ("organization_id", "grievance_id");`);
    this.addSql(`alter table "grievance_photo" add constraint "grievance_photo_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`alter table "grievance" add constraint "grievance_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "grievance" add constraint "grievance_customer_id_foreign" foreign key ("organization_id", "customer_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "grievance" add constraint "grievance_raised_by_user_id_foreign" foreign key ("organization_id", "raised_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "grievance" add constraint "grievance_order_id_foreign" foreign key ("organization_id", "order_id") references "sales_order" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "grievance" add constraint "grievance_assignee_user_id_foreign" foreign key ("organization_id", "assignee_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "grievance" add constraint "grievance_credit_note_entry_id_foreign" foreign key ("organization_id", "credit_note_entry_id") references "ledger_entry" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "grievance" add constraint "grievance_foc_request_id_foreign" foreign key ("organization_id", "foc_request_id") references "foc_request" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "grievance_photo" add constraint "grievance_photo_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "grievance_photo" add constraint "grievance_photo_grievance_id_foreign" foreign key ("organization_id", "grievance_id") references "grievance" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "grievance_photo" add constraint "grievance_photo_uploaded_by_user_id_foreign" foreign key ("organization_id", "uploaded_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "grievance_photo" cascade;`);
    this.addSql(`drop table if exists "grievance" cascade;`);
    this.addSql(`alter table "workspace_config" drop column "grievance_ack_hours", drop column "grievance_resolve_days";`);
  }
}

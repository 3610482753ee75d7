import { Migration } from '@mikro-orm/migrations';

export class Migration20261127130000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "approval_policy" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "kind" varchar(32) not null);`);
    this.addSql(`alter table "approval_policy" add constraint "approval_policy_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "approval_policy" add constraint "approval_policy_organization_id_kind_unique" unique ("organization_id", "kind");`);

    this.addSql(`create table "approval_policy_tier" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "approval_policy_id" int not null, "tier" smallint not null, "min_amount" numeric(14,2) not null, "approver_user_id" int null, "approver_role_id" int null);`);
    this.addSql(`alter table "approval_policy_tier" add constraint "approval_policy_tier_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "approval_policy_tier" add constraint "approval_policy_tier_organization_id_approval_pol_72b79_unique" unique ("organization_id", "approval_policy_id", "tier");`);

    this.addSql(`create table "approval_delegate" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "user_id" int not null, "delegate_user_id" int not null);`);
    this.addSql(`create index "approval_delegate_organization_id_delegate_user_id_index" on "approval_delegate" ("organization_id", "delegate_user_id");`);
    this.addSql(`alter table "approval_delegate" add constraint "approval_delegate_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "approval_delegate" add constraint "approval_delegate_organization_id_user_id_unique" unique ("organization_id", "user_id");`);

    this.addSql(`create table "approval" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "kind" varchar(32) not null, "entity_id" int not null, "amount" numeric(14,2) not null, "requested_by_user_id" int null, "status" smallint not null default 1, "current_tier" smallint null, "decided_at" timestamptz null);`);
    this.addSql(`create index "approval_organization_id_status_created_at_index" on "approval" ("organization_id", "status", "created_at");`);
    this.addSql(`alter table "approval" add constraint "approval_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "approval" add constraint "approval_organization_id_kind_entity_id_unique" unique ("organization_id", "kind", "entity_id");`);

    this.addSql(`create table "approval_step" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "approval_id" int not null, "tier" smallint not null, "approver_user_id" int null, "approver_role_id" int null, "status" smallint not null default 1, "acted_by_user_id" int null, "delegated_from_user_id" int null, "comment" varchar(500) null, "acted_at" timestamptz null);`);
    this.addSql(`alter table "approval_step" add constraint "approval_step_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "approval_step" add constraint "approval_step_organization_id_approval_id_tier_unique" unique ("organization_id", "approval_id", "tier");`);

    this.addSql(`create table "foc_request" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "customer_id" int not null, "requested_by_user_id" int null, "reason" smallint not null, "remarks" varchar(500) not null default '', "total_cost" numeric(14,2) not null, "status" smallint not null default 1, "approval_id" int null, "fulfilled_order_id" int null, "fulfilled_at" timestamptz null, "cancelled_at" timestamptz null);`);
    this.addSql(`create index "foc_request_organization_id_customer_id_index" on "foc_request" ("organization_id", "customer_id");`);
    this.addSql(`create index "foc_request_organization_id_created_at_index" on "foc_request" ("organization_id", "created_at");`);
    this.addSql(`alter table "foc_request" add constraint "foc_request_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "foc_request" add constraint "foc_request_organization_id_fulfilled_order_id_unique" unique ("organization_id", "fulfilled_order_id");`);

    this.addSql(`create table "foc_request_line" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "foc_request_id" int not null, "product_variant_id" int not null, "quantity" int not null, "unit_cost" numeric(12,2) not null, "amount" numeric(14,2) not null);`);
    this.addSql(`create index "foc_request_line_organization_id_foc_request_id_index" on "foc_request_line" ("organization_id", "foc_request_id");`);
    this.addSql(`alter table "foc_request_line" add constraint "foc_request_line_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`alter table "approval_policy" add constraint "approval_policy_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "approval_policy_tier" add constraint "approval_policy_tier_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "approval_policy_tier" add constraint "approval_policy_tier_approval_policy_id_foreign" foreign key ("organization_id", "approval_policy_id") references "approval_policy" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "approval_policy_tier" add constraint "approval_policy_tier_approver_user_id_foreign" foreign key ("organization_id", "approver_user_id") references "app_user" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "approval_policy_tier" add constraint "approval_policy_tier_approver_role_id_foreign" foreign key ("organization_id", "approver_role_id") references "role" ("organization_id", "id") on update no action on delete cascade;`);

    this.addSql(`alter table "approval_delegate" add constraint "approval_delegate_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "approval_delegate" add constraint "approval_delegate_user_id_foreign" foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "approval_delegate" add constraint "approval_delegate_delegate_user_id_foreign" foreign key ("organization_id", "delegate_user_id") references "app_user" ("organization_id", "id") on update no action on delete cascade;`);

    this.addSql(`alter table "approval" add constraint "approval_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "approval" add constraint "approval_requested_by_user_id_foreign" foreign key ("organization_id", "requested_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "approval_step" add constraint "approval_step_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "approval_step" add constraint "approval_step_approval_id_foreign" foreign key ("organization_id", "approval_id") references "approval" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "approval_step" add constraint "approval_step_approver_user_id_foreign" foreign key ("organization_id", "approver_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "approval_step" add constraint "approval_step_approver_role_id_foreign" foreign key ("organization_id", "approver_role_id") references "role" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "approval_step" add constraint "approval_step_acted_by_user_id_foreign" foreign key ("organization_id", "acted_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "approval_step" add constraint "approval_step_delegated_from_user_id_foreign" foreign key ("organization_id", "delegated_from_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "foc_request" add constraint "foc_request_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "foc_request" add constraint "foc_request_customer_id_foreign" foreign key ("organization_id", "customer_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "foc_request" add constraint "foc_request_requested_by_user_id_foreign" foreign key ("organization_id", "requested_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "foc_request" add constraint "foc_request_approval_id_foreign" foreign key ("organization_id", "approval_id") references "approval" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "foc_request" add constraint "foc_request_fulfilled_order_id_foreign" foreign key ("organization_id", "fulfilled_order_id") references "sales_order" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "foc_request_line" add constraint "foc_request_line_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "foc_request_line" add constraint "foc_request_line_foc_request_id_foreign" foreign key ("organization_id", "foc_request_id") references "foc_request" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "foc_request_line" add constraint "foc_request_line_product_variant_id_foreign" foreign key ("organization_id", "product_variant_id") references "product_variant" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "approval_policy_tier" drop constraint "approval_policy_tier_approval_policy_id_foreign";`);

    this.addSql(`alter table "approval_step" drop constraint "approval_step_approval_id_foreign";`);

    this.addSql(`alter table "foc_request" drop constraint "foc_request_approval_id_foreign";`);

    this.addSql(`alter table "foc_request_line" drop constraint "foc_request_line_foc_request_id_foreign";`);

    this.addSql(`drop table if exists "approval_policy" cascade;`);

    this.addSql(`drop table if exists "approval_policy_tier" cascade;`);

    this.addSql(`drop table if exists "approval_delegate" cascade;`);

    this.addSql(`drop table if exists "approval" cascade;`);

    this.addSql(`drop table if exists "approval_step" cascade;`);

    this.addSql(`drop table if exists "foc_request" cascade;`);

    this.addSql(`drop table if exists "foc_request_line" cascade;`);
  }

}

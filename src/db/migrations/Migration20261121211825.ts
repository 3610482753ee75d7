import { Migration } from '@mikro-orm/migrations';

export class Migration20261121211825 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "organization" ("id" serial primary key, "workspace_id" varchar(32) not null, "slug" varchar(64) not null, "display_name" varchar(200) not null, "domain" varchar(253) null, "plan" text check ("plan" in ('free', 'starter', 'pro', 'professional')) not null default 'free', "status" smallint not null default 2, "max_users" int not null default 25, "trial_ends_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`alter table "organization" add constraint "organization_workspace_id_unique" unique ("workspace_id");`);
    this.addSql(`alter table "organization" add constraint "organization_slug_unique" unique ("slug");`);

    this.addSql(`create table "product_class" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "unit" varchar(20) not null default 'piece', "status" smallint not null default 1);`);
    this.addSql(`alter table "product_class" add constraint "product_class_organization_id_name_unique" unique ("organization_id", "name");`);

    this.addSql(`create table "product" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(200) not null, "product_class_id" int not null, "hsn" varchar(8) not null default '', "color_code" varchar(7) not null default '#000000', "description" text not null default '', "image" varchar(2048) null, "status" smallint not null default 1);`);
    this.addSql(`create index "product_organization_id_product_class_id_index" on "product" ("organization_id", "product_class_id");`);
    this.addSql(`create index "product_organization_id_status_index" on "product" ("organization_id", "status");`);
    this.addSql(`create index "product_organization_id_created_at_index" on "product" ("organization_id", "created_at");`);

    this.addSql(`create table "production_unit" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "status" smallint not null default 1);`);
    this.addSql(`alter table "production_unit" add constraint "production_unit_organization_id_name_unique" unique ("organization_id", "name");`);

    this.addSql(`create table "product_variant" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "product_id" int not null, "variant_name" varchar(200) not null, "item_sku_code" varchar(64) not null, "mrp" numeric(12,2) not null, "sp" numeric(12,2) not null, "variant_size" varchar(50) not null default '', "variant_quantity" int not null default 1, "container_quantity" int not null default 1, "status" smallint not null default 1);`);
    this.addSql(`create index "product_variant_organization_id_product_id_index" on "product_variant" ("organization_id", "product_id");`);
    this.addSql(`alter table "product_variant" add constraint "product_variant_organization_id_item_sku_code_unique" unique ("organization_id", "item_sku_code");`);

    this.addSql(`create table "role" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "description" varchar(500) not null default '', "status" smallint not null default 1);`);
    this.addSql(`alter table "role" add constraint "role_organization_id_name_unique" unique ("organization_id", "name");`);

    this.addSql(`create table "tenant_counter" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(40) not null, "value" bigint not null default 0);`);
    this.addSql(`alter table "tenant_counter" add constraint "tenant_counter_organization_id_name_unique" unique ("organization_id", "name");`);

    this.addSql(`create table "town" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "status" smallint not null default 1);`);
    this.addSql(`alter table "town" add constraint "town_organization_id_name_unique" unique ("organization_id", "name");`);

    this.addSql(`create table "route" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "town_id" int not null, "status" smallint not null default 1);`);
    this.addSql(`alter table "route" add constraint "route_organization_id_town_id_name_unique" unique ("organization_id", "town_id", "name");`);

    this.addSql(`create table "app_user" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "official_email" varchar(254) null, "primary_contact_number" varchar(20) not null, "password_hash" varchar(255) not null, "role_id" int not null, "user_type" smallint not null, "status" smallint not null default 1, "store_name" varchar(200) null, "town_id" int null, "route_id" int null, "current_session_id" uuid null);`);
    this.addSql(`create unique index "app_user_phone_unique" on "app_user" ("primary_contact_number");`);
    this.addSql(`create unique index "app_user_email_unique" on "app_user" (lower("official_email"));`);
    this.addSql(`create index "app_user_organization_id_role_id_index" on "app_user" ("organization_id", "role_id");`);
    this.addSql(`create index "app_user_organization_id_user_type_status_index" on "app_user" ("organization_id", "user_type", "status");`);
    this.addSql(`create index "app_user_organization_id_created_at_index" on "app_user" ("organization_id", "created_at");`);

    this.addSql(`create table "sales_order" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "order_code" varchar(32) not null, "status" smallint not null default 1, "order_date" date not null, "customer_id" int not null, "town_id" int null, "route_id" int null, "production_unit_id" int null, "total_amount" numeric(14,2) not null, "items_count" int not null, "delivery_date" date null, "mode_of_payment" varchar(30) null, "delivery_otp_hash" varchar(64) not null, "created_by_user_id" int null);`);
    this.addSql(`create index "sales_order_organization_id_customer_id_created_at_index" on "sales_order" ("organization_id", "customer_id", "created_at");`);
    this.addSql(`create index "sales_order_organization_id_order_date_index" on "sales_order" ("organization_id", "order_date");`);
    this.addSql(`create index "sales_order_organization_id_status_created_at_index" on "sales_order" ("organization_id", "status", "created_at");`);
    this.addSql(`create index "sales_order_organization_id_created_at_index" on "sales_order" ("organization_id", "created_at");`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_organization_id_order_code_unique" unique ("organization_id", "order_code");`);

    this.addSql(`create table "order_status_history" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "order_id" int not null, "from_status" smallint null, "to_status" smallint not null, "changed_at" timestamptz not null default now(), "changed_by_user_id" int null, "changed_by_api_key_id" int null);`);
    this.addSql(`create index "order_status_history_organization_id_order_id_changed_at_index" on "order_status_history" ("organization_id", "order_id", "changed_at");`);

    this.addSql(`create table "order_item" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "order_id" int not null, "product_variant_id" int not null, "quantity" int not null, "unit_price" numeric(12,2) not null, "amount" numeric(14,2) not null);`);
    this.addSql(`create index "order_item_organization_id_product_variant_id_index" on "order_item" ("organization_id", "product_variant_id");`);
    this.addSql(`create index "order_item_organization_id_order_id_index" on "order_item" ("organization_id", "order_id");`);

    this.addSql(`create table "workspace_config" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "logo" varchar(2048) null, "primary_color" varchar(7) not null default '#1F4E79', "secondary_color" varchar(7) not null default '#F2A900', "org_footer_name" varchar(200) not null default '', "org_address" varchar(500) not null default '', "gstin" varchar(15) not null default '', "fssai" varchar(14) not null default '', "contact_number" varchar(20) not null default '', "order_timing" varchar(11) not null default '00:00-23:59', "page_limit" int not null default 20, "chatbot_enabled" boolean not null default false);`);
    this.addSql(`alter table "workspace_config" add constraint "workspace_config_organization_id_unique" unique ("organization_id");`);

    this.addSql(`alter table "product_class" add constraint "product_class_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "product" add constraint "product_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "product" add constraint "product_product_class_id_foreign" foreign key ("product_class_id") references "product_class" ("id") on update cascade;`);

    this.addSql(`alter table "production_unit" add constraint "production_unit_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "product_variant" add constraint "product_variant_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "product_variant" add constraint "product_variant_product_id_foreign" foreign key ("product_id") references "product" ("id") on update cascade;`);

    this.addSql(`alter table "role" add constraint "role_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "tenant_counter" add constraint "tenant_counter_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "town" add constraint "town_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "route" add constraint "route_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "route" add constraint "route_town_id_foreign" foreign key ("town_id") references "town" ("id") on update cascade;`);

    this.addSql(`alter table "app_user" add constraint "app_user_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "app_user" add constraint "app_user_role_id_foreign" foreign key ("role_id") references "role" ("id") on update cascade;`);
    this.addSql(`alter table "app_user" add constraint "app_user_town_id_foreign" foreign key ("town_id") references "town" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "app_user" add constraint "app_user_route_id_foreign" foreign key ("route_id") references "route" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "sales_order" add constraint "sales_order_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id") on update cascade;`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_town_id_foreign" foreign key ("town_id") references "town" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_route_id_foreign" foreign key ("route_id") references "route" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_production_unit_id_foreign" foreign key ("production_unit_id") references "production_unit" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "sales_order" add constraint "sales_order_created_by_user_id_foreign" foreign key ("created_by_user_id") references "app_user" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "order_status_history" add constraint "order_status_history_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "order_status_history" add constraint "order_status_history_order_id_foreign" foreign key ("order_id") references "sales_order" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "order_status_history" add constraint "order_status_history_changed_by_user_id_foreign" foreign key ("changed_by_user_id") references "app_user" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "order_item" add constraint "order_item_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "order_item" add constraint "order_item_order_id_foreign" foreign key ("order_id") references "sales_order" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "order_item" add constraint "order_item_product_variant_id_foreign" foreign key ("product_variant_id") references "product_variant" ("id") on update cascade;`);

    this.addSql(`alter table "workspace_config" add constraint "workspace_config_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
  }

}

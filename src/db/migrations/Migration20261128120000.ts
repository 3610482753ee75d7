import { Migration } from '@mikro-orm/migrations';

/*
 * Secondary sales (issue 25, research §8): a distributor's invoice to a retailer and its lines.
 * - secondary_sale: invoice number unique per distributor, client_ref unique per distributor (a
 *   re-send is the same sale; request_hash tells it from a different body), totals stored and
 *   checked (net = gross − scheme discount); composite keys to app_user, visit.
 * - secondary_sale_line: quantity > 0, free quantity, rate, discount >= 0; composite keys to the
 *   sale (cascade), product_variant and scheme.
 */

export class Migration20261128120000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "secondary_sale" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "distributor_id" int not null, "retailer_id" int not null, "invoice_no" varchar(50) not null, "invoice_date" date not null, "client_ref" varchar(100) null, "request_hash" varchar(64) not null, "source" smallint not null, "booked_by_user_id" int null, "visit_id" int null, "items_count" int not null, "gross_amount" numeric(14,2) not null, "scheme_discount" numeric(14,2) not null, "net_amount" numeric(14,2) not null, constraint secondary_sale_amounts_check check (gross_amount >= 0 and scheme_discount >= 0 and net_amount = gross_amount - scheme_discount));`);
    this.addSql(`create index "secondary_sale_organization_id_retailer_id_invoice_date_index" on "secondary_sale" ("organization_id", "retailer_id", "invoice_date");`);
    this.addSql(`create index "secondary_sale_organization_id_invoice_date_index" on "secondary_sale" ("organization_id", "invoice_date");`);
    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_organization_id_distributor_id_client_ref_unique" unique ("organization_id", "distributor_id", "client_ref");`);
    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_organization_id_distributor_id_invoice_no_unique" unique ("organization_id", "distributor_id", "invoice_no");`);

    this.addSql(`create table "secondary_sale_line" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "secondary_sale_id" int not null, "product_variant_id" int not null, "quantity" int not null, "free_quantity" int not null, "rate" numeric(12,2) not null, "discount_amount" numeric(14,2) not null, "amount" numeric(14,2) not null, "scheme_id" int null, constraint secondary_sale_line_quantities_check check (quantity > 0 and free_quantity >= 0 and rate >= 0 and discount_amount >= 0));`);
    this.addSql(`create index "secondary_sale_line_organization_id_product_variant_id_index" on "secondary_sale_line" ("organization_id", "product_variant_id");`);
    this.addSql(`create index "secondary_sale_line_organization_id_secondary_sale_id_index" on "secondary_sale_line" ("organization_id", "secondary_sale_id");`);
    this.addSql(`alter table "secondary_sale_line" add constraint "secondary_sale_line_organization_id_id_unique" unique ("organization_id", "id");`);

    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_distributor_id_foreign" foreign key ("organization_id", "distributor_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_retailer_id_foreign" foreign key ("organization_id", "retailer_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_booked_by_user_id_foreign" foreign key ("organization_id", "booked_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "secondary_sale" add constraint "secondary_sale_visit_id_foreign" foreign key ("organization_id", "visit_id") references "visit" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "secondary_sale_line" add constraint "secondary_sale_line_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "secondary_sale_line" add constraint "secondary_sale_line_secondary_sale_id_foreign" foreign key ("organization_id", "secondary_sale_id") references "secondary_sale" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "secondary_sale_line" add constraint "secondary_sale_line_product_variant_id_foreign" foreign key ("organization_id", "product_variant_id") references "product_variant" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "secondary_sale_line" add constraint "secondary_sale_line_scheme_id_foreign" foreign key ("organization_id", "scheme_id") references "scheme" ("organization_id", "id") on update no action on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "secondary_sale_line" drop constraint "secondary_sale_line_secondary_sale_id_foreign";`);

    this.addSql(`drop table if exists "secondary_sale" cascade;`);

    this.addSql(`drop table if exists "secondary_sale_line" cascade;`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020118 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "payment" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "order_id" int not null, "amount" numeric(14,2) not null, "mode_of_payment" varchar(30) not null, "paid_at" timestamptz not null, "reference" varchar(100) null, "recorded_by_user_id" int null, "recorded_by_api_key_id" int null);`);
    this.addSql(`create index "payment_organization_id_paid_at_index" on "payment" ("organization_id", "paid_at");`);
    this.addSql(`create index "payment_organization_id_order_id_index" on "payment" ("organization_id", "order_id");`);

    this.addSql(`alter table "payment" add constraint "payment_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "payment" add constraint "payment_order_id_foreign" foreign key ("order_id") references "sales_order" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "payment" add constraint "payment_recorded_by_user_id_foreign" foreign key ("recorded_by_user_id") references "app_user" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payment" cascade;`);
  }

}

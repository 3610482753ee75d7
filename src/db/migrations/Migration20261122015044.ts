import { Migration } from '@mikro-orm/migrations';

export class Migration20261122015044 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "outlet" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "name" varchar(120) not null, "status" smallint not null default 1, "town_id" int not null, "route_id" int not null, "phone" varchar(20) not null, "latitude" numeric(9,6) null, "longitude" numeric(9,6) null, "tagged_at" timestamptz null);`);
    this.addSql(`create index "outlet_organization_id_tagged_at_index" on "outlet" ("organization_id", "tagged_at");`);
    this.addSql(`alter table "outlet" add constraint "outlet_organization_id_route_id_name_unique" unique ("organization_id", "route_id", "name");`);

    this.addSql(`alter table "outlet" add constraint "outlet_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "outlet" add constraint "outlet_town_id_foreign" foreign key ("town_id") references "town" ("id") on update cascade;`);
    this.addSql(`alter table "outlet" add constraint "outlet_route_id_foreign" foreign key ("route_id") references "route" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "outlet" cascade;`);
  }

}

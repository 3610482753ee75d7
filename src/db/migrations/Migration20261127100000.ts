import { Migration } from '@mikro-orm/migrations';

/*
 * The customer ledger (issue 24): `ledger_entry`, append-only (src/domains/ledger/ledger-entry.entity.ts).
 * - A row is a debit or a credit, never both nor neither (ledger_entry_one_side).
 * - A trigger refuses UPDATE and DELETE of a row, except a delete cascading from its workspace
 *   (a nested trigger: pg_trigger_depth() > 1): mistakes are undone by reversal rows.
 * - An order is posted once (kind 1), a payment once (kind 2), and a row is reversed at most once:
 *   partial unique indexes, so a retry or a race cannot post twice.
 * - Triggers post an order's total as a debit when it becomes delivered (by update or inserted
 *   delivered, as the seed does; once: delivered again by SQL, it is not posted twice)
 *   and a payment as a credit when it is inserted, whatever writes
 *   them. A delivered order's day is the workspace's local day of the change (inserted delivered:
 *   its delivery date, else its order date); a payment's is the local day of paid_at. They run
 *   always, in the seed's replica-role transactions too.
 * - Existing delivered orders and payments are posted here, once.
 */
const ORDER_DEBIT = (source: string, day: string) => `
  insert into ledger_entry (organization_id, customer_id, entry_date, kind, debit, order_id, narration)
  select n.organization_id, n.customer_id, ${day}, 1, n.total_amount, n.id, 'Order ' || n.order_code || ' delivered'
    from ${source}
    join workspace_config wc on wc.organization_id = n.organization_id
   where n.status = 4 and n.cancelled_at is null and n.total_amount > 0
  on conflict (organization_id, order_id) where kind = 1 do nothing`;

const PAYMENT_CREDIT = (source: string) => `
  insert into ledger_entry (organization_id, customer_id, entry_date, kind, credit, payment_id, narration, reference)
  select p.organization_id, o.customer_id, (p.paid_at at time zone wc.time_zone)::date, 2, p.amount, p.id,
         'Payment (' || p.mode_of_payment || ') for order ' || o.order_code, p.reference
    from ${source}
    join sales_order o on o.organization_id = p.organization_id and o.id = p.order_id
    join workspace_config wc on wc.organization_id = p.organization_id
   where p.amount > 0`;

export class Migration20261127100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ledger_entry" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "customer_id" int not null, "entry_date" date not null, "kind" smallint not null, "debit" numeric(14,2) not null default 0, "credit" numeric(14,2) not null default 0, "order_id" int null, "payment_id" int null, "reverses_id" int null, "narration" varchar(500) null, "reference" varchar(100) null, "created_by_user_id" int null, "created_by_api_key_id" int null);`);
    this.addSql(`create index "ledger_entry_organization_id_customer_id_entry_date_id_index" on "ledger_entry" ("organization_id", "customer_id", "entry_date", "id");`);
    this.addSql(`create index "ledger_entry_organization_id_entry_date_index" on "ledger_entry" ("organization_id", "entry_date");`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_one_side" check (debit >= 0 and credit >= 0 and (debit = 0) <> (credit = 0));`);
    this.addSql(`create unique index "ledger_entry_order_posted_once" on "ledger_entry" ("organization_id", "order_id") where "kind" = 1;`);
    this.addSql(`create unique index "ledger_entry_payment_posted_once" on "ledger_entry" ("organization_id", "payment_id") where "kind" = 2;`);
    this.addSql(`create unique index "ledger_entry_reversed_once" on "ledger_entry" ("organization_id", "reverses_id") where "reverses_id" is not null;`);

    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_customer_id_foreign" foreign key ("organization_id", "customer_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_order_id_foreign" foreign key ("organization_id", "order_id") references "sales_order" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_payment_id_foreign" foreign key ("organization_id", "payment_id") references "payment" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_reverses_id_foreign" foreign key ("organization_id", "reverses_id") references "ledger_entry" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_created_by_user_id_foreign" foreign key ("organization_id", "created_by_user_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_created_by_api_key_id_foreign" foreign key ("organization_id", "created_by_api_key_id") references "api_key" ("organization_id", "id") on update no action on delete no action;`);

    this.addSql(`create function ledger_entry_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and pg_trigger_depth() > 1 then return old; end if;
        raise exception 'ledger_entry rows are append-only: post a reversal instead' using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger ledger_entry_append_only before update or delete on ledger_entry for each row execute function ledger_entry_append_only();`);

    this.addSql(`create function ledger_post_delivered_orders() returns trigger language plpgsql as $$
      begin
        ${ORDER_DEBIT('new_rows n join old_rows o on o.organization_id = n.organization_id and o.id = n.id and o.status <> 4', `(now() at time zone wc.time_zone)::date`)};
        return null;
      end $$;`);
    this.addSql(`create trigger ledger_post_delivered_orders after update on sales_order referencing old table as old_rows new table as new_rows for each statement execute function ledger_post_delivered_orders();`);
    this.addSql(`create function ledger_post_orders_inserted_delivered() returns trigger language plpgsql as $$
      begin
        ${ORDER_DEBIT('new_rows n', 'coalesce(n.delivery_date, n.order_date)')};
        return null;
      end $$;`);
    this.addSql(`create trigger ledger_post_orders_inserted_delivered after insert on sales_order referencing new table as new_rows for each statement execute function ledger_post_orders_inserted_delivered();`);
    this.addSql(`create function ledger_post_payments() returns trigger language plpgsql as $$
      begin
        ${PAYMENT_CREDIT('new_rows p')};
        return null;
      end $$;`);
    this.addSql(`create trigger ledger_post_payments after insert on payment referencing new table as new_rows for each statement execute function ledger_post_payments();`);

    // ENABLE ALWAYS: they run in the seed's transactions too, which skip the foreign-key triggers
    // with session_replication_role = replica (as the dashboard rollups' triggers do).
    for (const [table, trigger] of [
      ['ledger_entry', 'ledger_entry_append_only'],
      ['sales_order', 'ledger_post_delivered_orders'],
      ['sales_order', 'ledger_post_orders_inserted_delivered'],
      ['payment', 'ledger_post_payments'],
    ]) {
      this.addSql(`alter table ${table} enable always trigger ${trigger};`);
    }

    // What exists already: delivered orders on the day they were delivered (their history), payments.
    this.addSql(`${ORDER_DEBIT(
      'sales_order n',
      `coalesce((select (max(h.changed_at) at time zone wc.time_zone)::date from order_status_history h where h.organization_id = n.organization_id and h.order_id = n.id and h.to_status = 4), n.delivery_date, n.order_date)`,
    )};`);
    this.addSql(`${PAYMENT_CREDIT('payment p')};`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists ledger_post_payments on payment;`);
    this.addSql(`drop trigger if exists ledger_post_orders_inserted_delivered on sales_order;`);
    this.addSql(`drop trigger if exists ledger_post_delivered_orders on sales_order;`);
    this.addSql(`drop function if exists ledger_post_payments, ledger_post_orders_inserted_delivered, ledger_post_delivered_orders, ledger_entry_append_only;`);
    this.addSql(`drop table if exists "ledger_entry" cascade;`);
  }
}

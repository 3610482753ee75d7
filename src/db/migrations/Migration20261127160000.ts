import { Migration } from '@mikro-orm/migrations';

/*
 * On-account payments (issue 24, research §18(e)): a payment names an order, as before, or only a
 * customer; an on-account payment is allocated oldest-first over the customer's open delivered
 * orders (src/domains/payments/payment-allocation.ts).
 * - payment.customer_id: backfilled from the order, NOT NULL, a composite key to app_user;
 *   payment.order_id becomes nullable. A BEFORE INSERT OR UPDATE trigger (ENABLE ALWAYS, so the
 *   seed's replica-role inserts too) fills an order payment's customer from its order (an update
 *   moving it to another order: that order's) and refuses one that names another customer.
 * - payment_allocation (organization_id, payment_id, order_id, amount, reverses_id): append-only
 *   (a trigger refuses UPDATE, and DELETE unless a cascade runs it). A void of an on-account payment
 *   adds the negated rows (each naming the row it reverses, once: a unique key) attached to the void.
 * - What an order has been paid is now its direct payments plus its allocations: the dashboard
 *   rollup triggers of Migration20261126100000 are re-created reading both (the statements below
 *   are this migration's copies, with the paid source as a parameter), and allocations have their
 *   own insert and delete triggers (the payment trigger's body: the transition tables have the
 *   same organization_id, order_id and amount columns).
 * - The ledger's payment trigger posts the credit against payment.customer_id (one credit for an
 *   on-account payment; allocations post nothing: they settle, they are not money), with a
 *   narration naming the order or "on account". Voids post the reversal as before.
 */

/**
 * Every amount paid on an order: direct payments and allocations of on-account payments. Each use
 * joins it on order_id, which leaves on-account payments (order_id null) out; no WHERE in the
 * branches, so the planner still pushes the join into both indexes (a filtered branch made it scan
 * every payment).
 */
const PAID_WITH_ALLOCATIONS = `(select organization_id, order_id, amount from payment
      union all select organization_id, order_id, amount from payment_allocation)`;
/** Before this migration: direct payments only (down()). */
const PAID_DIRECT = `(select organization_id, order_id, amount from payment)`;

/** Adds the signed rows of `deltas` (organization_id, day, status, orders, total, paid, outstanding) to order_day_rollup. */
const addToOrderDays = (deltas: string) => `
  with delta as (
    select organization_id, day, status, sum(orders)::int as orders, sum(total_amount) as total_amount,
           sum(paid_amount) as paid_amount, sum(outstanding_amount) as outstanding_amount
      from (${deltas}) d (organization_id, day, status, orders, total_amount, paid_amount, outstanding_amount)
     group by organization_id, day, status
    having sum(orders) <> 0 or sum(total_amount) <> 0 or sum(paid_amount) <> 0 or sum(outstanding_amount) <> 0),
  locked as (
    select r.id from order_day_rollup r join delta d on r.organization_id = d.organization_id and r.day = d.day and r.status = d.status
     order by r.organization_id, r.day, r.status
       for no key update of r),
  updated as (
    update order_day_rollup r
       set orders = r.orders + d.orders, total_amount = r.total_amount + d.total_amount, paid_amount = r.paid_amount + d.paid_amount,
           outstanding_amount = r.outstanding_amount + d.outstanding_amount, updated_at = now()
      from delta d
     where r.organization_id = d.organization_id and r.day = d.day and r.status = d.status and r.id in (select id from locked)
    returning r.organization_id, r.day, r.status)
  insert into order_day_rollup (organization_id, day, status, orders, total_amount, paid_amount, outstanding_amount)
  select d.organization_id, d.day, d.status, d.orders, d.total_amount, d.paid_amount, d.outstanding_amount
    from delta d
   where not exists (select 1 from updated u where u.organization_id = d.organization_id and u.day = d.day and u.status = d.status)
     and exists (select 1 from organization g where g.id = d.organization_id)
   order by d.organization_id, d.day, d.status
  on conflict (organization_id, day, status) do update
     set orders = order_day_rollup.orders + excluded.orders, total_amount = order_day_rollup.total_amount + excluded.total_amount,
         paid_amount = order_day_rollup.paid_amount + excluded.paid_amount,
         outstanding_amount = order_day_rollup.outstanding_amount + excluded.outstanding_amount, updated_at = now();`;

/** Adds the signed rows of `deltas` (organization_id, day, product_variant_id, lines, quantity) to line_day_rollup. */
const addToLineDays = (deltas: string) => `
  with delta as (
    select organization_id, day, product_variant_id, sum(lines)::int as lines, sum(quantity)::bigint as quantity
      from (${deltas}) d (organization_id, day, product_variant_id, lines, quantity)
     group by organization_id, day, product_variant_id
    having sum(lines) <> 0 or sum(quantity) <> 0),
  locked as (
    select r.id from line_day_rollup r join delta d on r.organization_id = d.organization_id and r.day = d.day and r.product_variant_id = d.product_variant_id
     order by r.organization_id, r.day, r.product_variant_id
       for no key update of r),
  updated as (
    update line_day_rollup r
       set lines = r.lines + d.lines, quantity = r.quantity + d.quantity, updated_at = now()
      from delta d
     where r.organization_id = d.organization_id and r.day = d.day and r.product_variant_id = d.product_variant_id and r.id in (select id from locked)
    returning r.organization_id, r.day, r.product_variant_id)
  insert into line_day_rollup (organization_id, day, product_variant_id, lines, quantity)
  select d.organization_id, d.day, d.product_variant_id, d.lines, d.quantity
    from delta d
   where not exists (select 1 from updated u where u.organization_id = d.organization_id and u.day = d.day and u.product_variant_id = d.product_variant_id)
     and exists (select 1 from organization g where g.id = d.organization_id)
   order by d.organization_id, d.day, d.product_variant_id
  on conflict (organization_id, day, product_variant_id) do update
     set lines = line_day_rollup.lines + excluded.lines, quantity = line_day_rollup.quantity + excluded.quantity, updated_at = now();`;

/** The body of a trigger function on payment or payment_allocation for an operation with these transition tables. */
function paidTrigger(paid: string, tables: Array<['new_rows' | 'old_rows', '' | '-']>): string {
  const amounts = tables.map(([rows, sign]) => `select organization_id, order_id, ${sign}amount from ${rows}`).join(' union all ');
  return `
  begin
    perform 1 from sales_order o where (o.organization_id, o.id) in (select organization_id, order_id from (${amounts}) a (organization_id, order_id, amount))
      order by o.organization_id, o.id for no key update of o;
    -- Each order's share moves from its outstanding amount before these rows to the one after.
    ${addToOrderDays(`
      with moved as (
        select organization_id, order_id, sum(amount) as amount from (${amounts}) a (organization_id, order_id, amount)
         where order_id is not null group by organization_id, order_id),
      paid as (
        select p.organization_id, p.order_id, sum(p.amount) as amount
          from ${paid} p join moved m on m.organization_id = p.organization_id and m.order_id = p.order_id
         group by p.organization_id, p.order_id)
      select o.organization_id, o.order_date, o.status, 0, 0, m.amount,
             greatest(o.total_amount - coalesce(p.amount, 0), 0) - greatest(o.total_amount - (coalesce(p.amount, 0) - m.amount), 0)
        from moved m
        join sales_order o on o.organization_id = m.organization_id and o.id = m.order_id
        left join paid p on p.organization_id = m.organization_id and p.order_id = m.order_id`)}
    return null;
  end`;
}

const ordersUpdated = (paid: string) => `
  begin
    if not exists (
      select 1 from old_rows o join new_rows n on n.id = o.id
       where (o.organization_id, o.order_date, o.status, o.total_amount) is distinct from (n.organization_id, n.order_date, n.status, n.total_amount)) then
      return null;
    end if;
    ${addToOrderDays(`
      with changed as (
        select o.id, o.organization_id as old_organization_id, o.order_date as old_day, o.status as old_status, o.total_amount as old_total,
               n.organization_id, n.order_date as day, n.status, n.total_amount as total
          from old_rows o join new_rows n on n.id = o.id
         where (o.organization_id, o.order_date, o.status, o.total_amount) is distinct from (n.organization_id, n.order_date, n.status, n.total_amount)),
      paid as (
        select c.id, coalesce(sum(p.amount), 0) as amount
          from changed c left join ${paid} p on p.organization_id = c.organization_id and p.order_id = c.id
         group by c.id)
      select c.old_organization_id, c.old_day, c.old_status, -1, -c.old_total, -p.amount, -greatest(c.old_total - p.amount, 0)
        from changed c join paid p on p.id = c.id
      union all
      select c.organization_id, c.day, c.status, 1, c.total, p.amount, greatest(c.total - p.amount, 0)
        from changed c join paid p on p.id = c.id`)}
    -- A new order_date moves the order's lines to that day.
    ${addToLineDays(`
      with moved as (
        select n.id, o.organization_id as old_organization_id, o.order_date as old_day, n.organization_id, n.order_date as day
          from old_rows o join new_rows n on n.id = o.id
         where (o.organization_id, o.order_date) is distinct from (n.organization_id, n.order_date))
      select m.old_organization_id, m.old_day, li.product_variant_id, -1, -li.quantity
        from moved m join order_item li on li.organization_id = m.organization_id and li.order_id = m.id
      union all
      select m.organization_id, m.day, li.product_variant_id, 1, li.quantity
        from moved m join order_item li on li.organization_id = m.organization_id and li.order_id = m.id`)}
    return null;
  end`;

const orderDeleting = (paid: string) => `
  declare
    paid numeric;
  begin
    -- The workspace itself is being deleted: its sums go with it.
    if not exists (select 1 from organization g where g.id = old.organization_id) then
      return old;
    end if;
    select coalesce(sum(p.amount), 0) into paid from ${paid} p where p.organization_id = old.organization_id and p.order_id = old.id;
    ${addToOrderDays(`select old.organization_id, old.order_date, old.status, -1, -old.total_amount, -paid, -greatest(old.total_amount - paid, 0)`)}
    ${addToLineDays(`
      select li.organization_id, old.order_date, li.product_variant_id, -1, -li.quantity
        from order_item li where li.organization_id = old.organization_id and li.order_id = old.id`)}
    return old;
  end`;

/** [function, body] of the rollup functions that read what an order has been paid. */
const rollupFunctions = (paid: string): ReadonlyArray<readonly [string, string]> => [
  ['order_rollup_orders_updated', ordersUpdated(paid)],
  ['order_rollup_order_deleting', orderDeleting(paid)],
  ['order_rollup_payments_inserted', paidTrigger(paid, [['new_rows', '']])],
  ['order_rollup_payments_updated', paidTrigger(paid, [['old_rows', '-'], ['new_rows', '']])],
  ['order_rollup_payments_deleted', paidTrigger(paid, [['old_rows', '-']])],
];

/** The allocations' rollup triggers: [function, body, timing and event, transition tables]. */
const ALLOCATION_TRIGGERS: ReadonlyArray<readonly [string, string, string, string]> = [
  ['order_rollup_allocations_inserted', paidTrigger(PAID_WITH_ALLOCATIONS, [['new_rows', '']]), 'after insert', 'referencing new table as new_rows for each statement'],
  ['order_rollup_allocations_deleted', paidTrigger(PAID_WITH_ALLOCATIONS, [['old_rows', '-']]), 'after delete', 'referencing old table as old_rows for each statement'],
];

/** The ledger's payment postings: a credit per payment against its customer, a void's reversal. */
const PAYMENT_POSTINGS = (source: string) => `
  insert into ledger_entry (organization_id, customer_id, entry_date, kind, credit, payment_id, narration, reference)
  select p.organization_id, p.customer_id, (p.paid_at at time zone wc.time_zone)::date, 2, p.amount, p.id,
         'Payment (' || p.mode_of_payment || ') ' || coalesce('for order ' || o.order_code, 'on account'), p.reference
    from ${source}
    left join sales_order o on o.organization_id = p.organization_id and o.id = p.order_id
    join workspace_config wc on wc.organization_id = p.organization_id
   where p.amount > 0 and p.voids_payment_id is null;
  insert into ledger_entry (organization_id, customer_id, entry_date, kind, debit, payment_id, reverses_id, narration, reference)
  select p.organization_id, l.customer_id, (p.paid_at at time zone wc.time_zone)::date, 6, -p.amount, p.id, l.id,
         'Payment voided: ' || coalesce(p.void_reason, ''), p.reference
    from ${source}
    join ledger_entry l on l.organization_id = p.organization_id and l.payment_id = p.voids_payment_id and l.kind = 2
    join workspace_config wc on wc.organization_id = p.organization_id
   where p.voids_payment_id is not null`;

/** Migration20261127101000's postings (down()). */
const PAYMENT_POSTINGS_BEFORE = (source: string) => `
  insert into ledger_entry (organization_id, customer_id, entry_date, kind, credit, payment_id, narration, reference)
  select p.organization_id, o.customer_id, (p.paid_at at time zone wc.time_zone)::date, 2, p.amount, p.id,
         'Payment (' || p.mode_of_payment || ') for order ' || o.order_code, p.reference
    from ${source}
    join sales_order o on o.organization_id = p.organization_id and o.id = p.order_id
    join workspace_config wc on wc.organization_id = p.organization_id
   where p.amount > 0 and p.voids_payment_id is null;
  insert into ledger_entry (organization_id, customer_id, entry_date, kind, debit, payment_id, reverses_id, narration, reference)
  select p.organization_id, l.customer_id, (p.paid_at at time zone wc.time_zone)::date, 6, -p.amount, p.id, l.id,
         'Payment voided: ' || coalesce(p.void_reason, ''), p.reference
    from ${source}
    join ledger_entry l on l.organization_id = p.organization_id and l.payment_id = p.voids_payment_id and l.kind = 2
    join workspace_config wc on wc.organization_id = p.organization_id
   where p.voids_payment_id is not null`;

export class Migration20261127160000 extends Migration {
  override async up(): Promise<void> {
    // The payment's customer, from its order.
    this.addSql(`alter table "payment" add column "customer_id" int null;`);
    // The rollups' update trigger would add a zero delta for every payment (amount and order stay): off
    // for the backfill (12.5 s → 7 s for 95,000 payments), back on, ENABLE ALWAYS as before.
    this.addSql(`alter table payment disable trigger order_rollup_payments_updated;`);
    this.addSql(`update "payment" p set "customer_id" = o."customer_id" from "sales_order" o where o."organization_id" = p."organization_id" and o."id" = p."order_id";`);
    this.addSql(`alter table payment enable always trigger order_rollup_payments_updated;`);
    this.addSql(`alter table "payment" alter column "customer_id" set not null, alter column "order_id" drop not null;`);
    this.addSql(`create index "payment_organization_id_customer_id_index" on "payment" ("organization_id", "customer_id");`);
    this.addSql(`alter table "payment" add constraint "payment_customer_id_foreign" foreign key ("organization_id", "customer_id") references "app_user" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`create function payment_customer_of_order() returns trigger language plpgsql as $$
      declare
        owner int;
      begin
        if new.order_id is null then return new; end if;
        select o.customer_id into owner from sales_order o where o.organization_id = new.organization_id and o.id = new.order_id;
        -- No such order: the foreign key refuses the row.
        if not found then return new; end if;
        -- Filled when not given; an update moving the payment to another order (SQL only: the
        -- service never does) takes that order's customer along unless it names one itself.
        if new.customer_id is null or (tg_op = 'UPDATE' and new.customer_id = old.customer_id and new.order_id is distinct from old.order_id) then
          new.customer_id := owner;
        elsif new.customer_id <> owner then
          raise exception 'payment of order % names customer %, but the order is customer %''s', new.order_id, new.customer_id, owner using errcode = 'check_violation';
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger payment_customer_of_order before insert or update of order_id, customer_id on payment for each row execute function payment_customer_of_order();`);
    this.addSql(`alter table payment enable always trigger payment_customer_of_order;`);

    // Allocations.
    this.addSql(`create table "payment_allocation" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "payment_id" int not null, "order_id" int not null, "amount" numeric(14,2) not null, "reverses_id" int null, constraint payment_allocation_reversal_mirrors check ((reverses_id is null and amount > 0) or (reverses_id is not null and amount < 0)));`);
    this.addSql(`create index "payment_allocation_organization_id_payment_id_index" on "payment_allocation" ("organization_id", "payment_id");`);
    this.addSql(`create index "payment_allocation_organization_id_order_id_index" on "payment_allocation" ("organization_id", "order_id");`);
    this.addSql(`alter table "payment_allocation" add constraint "payment_allocation_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "payment_allocation" add constraint "payment_allocation_organization_id_reverses_id_unique" unique ("organization_id", "reverses_id");`);
    this.addSql(`alter table "payment_allocation" add constraint "payment_allocation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "payment_allocation" add constraint "payment_allocation_payment_id_foreign" foreign key ("organization_id", "payment_id") references "payment" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "payment_allocation" add constraint "payment_allocation_order_id_foreign" foreign key ("organization_id", "order_id") references "sales_order" ("organization_id", "id") on update no action on delete cascade;`);
    this.addSql(`alter table "payment_allocation" add constraint "payment_allocation_reverses_id_foreign" foreign key ("organization_id", "reverses_id") references "payment_allocation" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`create function payment_allocation_append_only() returns trigger language plpgsql as $$
      begin
        -- pg_trigger_depth() > 1: the DELETE comes from a foreign key's cascade (its order, payment or workspace is being removed).
        if tg_op = 'DELETE' and pg_trigger_depth() > 1 then return old; end if;
        raise exception 'payment_allocation rows are append-only: void the payment instead' using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger payment_allocation_append_only before update or delete on payment_allocation for each row execute function payment_allocation_append_only();`);
    this.addSql(`alter table payment_allocation enable always trigger payment_allocation_append_only;`);

    // The rollups count allocations as paid.
    for (const [fn, body] of rollupFunctions(PAID_WITH_ALLOCATIONS)) {
      this.addSql(`create or replace function ${fn}() returns trigger language plpgsql as $body$${body}\n$body$;`);
    }
    for (const [fn, body, when, each] of ALLOCATION_TRIGGERS) {
      this.addSql(`create function ${fn}() returns trigger language plpgsql as $body$${body}\n$body$;`);
      this.addSql(`create trigger ${fn} ${when} on payment_allocation ${each} execute function ${fn}();`);
      this.addSql(`alter table payment_allocation enable always trigger ${fn};`);
    }

    // The ledger posts against the payment's customer.
    this.addSql(`create or replace function ledger_post_payments() returns trigger language plpgsql as $$
      begin
        ${PAYMENT_POSTINGS('new_rows p')};
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function ledger_post_payments() returns trigger language plpgsql as $$
      begin
        ${PAYMENT_POSTINGS_BEFORE('new_rows p')};
        return null;
      end $$;`);
    for (const [fn] of ALLOCATION_TRIGGERS) {
      this.addSql(`drop trigger if exists ${fn} on payment_allocation;`);
      this.addSql(`drop function if exists ${fn}();`);
    }
    for (const [fn, body] of rollupFunctions(PAID_DIRECT)) {
      this.addSql(`create or replace function ${fn}() returns trigger language plpgsql as $body$${body}\n$body$;`);
    }
    this.addSql(`drop table if exists "payment_allocation" cascade;`);
    this.addSql(`drop function if exists payment_allocation_append_only();`);
    this.addSql(`drop trigger if exists payment_customer_of_order on payment;`);
    this.addSql(`drop function if exists payment_customer_of_order();`);
    // On-account payments have no order: they cannot go back.
    this.addSql(`alter table "payment" alter column "order_id" set not null;`);
    this.addSql(`alter table "payment" drop constraint "payment_customer_id_foreign";`);
    this.addSql(`drop index "payment_organization_id_customer_id_index";`);
    this.addSql(`alter table "payment" drop column "customer_id";`);
  }
}

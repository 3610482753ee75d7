import { Migration } from '@mikro-orm/migrations';

/*
 * The dashboard's aggregates (issue 20): per workspace, the orders of each local day and status
 * (order_day_rollup) and the order lines of each local day and variant (line_day_rollup), kept by
 * triggers in the same transaction as the rows they sum, never by a job that can lag.
 *
 * - The day is the order's order_date, already the workspace's local day, so a time-zone change
 *   moves nothing; the figures by instant ("payments today", "outlets tagged today") are read from
 *   their (organization_id, paid_at / tagged_at) indexes and are not rolled up.
 * - Lines are summed by variant: the report multiplies by the variant's current unit_quantity and
 *   groups by its product's current class and name when it reads them.
 * - outstanding_amount is each order's total less its payments, never below 0, summed; the
 *   payment triggers lock the orders they touch (FOR NO KEY UPDATE) before they read the payments,
 *   so two transactions paying one order cannot both compute from the sum before the other.
 * - Statement-level triggers with transition tables: one aggregate per statement, so the seed's
 *   bulk INSERT ... SELECT and the ORM's one-row writes both cost one pass. ENABLE ALWAYS: they
 *   also run under session_replication_role = replica (the seed skips the foreign-key triggers so).
 * - A new order counts as unpaid, and a line or payment counts only when its order exists (the
 *   foreign keys let them come only after it; with them off, write orders first): the result is
 *   the same whichever of the triggers of one statement (the seed's data-modifying CTEs) runs first. A deleted order takes its lines and payments out of the sums in a BEFORE DELETE
 *   row trigger, while they still exist; their own (cascaded) deletes then find no order and add
 *   nothing. A workspace being deleted (its organization row gone) is skipped.
 * - TRUNCATE bypasses triggers: after one, `npm run cli -- stats:rebuild <slug>`.
 *
 * Each trigger locks the rollup rows it changes in key order first, and inserts new ones in key
 * order, so two transactions changing the same rows (two orders of one day moved from status 1 to
 * 2) wait for each other instead of deadlocking.
 *
 * The existing rows are summed after the triggers exist: creating them locks the tables against
 * writes until the migration commits, so nothing written meanwhile is missed or counted twice.
 * The statements are this migration's own (later code must not change what it did).
 */

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

/** The lines of `rows` (a transition table) signed by `sign`, dated by their order (lines of a missing order add nothing). */
const linesOf = (rows: string, sign: string) => `
  select li.organization_id, o.order_date, li.product_variant_id, ${sign}1, ${sign}li.quantity
    from ${rows} li join sales_order o on o.organization_id = li.organization_id and o.id = li.order_id`;

/** The body of a trigger function on order_item for an operation with these transition tables. */
function lineTrigger(tables: Array<['new_rows' | 'old_rows', '' | '-']>): string {
  const orders = tables.map(([rows]) => `select organization_id, order_id from ${rows}`).join(' union ');
  return `
  begin
    -- Lock the orders (against a concurrent change of their order_date) before reading their dates.
    perform 1 from sales_order o where (o.organization_id, o.id) in (${orders}) order by o.organization_id, o.id for share of o;
    ${addToLineDays(tables.map(([rows, sign]) => linesOf(rows, sign)).join(' union all '))}
    return null;
  end`;
}

/** The body of a trigger function on payment for an operation with these transition tables. */
function paymentTrigger(tables: Array<['new_rows' | 'old_rows', '' | '-']>): string {
  const amounts = tables.map(([rows, sign]) => `select organization_id, order_id, ${sign}amount from ${rows}`).join(' union all ');
  return `
  begin
    perform 1 from sales_order o where (o.organization_id, o.id) in (select organization_id, order_id from (${amounts}) a (organization_id, order_id, amount))
      order by o.organization_id, o.id for no key update of o;
    -- Each order's share moves from its outstanding amount before these payments to the one after.
    ${addToOrderDays(`
      with moved as (
        select organization_id, order_id, sum(amount) as amount from (${amounts}) a (organization_id, order_id, amount) group by organization_id, order_id),
      paid as (
        select p.organization_id, p.order_id, sum(p.amount) as amount
          from payment p join moved m on m.organization_id = p.organization_id and m.order_id = p.order_id
         group by p.organization_id, p.order_id)
      select o.organization_id, o.order_date, o.status, 0, 0, m.amount,
             greatest(o.total_amount - coalesce(p.amount, 0), 0) - greatest(o.total_amount - (coalesce(p.amount, 0) - m.amount), 0)
        from moved m
        join sales_order o on o.organization_id = m.organization_id and o.id = m.order_id
        left join paid p on p.organization_id = m.organization_id and p.order_id = m.order_id`)}
    return null;
  end`;
}

const ORDERS_INSERTED = `
  begin
    -- Unpaid when placed: payments (which need the order) add their own share.
    ${addToOrderDays(`select organization_id, order_date, status, 1, total_amount, 0, greatest(total_amount, 0) from new_rows`)}
    return null;
  end`;

const ORDERS_UPDATED = `
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
          from changed c left join payment p on p.organization_id = c.organization_id and p.order_id = c.id
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

const ORDER_DELETING = `
  declare
    paid numeric;
  begin
    -- The workspace itself is being deleted: its sums go with it.
    if not exists (select 1 from organization g where g.id = old.organization_id) then
      return old;
    end if;
    select coalesce(sum(p.amount), 0) into paid from payment p where p.organization_id = old.organization_id and p.order_id = old.id;
    ${addToOrderDays(`select old.organization_id, old.order_date, old.status, -1, -old.total_amount, -paid, -greatest(old.total_amount - paid, 0)`)}
    ${addToLineDays(`
      select li.organization_id, old.order_date, li.product_variant_id, -1, -li.quantity
        from order_item li where li.organization_id = old.organization_id and li.order_id = old.id`)}
    return old;
  end`;

/** [function, body, trigger, timing and event, transition tables]. */
const TRIGGERS: ReadonlyArray<readonly [string, string, string, string, string]> = [
  ['order_rollup_orders_inserted', ORDERS_INSERTED, 'sales_order', 'after insert', 'referencing new table as new_rows for each statement'],
  ['order_rollup_orders_updated', ORDERS_UPDATED, 'sales_order', 'after update', 'referencing old table as old_rows new table as new_rows for each statement'],
  ['order_rollup_order_deleting', ORDER_DELETING, 'sales_order', 'before delete', 'for each row'],
  ['order_rollup_lines_inserted', lineTrigger([['new_rows', '']]), 'order_item', 'after insert', 'referencing new table as new_rows for each statement'],
  [
    'order_rollup_lines_updated',
    lineTrigger([['old_rows', '-'], ['new_rows', '']]),
    'order_item',
    'after update',
    'referencing old table as old_rows new table as new_rows for each statement',
  ],
  ['order_rollup_lines_deleted', lineTrigger([['old_rows', '-']]), 'order_item', 'after delete', 'referencing old table as old_rows for each statement'],
  ['order_rollup_payments_inserted', paymentTrigger([['new_rows', '']]), 'payment', 'after insert', 'referencing new table as new_rows for each statement'],
  [
    'order_rollup_payments_updated',
    paymentTrigger([['old_rows', '-'], ['new_rows', '']]),
    'payment',
    'after update',
    'referencing old table as old_rows new table as new_rows for each statement',
  ],
  ['order_rollup_payments_deleted', paymentTrigger([['old_rows', '-']]), 'payment', 'after delete', 'referencing old table as old_rows for each statement'],
];

export class Migration20261126100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "order_day_rollup" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "day" date not null, "status" smallint not null, "orders" int not null, "total_amount" numeric(20,2) not null, "paid_amount" numeric(20,2) not null, "outstanding_amount" numeric(20,2) not null);`);
    this.addSql(`alter table "order_day_rollup" add constraint "order_day_rollup_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "order_day_rollup" add constraint "order_day_rollup_organization_id_day_status_unique" unique ("organization_id", "day", "status");`);
    this.addSql(`alter table "order_day_rollup" add constraint "order_day_rollup_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "line_day_rollup" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "organization_id" int not null, "day" date not null, "product_variant_id" int not null, "lines" int not null, "quantity" bigint not null);`);
    this.addSql(`alter table "line_day_rollup" add constraint "line_day_rollup_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "line_day_rollup" add constraint "line_day_rollup_organization_id_day_product_variant_id_unique" unique ("organization_id", "day", "product_variant_id");`);
    this.addSql(`alter table "line_day_rollup" add constraint "line_day_rollup_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "line_day_rollup" add constraint "line_day_rollup_product_variant_id_foreign" foreign key ("organization_id", "product_variant_id") references "product_variant" ("organization_id", "id") on update no action on delete cascade;`);

    for (const [fn, body, table, when, each] of TRIGGERS) {
      this.addSql(`create function ${fn}() returns trigger language plpgsql as $body$${body}\n$body$;`);
      this.addSql(`create trigger ${fn} ${when} on ${table} ${each} execute function ${fn}();`);
      this.addSql(`alter table ${table} enable always trigger ${fn};`);
    }

    this.addSql(`
      insert into order_day_rollup (organization_id, day, status, orders, total_amount, paid_amount, outstanding_amount)
      select o.organization_id, o.order_date, o.status, count(*), sum(o.total_amount), coalesce(sum(p.amount), 0), sum(greatest(o.total_amount - coalesce(p.amount, 0), 0))
        from sales_order o
        left join (select organization_id, order_id, sum(amount) as amount from payment group by organization_id, order_id) p
               on p.organization_id = o.organization_id and p.order_id = o.id
       group by o.organization_id, o.order_date, o.status;`);
    this.addSql(`
      insert into line_day_rollup (organization_id, day, product_variant_id, lines, quantity)
      select li.organization_id, o.order_date, li.product_variant_id, count(*), sum(li.quantity)
        from order_item li join sales_order o on o.organization_id = li.organization_id and o.id = li.order_id
       group by li.organization_id, o.order_date, li.product_variant_id;`);
    // Statistics for the planner at once, not when autovacuum first passes.
    this.addSql(`analyze order_day_rollup, line_day_rollup;`);
  }

  override async down(): Promise<void> {
    for (const [fn, , table] of TRIGGERS) {
      this.addSql(`drop trigger ${fn} on ${table};`);
      this.addSql(`drop function ${fn}();`);
    }
    this.addSql(`drop table if exists "order_day_rollup" cascade;`);
    this.addSql(`drop table if exists "line_day_rollup" cascade;`);
  }
}

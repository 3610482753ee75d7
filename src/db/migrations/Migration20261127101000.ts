import { Migration } from '@mikro-orm/migrations';

/*
 * Payment voids (issue 24): a void is a payment row of its own, the negated amount of the payment
 * it voids (`voids_payment_id`), so every sum over payments — an order's paid and outstanding
 * amounts, the dashboard's rollups and collections, the check against overpaying — nets it out
 * with no change, and nothing is updated: the original stays as it was.
 * - payment_void_mirrors: an ordinary payment is positive; a void is negative and names what it voids.
 * - payment_voided_once: a payment is voided at most once (a unique index: races too).
 * - The ledger trigger on payments posts a void as the reversal of the voided payment's credit
 *   (kind 6, a debit of the amount, `reverses_id` its posting, `payment_id` the void).
 */
const PAYMENT_POSTINGS = (source: string) => `
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

export class Migration20261127101000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payment" add column "voids_payment_id" int null, add column "void_reason" varchar(500) null;`);
    this.addSql(`alter table "payment" add constraint "payment_voids_payment_id_foreign" foreign key ("organization_id", "voids_payment_id") references "payment" ("organization_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "payment" add constraint "payment_void_mirrors" check ((voids_payment_id is null and amount > 0) or (voids_payment_id is not null and amount < 0));`);
    this.addSql(`create unique index "payment_voided_once" on "payment" ("organization_id", "voids_payment_id") where "voids_payment_id" is not null;`);
    this.addSql(`create or replace function ledger_post_payments() returns trigger language plpgsql as $$
      begin
        ${PAYMENT_POSTINGS('new_rows p')};
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "payment_voided_once";`);
    this.addSql(`alter table "payment" drop constraint if exists "payment_void_mirrors", drop constraint if exists "payment_voids_payment_id_foreign";`);
    this.addSql(`alter table "payment" drop column "voids_payment_id", drop column "void_reason";`);
  }
}

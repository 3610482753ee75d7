import type { ClientBase } from 'pg';
import type { RowCounts, WorkspaceIds } from './masters-sql';
import { HISTORY_DAYS, addDays } from './workspace-plan';
import { OrderStatus } from '../domains/orders/order.entity';
import type { SeedSchemeParams } from './schemes-sql';

/**
 * The orders of one workspace, with their lines, status history and payments, in ONE statement:
 * generate_series over the order numbers, pseudo-randomness from md5 of "<seed>:<workspace>:…:<n>"
 * (so every value depends on its key only, whatever plan PostgreSQL picks), and data-modifying CTEs
 * that insert the orders, then the lines, history rows and payments joined to the new order ids.
 *
 * The rules the service applies are kept:
 * - order codes ORD-<year of order date>-<sequence of at least 6 digits>, the sequence in creation order (the
 *   workspace's `order` counter is then set to the last one, so the next API order follows on);
 * - a line is quantity × the variant's selling price, in whole paise; the total is the sum of the
 *   lines; 1-8 lines, each of a different variant;
 * - the status moves 1 → 2 → 3 → 4, one history row per step (the first from null), each step
 *   later than the one before; the status is how far the order had got at the as-of moment (a few
 *   orders stall at an earlier step, as real ones do). OrderStatus codes are the flow's step
 *   numbers, and the statement counts in them: a status is 1 + the steps taken, its history rows
 *   generate_series(1, status);
 * - town and route are the customer's; payments only against delivered orders, after delivery,
 *   never more than the total (one full payment, two instalments, a part payment, or none yet).
 */
const NAMED_SQL = `
with
hashed as (
  select g, md5(:key || ':o:' || g) as m1, md5(:key || ':s:' || g) as m2, md5(:key || ':p:' || g) as m3
    from generate_series(1, :orders) as g
),
-- Materialized: an inlined CTE would have its expressions copied into every use, md5 included.
r as materialized (
  select g,
         ('x' || substr(m1, 1, 7))::bit(28)::int as a1, ('x' || substr(m1, 9, 7))::bit(28)::int as a2,
         ('x' || substr(m1, 17, 7))::bit(28)::int as a3, ('x' || substr(m1, 25, 7))::bit(28)::int as a4,
         ('x' || substr(m2, 1, 7))::bit(28)::int as b1, ('x' || substr(m2, 9, 7))::bit(28)::int as b2,
         ('x' || substr(m2, 17, 7))::bit(28)::int as b3, ('x' || substr(m2, 25, 7))::bit(28)::int as b4,
         ('x' || substr(m3, 1, 7))::bit(28)::int as c1, ('x' || substr(m3, 9, 7))::bit(28)::int as c2,
         ('x' || substr(m3, 17, 7))::bit(28)::int as c3, ('x' || substr(m3, 25, 7))::bit(28)::int as c4
    from hashed
),
dated as (
  -- Order volume grows over the two years (density 1:3 from the first day to the last):
  -- the day is the inverse of the CDF (x + x^2) / 2 at a uniform draw.
  select r.*, :first_day + floor((sqrt(1 + 8 * (a1::float8 / 268435456)) - 1) / 2 * ${HISTORY_DAYS})::int as day0
    from r
),
placed as (
  select d.*,
         -- Fewer orders on Sundays: most move to one of the six days before (after, near the first day).
         case when extract(isodow from day0) = 7 and a2 % 10 < 6
              then case when day0 - 1 - (a2 / 504000) % 6 >= :first_day then day0 - 1 - (a2 / 504000) % 6 else day0 + 1 + (a2 / 504000) % 6 end
              else day0 end as order_date,
         (:nd > 0 and (a3 % 100 < 20 or :nr = 0)) as by_distributor,
         ((a3 >> 7) & 2097151)::bigint as cu
    from dated d
),
shaped as (
  select x.*,
         -- Customers are not equally busy: the index is n·u² (integer arithmetic, exact everywhere).
         1 + ((((cu * cu) >> 21) * (case when by_distributor then :nd else :nr end)) >> 21)::int as ci,
         ((order_date + time '07:00') + ((a2 / 10) % 50400) * interval '1 second') at time zone :tz as t0,
         600 + b1 % 108000 as s1,
         600 + b1 % 108000 + 1800 + b2 % 86400 as s2,
         600 + b1 % 108000 + 1800 + b2 % 86400 + 7200 + b3 % 259200 as s3,
         case when (b1 / 108000) % 100 < 3 then 1 + (b1 / 10800000) % 3 else ${OrderStatus.DELIVERED} end as cap,
         1 + (b2 / 86400) % 8 as n_lines,
         b4 % :nv as vbase
    from placed x
),
timed as (
  select s.*,
         t0 + s1 * interval '1 second' as t1, t0 + s2 * interval '1 second' as t2, t0 + s3 * interval '1 second' as t3
    from shaped s
),
numbered as (
  select t.*,
         row_number() over (order by t0, g) as seq,
         least(cap, 1 + (t.t1 < :as_of)::int + (t.t2 < :as_of)::int + (t.t3 < :as_of)::int) as status,
         case when by_distributor then :d_id[ci] else :r_id[ci] end as customer_id,
         case when by_distributor then :d_town[ci] else :r_town[ci] end as town_id,
         case when by_distributor then :d_route[ci] else :r_route[ci] end as route_id,
         case when a4 % 100 < 85 then :units[1 + (b4 / :nv) % :nu] end as production_unit_id,
         case when (a4 / 100) % 100 < 30 then 'cash' when (a4 / 100) % 100 < 55 then 'upi'
              when (a4 / 100) % 100 < 75 then 'credit' when (a4 / 100) % 100 < 85 then 'bank_transfer'
              when (a4 / 100) % 100 < 92 then 'cheque' when (a4 / 100) % 100 < 95 then 'card' end as mode_of_payment,
         case when (a4 / 10000) % 100 < 60 then order_date + 1 + (a4 / 10000) % 2 end as delivery_date,
         (a4 / 1000000) % 100 as creator_draw,
         :staff[1 + c4 % :ns] as staff_creator,
         -- Two in a hundred orders of the last year fulfil a FOC request (foc-sql.ts): zero-priced, no scheme.
         (order_date >= :foc_from and (c4 / 65536) % 100 < 2) as foc
    from timed t
),
drawn_lines as (
  select n.seq, n.t0, l.k,
         :v_id[1 + (n.vbase + (l.k - 1) * :stride) % :nv] as variant_id,
         :v_paise[1 + (n.vbase + (l.k - 1) * :stride) % :nv] as unit_paise,
         :v_product[1 + (n.vbase + (l.k - 1) * :stride) % :nv] as product_id,
         :v_class[1 + (n.vbase + (l.k - 1) * :stride) % :nv] as class_id,
         n.by_distributor,
         -- The line's own draw: the order's b3 and the line number through an integer mixer
         -- (multiply, xor-shift; exact bigint arithmetic), cheaper than an md5 per line.
         (n.b3::bigint + l.k * 2654435769) % 4294967296 as x0
    from numbered n, generate_series(1, n.n_lines) as l(k)
),
mixed_lines as (
  select d.*, ((x1 # (x1 >> 16)) * 73244475) % 4294967296 as x2
    from (select d.*, ((x0 # (x0 >> 16)) * 73244475) % 4294967296 as x1 from drawn_lines d) d
),
lines as (
  -- A line is worth ₹2,000-60,000 to a distributor and ₹100-3,000 to a retailer: the quantity is
  -- that value over the unit price (at least 1), so a 15-litre tin sells by the few and a sachet by the hundred.
  select seq, t0, k, variant_id, unit_paise, product_id, class_id,
         greatest(1, case when by_distributor then 200000 + (x2 # (x2 >> 16)) % 5800000 else 10000 + (x2 # (x2 >> 16)) % 290000 end / unit_paise)::int as quantity
    from mixed_lines
),
-- Schemes (schemes-sql.ts), as the engine applies them at order creation, in creation order (seq).
cart as materialized (
  select l.seq, l.t0, l.k, l.variant_id, l.unit_paise, l.quantity, l.product_id, l.class_id, l.quantity::bigint * l.unit_paise as gross,
         n.order_date, n.by_distributor, n.town_id, n.route_id
    from lines l join numbered n using (seq)
   where not n.foc
),
-- The class discount: percent of each line of the class, half-up per line, the slab by the class's quantity;
-- its amount budget taken line by line in creation order (what is used is min(running sum wanted, budget)).
s1_want as (
  select c.seq, c.k, (c.gross * b.bp + 5000) / 10000 as want
    from cart c
    join (select seq, sum(quantity) as qty from cart where class_id = :s1_class and order_date between :s1_from and :s1_to group by seq) q using (seq),
         lateral (select case when q.qty >= :s1_q[3] then :s1_bp[3] when q.qty >= :s1_q[2] then :s1_bp[2] when q.qty >= :s1_q[1] then :s1_bp[1] end as bp) b
   where c.class_id = :s1_class and b.bp is not null
),
s1_lines as (
  select seq, k, least(w_incl, :s1_budget) - least(w_incl - want, :s1_budget) as d
    from (select w.*, sum(w.want) over (order by w.seq, w.k) as w_incl from s1_want w) x
),
-- Buy m get 1 (recursive) of one variant, retailers only, free units budget in creation order.
s2_want as (
  select c.seq, (c.quantity / :s2_min) * :s2_free as want
    from cart c
   where c.variant_id = :s2_variant and not c.by_distributor and c.order_date between :s2_from and :s2_to and c.quantity >= :s2_min
),
s2_orders as (
  select seq, least(w_incl, :s2_budget) - least(w_incl - want, :s2_budget) as units
    from (select w.*, sum(w.want) over (order by w.seq) as w_incl from s2_want w) x
),
-- The town discount (stackable, lower priority): the product's lines not closed by the free goods above.
s3_elig as (
  select c.seq, c.k, c.quantity, c.gross
    from cart c
    left join s2_orders s2 on s2.seq = c.seq and s2.units > 0 and c.variant_id = :s2_variant
   where c.product_id = :s3_product and c.order_date >= :s3_from and c.town_id = any(:s3_towns) and s2.seq is null
),
s3_lines as (
  select e.seq, e.k, least(e.quantity * a.amt, e.gross) as d
    from s3_elig e
    join (select seq, sum(quantity) as qty from s3_elig group by seq) q using (seq),
         lateral (select case when q.qty >= :s3_q[2] then :s3_amt[2] when q.qty >= :s3_q[1] then :s3_amt[1] end as amt) a
   where a.amt is not null
),
-- The route scheme: free goods by slab (not recursive), some routes.
s6_orders as (
  select c.seq, case when c.quantity >= :s6_q[2] then :s6_free[2] else :s6_free[1] end as units
    from cart c
   where c.variant_id = :s6_variant and c.route_id = any(:s6_routes) and c.order_date between :s6_from and :s6_to and c.quantity >= :s6_q[1]
),
priced as (
  select c.seq, c.t0, c.k, c.variant_id, c.unit_paise, c.quantity, c.gross, coalesce(s1.d, 0) + coalesce(s3.d, 0) as discount
    from cart c
    left join s1_lines s1 on s1.seq = c.seq and s1.k = c.k
    left join s3_lines s3 on s3.seq = c.seq and s3.k = c.k
  union all
  -- A FOC order's lines are given, not sold: at 0.
  select l.seq, l.t0, l.k, l.variant_id, 0, l.quantity, 0, 0
    from lines l join numbered n using (seq)
   where n.foc
),
free_lines as (
  select seq, 1 as ord, :s2_variant as variant_id, units::int as quantity, :s2_id as scheme_id from s2_orders where units > 0
  union all
  select seq, 2, :s6_fv, units, :s6_id from s6_orders
),
uses as (
  select seq, :s1_id as scheme_id, sum(d) as amount_paise, 0 as units from s1_lines group by seq having sum(d) > 0
  union all select seq, :s2_id, units * :s2_sp, units::int from s2_orders where units > 0
  union all select seq, :s3_id, sum(d), 0 from s3_lines group by seq
  union all select seq, :s6_id, units * :s6_fsp, units from s6_orders
),
totals as (
  select p.seq, sum(p.gross - p.discount) as total_paise, count(*) + coalesce(max(f.n), 0) as items
    from priced p left join (select seq, count(*) as n from free_lines group by seq) f using (seq)
   group by p.seq
),
orders as (
  select n.*, t.total_paise, t.items,
         case when foc then :admin when creator_draw < 45 then customer_id when creator_draw < 92 then staff_creator end as created_by,
         case status when ${OrderStatus.INITIATED} then t0 when ${OrderStatus.FORWARDED} then t1 when ${OrderStatus.APPROVED} then t2 else t3 end as last_change
    from numbered n join totals t using (seq)
),
ins_orders as (
  insert into sales_order (created_at, updated_at, organization_id, order_code, status, order_date, customer_id, town_id, route_id,
                           production_unit_id, total_amount, items_count, delivery_date, mode_of_payment, delivery_otp_hash, created_by_user_id)
  select o.t0, o.last_change, :org, 'ORD-' || to_char(o.order_date, 'YYYY') || '-' || lpad(o.seq::text, greatest(6, length(o.seq::text)), '0'), o.status, o.order_date,
         o.customer_id, o.town_id, o.route_id, o.production_unit_id, o.total_paise / 100.0, o.items, o.delivery_date, o.mode_of_payment,
         encode(sha256(convert_to(:key || ':otp:' || o.g, 'UTF8')), 'hex'), o.created_by
    from orders o
   order by o.seq
  returning id, split_part(order_code, '-', 3)::int as seq
),
ins_items as (
  insert into order_item (created_at, updated_at, organization_id, order_id, product_variant_id, quantity, unit_price, amount, discount_amount, scheme_id)
  select x.t0, x.t0, :org, i.id, x.variant_id, x.quantity, x.unit_paise / 100.0, (x.gross - x.discount) / 100.0, x.discount / 100.0, x.scheme_id
    from (select seq, t0, k, variant_id, quantity, unit_paise, gross, discount, null::int as scheme_id from priced
          union all
          select f.seq, n.t0, 100 + f.ord, f.variant_id, f.quantity, 0, 0, 0, f.scheme_id from free_lines f join numbered n using (seq)) x
    join ins_orders i using (seq)
   order by i.id, x.k
  returning 1
),
ins_uses as (
  insert into scheme_use (created_at, updated_at, organization_id, scheme_id, order_id, amount, units)
  select n.t0, n.t0, :org, u.scheme_id, i.id, u.amount_paise / 100.0, u.units
    from uses u join ins_orders i using (seq) join numbered n using (seq)
   order by i.id, u.scheme_id
  returning 1
),
ins_history as (
  insert into order_status_history (created_at, updated_at, organization_id, order_id, from_status, to_status, changed_at, changed_by_user_id)
  select x.at, x.at, :org, i.id, nullif(h.k - 1, 0), h.k, x.at,
         case when h.k = 1 then o.created_by else :staff[1 + (o.c4 + h.k * 7919) % :ns] end
    from orders o join ins_orders i using (seq), generate_series(1, o.status) as h(k),
         lateral (select case h.k when ${OrderStatus.INITIATED} then o.t0 when ${OrderStatus.FORWARDED} then o.t1 when ${OrderStatus.APPROVED} then o.t2 else o.t3 end as at) x
   order by i.id, h.k
  returning 1
),
payment_plan as (
  select i.id as order_id, o.customer_id, o.seq, o.total_paise, o.mode_of_payment, o.c1, o.c2, o.c3, o.c4,
         o.c1 % 100 as kind, 20 + (o.c1 / 100) % 41 as pct,
         o.t3 + (1800 + o.c2 % 864000) * interval '1 second' as at1,
         o.t3 + (1800 + o.c2 % 864000 + 86400 + o.c3 % 1728000) * interval '1 second' as at2
    from orders o join ins_orders i using (seq)
   where o.status = ${OrderStatus.DELIVERED} and o.total_paise > 0
),
payments as (
  select pp.order_id, pp.customer_id, pp.seq, k,
         case when pp.kind < 55 then pp.total_paise
              when k = 1 then greatest(1, floor(pp.total_paise * (pp.pct + 10) / 100))
              when pp.kind < 70 then pp.total_paise - greatest(1, floor(pp.total_paise * (pp.pct + 10) / 100))
         end as amount_paise,
         case when k = 1 then pp.at1 else pp.at2 end as paid_at,
         case when k = 1 and pp.mode_of_payment in ('cash', 'upi', 'card', 'bank_transfer', 'cheque') then pp.mode_of_payment
              else (array['upi', 'bank_transfer', 'cheque', 'cash'])[1 + (pp.c1 / 4100 + k) % 4] end as mode,
         pp.c2, pp.c3, pp.c4
    from payment_plan pp,
         generate_series(1, case when pp.kind < 55 then 1 when pp.kind < 70 then 2 when pp.kind < 85 then 1 else 0 end) as k
),
ins_payments as (
  insert into payment (created_at, updated_at, organization_id, order_id, customer_id, amount, mode_of_payment, paid_at, reference, recorded_by_user_id)
  select x.paid_at, x.paid_at, :org, x.order_id, x.customer_id, x.amount_paise / 100.0, x.mode, x.paid_at,
         case x.mode
           when 'upi' then lpad(((x.c2::bigint * 4099 + x.c3 + x.k) % 1000000000000)::text, 12, '0')
           when 'bank_transfer' then 'UTR' || lpad(((x.c3::bigint * 7919 + x.c2 + x.k) % 1000000000000)::text, 12, '0')
           when 'cheque' then 'CHQ ' || lpad(((x.c3 + x.k) % 1000000)::text, 6, '0')
           when 'cash' then 'RCPT-' || x.seq || '-' || x.k
         end,
         :staff[1 + (x.c4 / 7 + x.k) % :ns]
    from payments x
   where x.paid_at < :as_of and x.amount_paise > 0
   order by x.order_id, x.k
  returning 1
)
select (select count(*) from ins_orders)::int as orders,
       (select count(*) from ins_items)::int as items,
       (select count(*) from ins_history)::int as history,
       (select count(*) from ins_payments)::int as payments,
       (select count(*) from ins_uses)::int as uses,
       (select coalesce(array_agg(i.id order by i.id), '{}') from ins_orders i join numbered n using (seq) where n.foc) as foc_orders`;

/**
 * The statement's parameters, by name. They are used directly in the expressions (never through a
 * one-row CTE): PostgreSQL then plans them as constants, so the arrays are not copied into every row.
 */
const PARAMETERS: Record<string, string> = {
  key: '$1::text',
  org: '$2::int',
  orders: '$3::int',
  first_day: '$4::date',
  as_of: '($5::date::timestamp at time zone $6::text)',
  tz: '$6::text',
  d_id: '($7::int[])',
  d_town: '($8::int[])',
  d_route: '($9::int[])',
  r_id: '($10::int[])',
  r_town: '($11::int[])',
  r_route: '($12::int[])',
  staff: '($13::int[])',
  units: '($14::int[])',
  v_id: '($15::int[])',
  v_paise: '($16::bigint[])',
  stride: '$17::int',
  v_product: '($18::int[])',
  v_class: '($19::int[])',
  s1_id: '$20::int',
  s1_class: '$21::int',
  s1_from: '$22::date',
  s1_to: '$23::date',
  s1_q: '($24::int[])',
  s1_bp: '($25::int[])',
  s1_budget: '$26::bigint',
  s2_id: '$27::int',
  s2_variant: '$28::int',
  s2_from: '$29::date',
  s2_to: '$30::date',
  s2_min: '$31::int',
  s2_free: '$32::int',
  s2_budget: '$33::bigint',
  s2_sp: '$34::bigint',
  s3_id: '$35::int',
  s3_product: '$36::int',
  s3_from: '$37::date',
  s3_towns: '($38::int[])',
  s3_q: '($39::int[])',
  s3_amt: '($40::bigint[])',
  s6_id: '$41::int',
  s6_variant: '$42::int',
  s6_from: '$43::date',
  s6_to: '$44::date',
  s6_routes: '($45::int[])',
  s6_q: '($46::int[])',
  s6_free: '($47::int[])',
  s6_fv: '$48::int',
  s6_fsp: '$49::bigint',
  foc_from: '$50::date',
  admin: '$51::int',
  nd: 'cardinality($7::int[])',
  nr: 'cardinality($10::int[])',
  ns: 'cardinality($13::int[])',
  nu: 'cardinality($14::int[])',
  nv: 'cardinality($15::int[])',
};

/** `:name` outside a cast (`::int`); other words after a colon (inside the key strings, like ':o:') stay as they are. */
const ORDERS_SQL = NAMED_SQL.replace(/(?<![:\w]):([a-z_][a-z0-9_]*)\b/g, (token, name: string) => PARAMETERS[name] ?? token);

/** The smallest step from 7 up that shares no factor with n, so k ↦ base + k·step (mod n) visits n different values. */
export function coprimeStride(n: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (let step = 7; ; step++) if (gcd(step, n) === 1) return step;
}

export async function insertOrders(
  client: ClientBase,
  options: { key: string; ids: WorkspaceIds; ordersPerOrg: number; asOf: string; timeZone: string; schemes: SeedSchemeParams },
  counts: RowCounts,
): Promise<{ focOrderIds: number[] }> {
  const { ids } = options;
  if (options.ordersPerOrg === 0) return { focOrderIds: [] };
  if (ids.variants.length < 8) throw new Error('a seeded workspace needs at least 8 variants');
  const [row] = (
    await client.query<{ orders: number; items: number; history: number; payments: number; uses: number; foc_orders: number[] }>(ORDERS_SQL, [
      options.key,
      ids.organizationId,
      options.ordersPerOrg,
      addDays(options.asOf, -HISTORY_DAYS),
      options.asOf,
      options.timeZone,
      ids.distributors.map((c) => c.id),
      ids.distributors.map((c) => c.townId),
      ids.distributors.map((c) => c.routeId),
      ids.retailers.map((c) => c.id),
      ids.retailers.map((c) => c.townId),
      ids.retailers.map((c) => c.routeId),
      ids.staff,
      ids.productionUnits,
      ids.variants.map((v) => v.id),
      ids.variants.map((v) => v.spPaise),
      coprimeStride(ids.variants.length),
      ids.variants.map((v) => v.productId),
      ids.variants.map((v) => v.classId),
      ...schemeArguments(options.schemes),
      addDays(options.asOf, -365),
      ids.adminUserId,
    ])
  ).rows;
  counts.sales_order = (counts.sales_order ?? 0) + row.orders;
  counts.order_item = (counts.order_item ?? 0) + row.items;
  counts.order_status_history = (counts.order_status_history ?? 0) + row.history;
  counts.payment = (counts.payment ?? 0) + row.payments;
  counts.scheme_use = (counts.scheme_use ?? 0) + row.uses;
  return { focOrderIds: row.foc_orders };
}

/** $20 … $49 of the statement: the seeded schemes (schemes-sql.ts). */
function schemeArguments(s: SeedSchemeParams): unknown[] {
  return [
    s.s1.id, s.s1.classId, s.s1.from, s.s1.to, s.s1.q, s.s1.bp, s.s1.budgetPaise,
    s.s2.id, s.s2.variantId, s.s2.from, s.s2.to, s.s2.min, s.s2.free, s.s2.budgetUnits, s.s2.spPaise,
    s.s3.id, s.s3.productId, s.s3.from, s.s3.towns, s.s3.q, s.s3.amtPaise,
    s.s6.id, s.s6.variantId, s.s6.from, s.s6.to, s.s6.routes, s.s6.q, s.s6.free, s.s6.freeVariantId, s.s6.freeSpPaise,
  ];
}

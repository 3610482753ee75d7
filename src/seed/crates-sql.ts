import type { ClientBase } from 'pg';
import { CrateMovementKind } from '../domains/crates/crate-movement.entity';
import { OrderStatus } from '../domains/orders/order.entity';
import type { RowCounts } from './masters-sql';

/** The crate types every seeded workspace has: name and deposit value. */
export const SEED_CRATE_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['Milk crate (12 × 1 l)', 150],
  ['Curd crate', 120],
];

/**
 * The crates of one workspace, consistent with its orders, in one statement. Every delivered (not
 * cancelled) order issues 1-6 crates of one type (seven in ten the milk crate) to its customer,
 * linked to the order, at its delivery, recorded by whoever delivered it. At the customer's next
 * delivery of that type the previous issue comes back: whole (four in five), or one fewer that stays
 * out (the balance grows and ages), or one damaged, or one lost. So no movement ever takes more than
 * the customer holds, the last issue of each customer and type is outstanding, and the ages read
 * back to real deliveries. Values are md5 of "<seed>:<workspace>:crate:<order code>", so the same
 * seed gives the same rows whatever the plan.
 */
const CRATES_SQL = `
with
delivered as (
  select o.id as order_id, o.customer_id, h.changed_at as at, h.changed_by_user_id as by, md5($2 || ':crate:' || o.order_code) as m
    from sales_order o
    join order_status_history h on h.organization_id = o.organization_id and h.order_id = o.id and h.to_status = ${OrderStatus.DELIVERED}
   where o.organization_id = $1 and o.status = ${OrderStatus.DELIVERED} and o.cancelled_at is null
),
drawn as materialized (
  select d.*, ('x' || substr(m, 1, 7))::bit(28)::int as a, ('x' || substr(m, 9, 7))::bit(28)::int as b from delivered d
),
typed as (
  select x.*, case when a % 10 < 7 then $3::int else $4::int end as crate_type_id, 1 + (a / 10) % 6 as issued from drawn x
),
sequenced as (
  select t.*, lag(t.issued) over (partition by t.customer_id, t.crate_type_id order by t.at, t.order_id) as prev from typed t
),
outcome as (
  select s.*,
         (s.prev is not null and s.b % 100 < 3)::int as damaged,
         (s.prev is not null and s.b % 100 between 3 and 4)::int as lost,
         (s.prev is not null and s.b % 100 between 5 and 19)::int as kept
    from sequenced s
),
moves as (
  select o.customer_id, o.crate_type_id, o.at, o.by, v.kind, v.quantity, v.order_id, v.step
    from outcome o,
         lateral (values (${CrateMovementKind.RETURN}, -(coalesce(o.prev, 0) - o.damaged - o.lost - o.kept), null::int, 1),
                         (${CrateMovementKind.DAMAGE}, -o.damaged, null::int, 2),
                         (${CrateMovementKind.LOSS}, -o.lost, null::int, 3),
                         (${CrateMovementKind.ISSUE}, o.issued, o.order_id, 4)) as v(kind, quantity, order_id, step)
   where v.quantity <> 0
)
insert into crate_movement (organization_id, crate_type_id, customer_id, kind, quantity, order_id, occurred_at, recorded_by_user_id, created_at, updated_at)
select $1, m.crate_type_id, m.customer_id, m.kind, m.quantity, m.order_id, m.at, m.by, m.at, m.at
  from moves m
 order by m.at, m.customer_id, m.crate_type_id, m.step`;

/** Inserts the workspace's crate types and its crate movements (see CRATES_SQL). */
export async function insertCrates(client: ClientBase, options: { key: string; organizationId: number }, counts: RowCounts): Promise<void> {
  const org = options.organizationId;
  const types = await client.query<{ id: number; name: string }>(
    `insert into crate_type (organization_id, name, deposit_value, status, created_at, updated_at)
     select $1, name, deposit, 1, o.created_at, o.created_at
       from unnest($2::text[], $3::numeric[]) with ordinality as x(name, deposit, n), organization o
      where o.id = $1
      order by n
     returning id, name`,
    [org, SEED_CRATE_TYPES.map((c) => c[0]), SEED_CRATE_TYPES.map((c) => c[1])],
  );
  const idOf = new Map(types.rows.map((r) => [r.name, r.id]));
  counts.crate_type = (counts.crate_type ?? 0) + types.rowCount!;
  const moved = await client.query(CRATES_SQL, [org, options.key, idOf.get(SEED_CRATE_TYPES[0][0]), idOf.get(SEED_CRATE_TYPES[1][0])]);
  counts.crate_movement = (counts.crate_movement ?? 0) + (moved.rowCount ?? 0);
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, joinSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import type { Paginated } from '../../lists/page-request';
import { sortable, type ResolvedSort } from '../../lists/sort';
import { pickedOrder } from '../../lists/sql-sort';

/** One customer's crates of one type: the sum of their movements, and how old the oldest still out is. */
export interface CrateBalance {
  customerId: number;
  crateTypeId: number;
  /** Sum of every movement's signed quantity (reversed movements and their reversals cancel out). */
  balance: number;
  /**
   * When the oldest crates the customer still holds reached them: the positive movements (issues,
   * opening balances, upward counts) are consumed oldest first by the negative ones (returns, damage,
   * loss, downward counts), and this is the first one not wholly consumed. Null at a balance of 0.
   */
  oldestOutstandingAt: Date | null;
  /** Whole days from that movement's local day to today's, the workspace's; null with it. */
  oldestOutstandingAgeDays: number | null;
  lastMovementAt: Date;
}

/** Which balances a page reads. */
export interface CrateBalanceConditions {
  customerId?: number;
  crateTypeId?: number;
  /** Only balances above 0. */
  held?: boolean;
}

/**
 * The balance list's sortable fields and their columns: the oldest outstanding crates first by
 * default (the customers to chase). `id` is the pair (customer, crate type).
 */
export const CRATE_BALANCE_SORT = sortable({
  name: 'CrateBalance',
  fields: {
    age_days: 'b.age_sort',
    balance: 'b.balance',
    last_movement_at: 'b.last_movement_at',
    customer_id: 'b.customer_id',
    crate_type_id: 'b.crate_type_id',
    id: '(b.customer_id, b.crate_type_id)',
  },
  default: '-age_days,-balance',
});

/**
 * The movements of the balances asked for, each marked `voided` when it is a reversal or has been
 * reversed: such a pair sums to 0 and never happened for the ageing, so a reversed issue is not
 * "consumed" by a later return.
 */
function movementsOf(organizationId: number, conditions: CrateBalanceConditions): Sql {
  const t = tenantSql(organizationId, 'm');
  const where: Sql[] = [t.owns()];
  if (conditions.customerId !== undefined) where.push(sql`m.customer_id = ${conditions.customerId}`);
  if (conditions.crateTypeId !== undefined) where.push(sql`m.crate_type_id = ${conditions.crateTypeId}`);
  return sql`select m.customer_id, m.crate_type_id, m.id, m.quantity, m.occurred_at,
      (m.reverses_id is not null or exists (select 1 from crate_movement r where ${t.owns('r')} and r.reverses_id = m.id)) as voided
    from crate_movement m where ${joinSql(where, ' and ')}`;
}

/**
 * The balances (one per customer and crate type with any movement) with their ageing, FIFO: the
 * negative movements consume the positive ones in the order they happened (occurred_at, then id),
 * whatever order they were recorded in. One statement, rooted at the organization.
 */
function balancesOf(organizationId: number, conditions: CrateBalanceConditions): Sql {
  const t = tenantSql(organizationId, 'c');
  return sql`with m as materialized (${movementsOf(organizationId, conditions)}),
    totals as (
      select m.customer_id, m.crate_type_id, sum(m.quantity)::int as balance,
             coalesce(sum(-m.quantity) filter (where m.quantity < 0 and not m.voided), 0) as consumed,
             max(m.occurred_at) as last_movement_at
        from m group by m.customer_id, m.crate_type_id),
    inflow as (
      select m.customer_id, m.crate_type_id, m.occurred_at,
             sum(m.quantity) over (partition by m.customer_id, m.crate_type_id order by m.occurred_at, m.id) as cumulative
        from m where m.quantity > 0 and not m.voided),
    oldest as (
      select i.customer_id, i.crate_type_id, min(i.occurred_at) as oldest_outstanding_at
        from inflow i join totals on totals.customer_id = i.customer_id and totals.crate_type_id = i.crate_type_id
       where totals.balance > 0 and i.cumulative > totals.consumed
       group by i.customer_id, i.crate_type_id),
    aged as (
      select totals.*, oldest.oldest_outstanding_at
        from totals left join oldest on oldest.customer_id = totals.customer_id and oldest.crate_type_id = totals.crate_type_id)
    select aged.customer_id, aged.crate_type_id, aged.balance, aged.oldest_outstanding_at, aged.last_movement_at,
           ((now() at time zone c.time_zone)::date - (aged.oldest_outstanding_at at time zone c.time_zone)::date) as age_days,
           coalesce(((now() at time zone c.time_zone)::date - (aged.oldest_outstanding_at at time zone c.time_zone)::date), -1) as age_sort
      from aged, workspace_config c where ${t.owns()}`;
}

interface BalanceRow {
  customer_id: number;
  crate_type_id: number;
  balance: number;
  oldest_outstanding_at: string | null;
  age_days: number | null;
  last_movement_at: string;
}

const balanceOf = (r: BalanceRow): CrateBalance => ({
  customerId: r.customer_id,
  crateTypeId: r.crate_type_id,
  balance: r.balance,
  oldestOutstandingAt: r.oldest_outstanding_at === null ? null : new Date(r.oldest_outstanding_at),
  oldestOutstandingAgeDays: r.age_days,
  lastMovementAt: new Date(r.last_movement_at),
});

/** A page of the balances matching `conditions`, in the order `page.sort` gives, and how many match in all. */
export async function findCrateBalancePage(
  em: EntityManager,
  organizationId: number,
  conditions: CrateBalanceConditions,
  page: { page: number; limit: number; offset: number; sort: ResolvedSort<string> },
): Promise<Paginated<CrateBalance>> {
  const held = conditions.held ? raw('where b.balance > 0') : raw('');
  const ordered = pickedOrder(page.sort);
  const [row] = await executeSql<{ count: number; balances: BalanceRow[] | null }>(
    em,
    sql`with b as materialized (${balancesOf(organizationId, conditions)}),
      picked as (select b.*, ${raw(ordered.keys)} from b ${held} order by ${raw(ordered.orderBy)} limit ${page.limit} offset ${page.offset})
      select (select count(*)::int from b ${held}) as count,
             (select json_agg(json_build_object('customer_id', picked.customer_id, 'crate_type_id', picked.crate_type_id, 'balance', picked.balance,
                'oldest_outstanding_at', picked.oldest_outstanding_at, 'age_days', picked.age_days, 'last_movement_at', picked.last_movement_at)
                order by ${raw(ordered.pickedOrderBy)}) from picked) as balances`,
  );
  return { items: (row.balances ?? []).map(balanceOf), total: row.count, page: page.page, limit: page.limit };
}

/** One customer's balance of one crate type (0 without movements): what a return is checked against, under the customer's lock. */
export async function crateBalanceOf(em: EntityManager, organizationId: number, customerId: number, crateTypeId: number): Promise<number> {
  const t = tenantSql(organizationId, 'm');
  const [row] = await executeSql<{ balance: number }>(
    em,
    sql`select coalesce(sum(m.quantity), 0)::int as balance from crate_movement m
         where ${t.owns()} and m.customer_id = ${customerId} and m.crate_type_id = ${crateTypeId}`,
  );
  return row.balance;
}

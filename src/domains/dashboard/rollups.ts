import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, raw, sql, tenantSql, type Sql, type TenantSql } from '../../db/tenant-sql';

/*
 * The dashboard's rollups (order_day_rollup, line_day_rollup) as the base rows define them, for the
 * operator's rebuild and check of one workspace (npm run cli -- stats:rebuild / stats:check). The
 * triggers of Migration20261126100000 keep them so with every write; these statements are the
 * definition they are checked against. What an order has been paid is its direct payments and the
 * allocations of on-account payments (Migration20261127160000). A cancelled order is left out: its cancel subtracted its
 * share (rollup-reversal.ts).
 */

/** A rollup: its table, key columns, summed columns, and its rows computed from the base rows. */
interface Rollup {
  table: string;
  keys: readonly string[];
  sums: readonly string[];
  expected(t: TenantSql): Sql;
}

const ROLLUPS: readonly Rollup[] = [
  {
    table: 'order_day_rollup',
    keys: ['day', 'status'],
    sums: ['orders', 'total_amount', 'paid_amount', 'outstanding_amount'],
    expected: (t) => sql`
      select o.organization_id, o.order_date as day, o.status, count(*)::int as orders, sum(o.total_amount) as total_amount,
             coalesce(sum(p.amount), 0) as paid_amount, sum(greatest(o.total_amount - coalesce(p.amount, 0), 0)) as outstanding_amount
        from sales_order o
        left join (select pm.organization_id, pm.order_id, sum(pm.amount) as amount
                     from (select x.organization_id, x.order_id, x.amount from payment x where ${t.owns('x')} and x.order_id is not null
                           union all select x.organization_id, x.order_id, x.amount from payment_allocation x where ${t.owns('x')}) pm
                    group by pm.organization_id, pm.order_id) p
               on p.organization_id = o.organization_id and p.order_id = o.id
       where ${t.owns('o')} and o.cancelled_at is null
       group by o.organization_id, o.order_date, o.status`,
  },
  {
    table: 'line_day_rollup',
    keys: ['day', 'product_variant_id'],
    sums: ['lines', 'quantity'],
    expected: (t) => sql`
      select li.organization_id, o.order_date as day, li.product_variant_id, count(*)::int as lines, sum(li.quantity)::bigint as quantity
        from order_item li
        ${t.rooted('li').join('sales_order', 'o', 'o.id = li.order_id')}
       where ${t.owns('li')} and o.cancelled_at is null
       group by li.organization_id, o.order_date, li.product_variant_id`,
  },
];

/** One rollup row that differs from what the base rows give (a missing row has zeros). */
export interface RollupDifference {
  table: string;
  key: Record<string, string | number>;
  /** Column → [stored, from the base rows], only the columns that differ. */
  columns: Record<string, [string, string]>;
}

/** A rollup's rows that differ from the base rows of the workspace (at most `limit`), and how many do. */
async function differences(em: EntityManager, t: TenantSql, rollup: Rollup, limit: number): Promise<{ rows: RollupDifference[]; total: number }> {
  const joinOn = raw(['organization_id', ...rollup.keys].map((k) => `a.${k} = e.${k}`).join(' and '));
  const keys = raw(rollup.keys.map((k) => `coalesce(a.${k}, e.${k}) as ${k}`).join(', '));
  const pairs = raw(rollup.sums.map((c) => `coalesce(a.${c}, 0)::text as stored_${c}, coalesce(e.${c}, 0)::text as expected_${c}`).join(', '));
  const differs = raw(`(${rollup.sums.map((c) => `coalesce(a.${c}, 0)`).join(', ')}) is distinct from (${rollup.sums.map((c) => `coalesce(e.${c}, 0)`).join(', ')})`);
  const order = raw(rollup.keys.map((_, i) => String(i + 1)).join(', '));
  const rows = await executeSql<Record<string, string | number>>(
    em,
    sql`
    with expected as (${rollup.expected(t)}),
    actual as (select * from ${raw(rollup.table)} a where ${t.owns('a')})
    select ${keys}, ${pairs}, count(*) over () as total
      from actual a full join expected e on ${joinOn}
     where ${differs}
     order by ${order}
     limit ${limit}`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((row) => ({
      table: rollup.table,
      key: Object.fromEntries(rollup.keys.map((k) => [k, k === 'day' ? dayText(row[k]) : row[k]])),
      columns: Object.fromEntries(
        rollup.sums.filter((c) => Number(row[`stored_${c}`]) !== Number(row[`expected_${c}`])).map((c) => [c, [String(row[`stored_${c}`]), String(row[`expected_${c}`])]]),
      ),
    })),
  };
}

/** A date column as YYYY-MM-DD (node-postgres gives a local-midnight Date). */
function dayText(value: unknown): string {
  if (!(value instanceof Date)) return String(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** What a check found: the rows of each rollup, and the ones that differ (at most `limit` listed). */
export interface RollupCheck {
  rows: Record<string, number>;
  differing: number;
  listed: RollupDifference[];
}

async function rowCounts(em: EntityManager, t: TenantSql): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table } of ROLLUPS) {
    const [row] = await executeSql<{ n: string }>(em, sql`select count(*) as n from ${raw(table)} a where ${t.owns('a')}`);
    counts[table] = Number(row.n);
  }
  return counts;
}

/**
 * Compares a workspace's rollups with its base rows, in one snapshot (a read-only repeatable-read
 * transaction of its own, or the caller's transaction); changes nothing.
 */
export async function checkRollups(em: EntityManager, organizationId: number, limit = 20): Promise<RollupCheck> {
  const t = tenantSql(organizationId, 'a');
  const check = async (tx: EntityManager): Promise<RollupCheck> => {
    const listed: RollupDifference[] = [];
    let differing = 0;
    for (const rollup of ROLLUPS) {
      const found = await differences(tx, t, rollup, limit);
      differing += found.total;
      listed.push(...found.rows.slice(0, Math.max(0, limit - listed.length)));
    }
    return { rows: await rowCounts(tx, t), differing, listed };
  };
  if (em.isInTransaction()) return check(em);
  return em.transactional(check, { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}

/** What a rebuild did: the rows of each rollup now, and how many rows differed before. */
export interface RollupRebuild {
  rows: Record<string, number>;
  corrected: number;
}

/**
 * Rebuilds a workspace's rollups from its base rows in one transaction. It first locks both rollup
 * tables against the triggers' writes (SHARE ROW EXCLUSIVE; the dashboard's reads go on): an order
 * written meanwhile waits for the rebuild to commit and then adds its own share, and every order
 * committed before the lock is in the rebuilt rows, so nothing is missed or counted twice. Writes of
 * orders and payments of every workspace wait for those few seconds.
 */
export async function rebuildRollups(em: EntityManager, organizationId: number): Promise<RollupRebuild> {
  const t = tenantSql(organizationId, 'a');
  return em.transactional(async (tx) => {
    // The order the triggers take them in (orders before lines), so a rebuild and a writer cannot deadlock.
    await executeSql(tx, raw(`lock table ${ROLLUPS.map((r) => r.table).join(', ')} in share row exclusive mode`));
    let corrected = 0;
    for (const rollup of ROLLUPS) {
      corrected += (await differences(tx, t, rollup, 1)).total;
      const columns = raw(['organization_id', ...rollup.keys, ...rollup.sums].join(', '));
      await executeSql(tx, sql`delete from ${raw(rollup.table)} a where ${t.owns('a')}`);
      await executeSql(tx, sql`insert into ${raw(rollup.table)} (${columns}) select ${columns} from (${rollup.expected(t)}) e`);
    }
    return { rows: await rowCounts(tx, t), corrected };
  });
}

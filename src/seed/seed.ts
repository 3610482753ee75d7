import { createHash } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { migrate, openOrm } from '../db/orm';
import { SEED_LIMITS, SeedUsageError, parseAsOf } from './args';
import { insertMasters, type RowCounts } from './masters-sql';
import { insertOrders } from './orders-sql';
import { insertFieldForce } from './field-force-sql';
import { insertLedgerNotes } from './ledger-sql';
import { insertCrates } from './crates-sql';
import { insertSchemes } from './schemes-sql';
import { insertFoc } from './foc-sql';
import { indexOfSlug, planWorkspace, seededPhone, workspaceIdOf, workspaceSlug } from './workspace-plan';

/** The password of every seeded user (printed in the summary). */
export const SEED_PASSWORD = 'seed-password';

/** Tenant counters the seed leaves besides `order`: what a workspace was seeded with. */
const ORDERS_COUNTER = 'seed:orders';
const AS_OF_COUNTER = 'seed:as_of';

/** Tables the seed writes, in the order the summary lists them. */
export const SEEDED_TABLES = [
  'organization',
  'workspace_config',
  'role',
  'app_user',
  'town',
  'route',
  'outlet',
  'production_unit',
  'product_class',
  'product',
  'product_variant',
  'variant_price',
  'scheme',
  'sales_order',
  'order_item',
  'order_status_history',
  'payment',
  'scheme_use',
  'no_sale_reason',
  'beat_plan',
  'beat_plan_outlet',
  'visit',
  'user_position',
  'leave_application',
  'sales_target',
  'ledger_entry',
  'crate_type',
  'crate_movement',
  'approval_policy',
  'approval_policy_tier',
  'foc_request',
  'foc_request_line',
  'approval',
  'approval_step',
  'tenant_counter',
] as const;

export interface SeedOptions {
  orgs: number;
  ordersPerOrg: number;
  seed: number;
  /**
   * The day the data ends, YYYY-MM-DD: orders are dated over the two years before it, and every
   * timestamp is before its first moment (workspace time). Default: the day earlier runs of this
   * seed used, else today (UTC).
   */
  asOf?: string | null;
  /** Called with the number of workspaces present (seeded before or now) after each one. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Workspaces written at the same time, each on its own connection and in its own transaction
   * (default 2). With 1, ids are the same from run to run too (on the same starting database);
   * with more, rows are the same but ids interleave.
   */
  concurrency?: number;
  /**
   * Keep the foreign-key triggers even when the role may skip them (about twice as slow). By
   * default a role that may set session_replication_role skips them in the seed's own transactions.
   */
  checkForeignKeys?: boolean;
}

/** One seeded workspace, as the benchmarks need it (they issue their own API keys). */
export interface SeededWorkspace {
  /** The organization id (organization_id of its rows). */
  id: number;
  index: number;
  slug: string;
  workspaceId: string;
  displayName: string;
  /** The first administrator (as signup creates it; null if deleted since); every seeded user has SEED_PASSWORD. */
  adminUserId: number | null;
  adminEmail: string | null;
  ordersPerOrg: number;
  asOf: string;
}

export interface SeedSummary {
  seed: number;
  asOf: string;
  orgs: number;
  ordersPerOrg: number;
  /** True when every workspace was already there and nothing was written. */
  alreadySeeded: boolean;
  /** Workspaces created by this run, and those found from an earlier one. */
  created: number;
  existing: number;
  /** Rows inserted by this run, per table. */
  rows: Record<string, number>;
  totalRows: number;
  seconds: number;
  rowsPerSecond: number;
  password: string;
  workspaces: SeededWorkspace[];
}

function checkOptions(options: SeedOptions): void {
  const int = (flag: string, v: number, min: number, max: number) => {
    if (!Number.isInteger(v) || v < min || v > max) throw new SeedUsageError(`--${flag} must be an integer from ${min} to ${max}, got ${v}`);
  };
  int('orgs', options.orgs, 1, SEED_LIMITS.maxOrgs);
  int('orders', options.ordersPerOrg, 0, SEED_LIMITS.maxOrdersPerOrg);
  int('seed', options.seed, 0, SEED_LIMITS.maxSeed);
  if (options.asOf != null) parseAsOf('as-of', options.asOf);
  if (options.concurrency !== undefined && (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 16)) {
    throw new SeedUsageError(`concurrency must be an integer from 1 to 16, got ${options.concurrency}`);
  }
}

const dayNumber = (day: string) => Number(day.replace(/-/g, ''));
const dayOfNumber = (n: number) => {
  const s = String(n);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
};

/** The seeded workspaces of a seed that are in the database, by workspace number. */
export async function seededWorkspaces(connectionString: string, seed: number): Promise<SeededWorkspace[]> {
  const client = new pg.Client({ connectionString, application_name: 'seed' });
  await client.connect();
  try {
    return await seededWorkspacesOf(client, seed);
  } finally {
    await client.end();
  }
}

async function seededWorkspacesOf(client: pg.ClientBase, seed: number): Promise<SeededWorkspace[]> {
  const { rows } = await client.query<{
    id: number;
    slug: string;
    workspace_id: string;
    display_name: string;
    orders: string | null;
    as_of: string | null;
  }>(
    `select o.id, o.slug, o.workspace_id, o.display_name,
            (select value from tenant_counter c where c.organization_id = o.id and c.name = $2) as orders,
            (select value from tenant_counter c where c.organization_id = o.id and c.name = $3) as as_of
       from organization o
      where o.slug like $1
      order by o.slug`,
    [`seed${seed}-%`, ORDERS_COUNTER, AS_OF_COUNTER],
  );
  const seeded = rows.filter((r) => {
    const index = indexOfSlug(seed, r.slug);
    return index !== null && r.workspace_id === workspaceIdOf(seed, index) && r.orders !== null;
  });
  if (seeded.length === 0) return [];
  const phones = seeded.map((r) => seededPhone(seed, indexOfSlug(seed, r.slug)!, 1));
  const admins = await client.query<{ id: number; organization_id: number; official_email: string }>(
    'select id, organization_id, official_email from app_user where primary_contact_number = any($1::text[])',
    [phones],
  );
  const adminOf = new Map(admins.rows.map((a) => [a.organization_id, a]));
  return seeded.map((r) => ({
    id: r.id,
    index: indexOfSlug(seed, r.slug)!,
    slug: r.slug,
    workspaceId: r.workspace_id,
    displayName: r.display_name,
    adminUserId: adminOf.get(r.id)?.id ?? null,
    adminEmail: adminOf.get(r.id)?.official_email ?? null,
    ordersPerOrg: Number(r.orders),
    asOf: dayOfNumber(Number(r.as_of)),
  }));
}

/** The one password hash of a run: Argon2id with the service's parameters and a salt derived from the seed. */
export function seedPasswordHash(seed: number): Promise<string> {
  const salt = createHash('sha256').update(`seed-password-salt:${seed}`).digest().subarray(0, 16);
  return hash(SEED_PASSWORD, { salt });
}

/**
 * Fills the database at `connectionString` with `orgs` synthetic workspaces of `ordersPerOrg`
 * orders each (migrating it first). Workspaces already there from an earlier run of the same seed
 * are kept; each missing one is written in its own transaction, so an interrupted run leaves only
 * whole workspaces and the next run completes the set. Throws SeedUsageError (nothing written) when
 * the options are out of range or the database holds this seed's workspaces with another order count.
 */
export async function seedWorkspaces(connectionString: string, options: SeedOptions): Promise<SeedSummary> {
  checkOptions(options);
  const started = performance.now();
  const orm = await openOrm(connectionString, { pool: { min: 0, max: 1 } });
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }

  const client = new pg.Client({ connectionString, application_name: 'seed' });
  await client.connect();
  try {
    const { seed, orgs, ordersPerOrg } = options;
    const concurrency = options.concurrency ?? 2;
    const found = await seededWorkspacesOf(client, seed);
    const foundByIndex = new Map(found.map((w) => [w.index, w]));
    const slugs = Array.from({ length: orgs }, (_, i) => workspaceSlug(seed, i + 1));
    const taken = await client.query<{ slug: string; workspace_id: string }>('select slug, workspace_id from organization where slug = any($1::text[])', [slugs]);
    for (const row of taken.rows) {
      const index = indexOfSlug(seed, row.slug)!;
      if (!foundByIndex.has(index)) {
        throw new SeedUsageError(`--seed ${seed}: the slug ${row.slug} belongs to a workspace this seed did not create; choose another --seed`);
      }
    }
    for (const w of found) {
      if (w.index <= orgs && w.ordersPerOrg !== ordersPerOrg) {
        throw new SeedUsageError(
          `--orders ${ordersPerOrg}: ${w.slug} was seeded with ${w.ordersPerOrg} orders per workspace; run with --orders ${w.ordersPerOrg}, or choose another --seed`,
        );
      }
      if (w.index <= orgs && options.asOf != null && w.asOf !== options.asOf) {
        throw new SeedUsageError(`--as-of ${options.asOf}: ${w.slug} was seeded as of ${w.asOf}; leave --as-of out (or give ${w.asOf}), or choose another --seed`);
      }
    }
    const asOf = options.asOf ?? found[0]?.asOf ?? new Date().toISOString().slice(0, 10);
    const missing = slugs.map((_, i) => i + 1).filter((index) => !foundByIndex.has(index));
    const existing = orgs - missing.length;
    const rows: RowCounts = Object.fromEntries(SEEDED_TABLES.map((t) => [t, 0]));
    options.onProgress?.(existing, orgs);

    if (missing.length > 0) {
      const passwordHash = await seedPasswordHash(seed);
      let done = existing;
      let next = 0;
      let failing = false;
      const worker = async () => {
        const own = new pg.Client({ connectionString, application_name: 'seed' });
        // A dropped connection fails the query in flight; without a listener it would also crash the process.
        own.on('error', () => undefined);
        await own.connect();
        try {
          const skipChecks = !options.checkForeignKeys && (await mayDisableReferenceChecks(own));
          while (!failing && next < missing.length) {
            const index = missing[next++];
            await seedOne(own, { seed, index, ordersPerOrg, asOf, passwordHash, skipChecks }, rows);
            done += 1;
            options.onProgress?.(done, orgs);
          }
        } catch (e) {
          failing = true;
          throw e;
        } finally {
          await own.end();
        }
      };
      const workers = Array.from({ length: Math.min(concurrency, missing.length) }, worker);
      // Let every worker stop (finishing its current workspace) before reporting the first failure.
      const results = await Promise.allSettled(workers);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      // Fresh statistics for the planner (without them it guesses one row per table and picks
      // nested loops over whole workspaces where an index and a limit would do), and the visibility
      // map, so counts are index-only scans as they are once autovacuum has been by.
      await client.query(`vacuum (analyze) ${SEEDED_TABLES.join(', ')}`);
    }

    const seconds = (performance.now() - started) / 1000;
    const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
    return {
      seed,
      asOf,
      orgs,
      ordersPerOrg,
      alreadySeeded: missing.length === 0,
      created: missing.length,
      existing,
      rows,
      totalRows,
      seconds,
      rowsPerSecond: seconds > 0 ? totalRows / seconds : 0,
      password: SEED_PASSWORD,
      workspaces: (await seededWorkspacesOf(client, seed)).filter((w) => w.index <= orgs),
    };
  } finally {
    await client.end();
  }
}

/**
 * True when this connection's role may set session_replication_role (superusers, or a role granted
 * SET on it): tried in a transaction that is rolled back.
 */
async function mayDisableReferenceChecks(client: pg.ClientBase): Promise<boolean> {
  await client.query('begin');
  try {
    await client.query('set local session_replication_role = replica');
    return true;
  } catch {
    return false;
  } finally {
    await client.query('rollback');
  }
}

/** One whole workspace in one transaction. */
async function seedOne(
  client: pg.ClientBase,
  w: { seed: number; index: number; ordersPerOrg: number; asOf: string; passwordHash: string; skipChecks: boolean },
  rows: RowCounts,
): Promise<void> {
  const plan = planWorkspace(w.seed, w.index, w.ordersPerOrg, w.asOf);
  const counts: RowCounts = {};
  await client.query('begin');
  try {
    // Room for the orders statement's sorts and CTEs of 100,000 orders without spilling to disk (larger
    // workspaces spill), and no JIT: compiling the big statement costs more than running it.
    await client.query(`set local work_mem = '128MB'`);
    await client.query('set local jit = off');
    // Every statement here joins this workspace's rows in bulk, and the planner's statistics have not
    // seen them (they are this transaction's, and name a new organization_id): estimated at a row,
    // the joins became nested loops over whole tables. A second 100,000-order workspace's crates
    // statement ran for more than 9 minutes (the first: 6-10 s); hash joins keep every workspace alike.
    await client.query('set local enable_nestloop = off');
    // The rows refer only to ids this transaction has just inserted and read back, so when the role
    // may, the foreign-key triggers (most of the time otherwise) are skipped for this transaction.
    if (w.skipChecks) await client.query('set local session_replication_role = replica');
    const ids = await insertMasters(client, plan, w.passwordHash, counts);
    const schemes = await insertSchemes(client, { key: `${w.seed}:${w.index}`, ids, asOf: w.asOf, ordersPerOrg: w.ordersPerOrg }, counts);
    const { focOrderIds } = await insertOrders(client, { key: `${w.seed}:${w.index}`, ids, ordersPerOrg: w.ordersPerOrg, asOf: w.asOf, timeZone: plan.config.timeZone, schemes }, counts);
    await insertFieldForce(client, { key: `${w.seed}:${w.index}`, organizationId: ids.organizationId, asOf: w.asOf }, counts);
    await insertCrates(client, { key: `${w.seed}:${w.index}`, organizationId: ids.organizationId }, counts);
    await insertLedgerNotes(client, { key: `${w.seed}:${w.index}`, organizationId: ids.organizationId, asOf: w.asOf }, counts);
    await insertFoc(client, { key: `${w.seed}:${w.index}`, organizationId: ids.organizationId, asOf: w.asOf, focOrderIds, adminUserId: ids.adminUserId }, counts);
    // The order counter continues after the last seeded order, so the next API order gets the next number.
    const counters: Array<[string, number]> = [
      ...(w.ordersPerOrg > 0 ? ([['order', w.ordersPerOrg]] as Array<[string, number]>) : []),
      [ORDERS_COUNTER, w.ordersPerOrg],
      [AS_OF_COUNTER, dayNumber(w.asOf)],
    ];
    await client.query(
      `insert into tenant_counter (organization_id, name, value, created_at, updated_at)
       select $1, name, value, $4, $4 from unnest($2::text[], $3::bigint[]) as c(name, value)`,
      [ids.organizationId, counters.map((c) => c[0]), counters.map((c) => c[1]), plan.createdAt],
    );
    counts.tenant_counter = counters.length;
    await client.query('commit');
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  }
  for (const [table, n] of Object.entries(counts)) rows[table] = (rows[table] ?? 0) + n;
}

/** Arguments of `npm run seed -- --orgs N --orders M [--seed S] [--as-of YYYY-MM-DD]`. */

/** Bounds of the flags. */
export const SEED_LIMITS = {
  /** Workspaces per run (slugs and phone numbers carry a 4-digit workspace number). */
  maxOrgs: 1000,
  /**
   * Orders per workspace (order codes carry at least 6 digits, 7 past 999,999, as the service's do;
   * 100,000 orders are about 450,000 lines). The benchmarks seed a workspace of 2,000,000.
   */
  maxOrdersPerOrg: 9_999_999,
  /** Seeds are 0 to 99,999 (phone numbers carry the seed in 5 digits, so seeds never collide). */
  maxSeed: 99_999,
} as const;

/** A wrong or unknown argument: exit code 2, nothing written. */
export class SeedUsageError extends Error {}

export interface SeedArgs {
  orgs: number;
  ordersPerOrg: number;
  seed: number;
  /** The day the data ends (orders run up to the day before); null: today, or what earlier runs of the seed used. */
  asOf: string | null;
}

export const SEED_USAGE =
  'Usage: npm run seed -- --orgs <1-1000> --orders <0-9999999> [--seed <0-99999>] [--as-of YYYY-MM-DD]\n' +
  '  --orgs    workspaces to create (seed<S>-0001, seed<S>-0002, ...)\n' +
  '  --orders  orders per workspace, spread over the two years before --as-of\n' +
  '  --seed    the same seed gives the same data (default 1)\n' +
  '  --as-of   the day the data ends (default: today, or the day earlier runs of this seed used)';

const FLAGS = ['orgs', 'orders', 'seed', 'as-of'] as const;
type Flag = (typeof FLAGS)[number];

function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(text)) throw new SeedUsageError(`--${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw new SeedUsageError(`--${flag} must be an integer from ${min} to ${max}, got ${text}`);
  return value;
}

/** A calendar date YYYY-MM-DD that exists, from 2000-01-01 on. */
export function parseAsOf(flag: string, text: string): string {
  const parsed = new Date(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text || text < '2000-01-01') {
    throw new SeedUsageError(`--${flag} must be a date YYYY-MM-DD from 2000-01-01 on, got "${text}"`);
  }
  return text;
}

/** Parses the arguments after `--`; throws SeedUsageError naming the flag. `--flag=value` and `--flag value` both work. */
export function parseSeedArgs(argv: readonly string[]): SeedArgs {
  const given = new Map<Flag, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new SeedUsageError(`Unexpected argument "${arg}"`);
    const flag = m[1] as Flag;
    if (!FLAGS.includes(flag)) throw new SeedUsageError(`Unknown flag --${m[1]}`);
    if (given.has(flag)) throw new SeedUsageError(`--${flag} is given twice`);
    let value = m[2];
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new SeedUsageError(`--${flag} needs a value`);
      i++;
    }
    given.set(flag, value.trim());
  }
  const orgs = given.get('orgs');
  const orders = given.get('orders');
  if (orgs === undefined) throw new SeedUsageError('--orgs is required');
  if (orders === undefined) throw new SeedUsageError('--orders is required');
  const seed = given.get('seed');
  const asOf = given.get('as-of');
  return {
    orgs: integer('orgs', orgs, 1, SEED_LIMITS.maxOrgs),
    ordersPerOrg: integer('orders', orders, 0, SEED_LIMITS.maxOrdersPerOrg),
    seed: seed === undefined ? 1 : integer('seed', seed, 0, SEED_LIMITS.maxSeed),
    asOf: asOf === undefined ? null : parseAsOf('as-of', asOf),
  };
}

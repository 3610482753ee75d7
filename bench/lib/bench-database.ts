import path from 'node:path';
import { Pool } from 'pg';
import { prepareJobQueue } from '../../jobs/worker';
import { loadConfig } from '../../src/config';
import { embeddedDatabaseOf, startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { migrate, openOrm } from '../../src/db/orm';
import { newApiKey } from '../../src/domains/api-keys/api-key.service';
import { seededWorkspaces, seedWorkspaces } from '../../src/seed/seed';
import { watchSeed, type SeedCost } from './seed-watch';

/** The benchmarks' own data directory when they start an embedded PostgreSQL. */
export const BENCH_DATA_DIR = path.resolve('.data/bench');

/** The database the benchmarks run on: DATABASE_URL, else an embedded PostgreSQL under BENCH_DATA_DIR. */
export async function openBenchDatabase(log: (line: string) => void): Promise<{ url: string; release(): Promise<void> }> {
  let url = process.env.DATABASE_URL;
  let release = async (): Promise<void> => undefined;
  if (!url) {
    log(`DATABASE_URL is not set: embedded PostgreSQL in ${BENCH_DATA_DIR}/pg`);
    // Benchmark data is seeded again when lost, so it runs without fsync, as it always has (the
    // service and the raw baselines share this server, so the pairs' ratios do not depend on it).
    const embedded = await startEmbeddedPostgres({ ...embeddedDatabaseOf(loadConfig({ DATA_DIR: BENCH_DATA_DIR })), durable: false });
    url = embedded.url;
    release = () => embedded.stop();
  }
  const orm = await openOrm(url);
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  await prepareJobQueue(url);
  return { url, release };
}

/** A set of seeded workspaces (one `--seed`). */
export interface Dataset {
  seed: number;
  ordersPerOrg: number;
  organizationIds: number[];
  /** What this run's seeding took; null when the data was already there. */
  seeding: (SeedCost & { seconds: number }) | null;
}

/** Seeds `orgs` × `ordersPerOrg` under `seed` unless that is already there (the seed skips it). */
export async function ensureDataset(url: string, label: string, seed: number, orgs: number, ordersPerOrg: number, log: (line: string) => void): Promise<Dataset> {
  const watch = await watchSeed(url);
  const started = performance.now();
  let lastShown = 0;
  const summary = await seedWorkspaces(url, {
    orgs,
    ordersPerOrg,
    seed,
    onProgress: (done, total) => {
      if (performance.now() - lastShown < 5000 && done < total) return;
      lastShown = performance.now();
      log(`  seeding ${label}: ${done}/${total}`);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const cost = await watch.stop();
  const workspaces = await seededWorkspaces(url, seed);
  if (workspaces.length < orgs) throw new Error(`seed ${seed} left ${workspaces.length} of ${orgs} workspaces`);
  const seeding = summary.alreadySeeded ? null : { seconds, ...cost };
  const costShown = seeding
    ? `, PostgreSQL backend peak RSS ${seeding.peakBackendRssMb === null ? 'unknown' : `${Math.round(seeding.peakBackendRssMb)} MB`}, ${(seeding.tempBytes / 2 ** 30).toFixed(1)} GiB of temporary files`
    : ', already seeded';
  log(`${label}: ${orgs} × ${ordersPerOrg.toLocaleString('en-US')} orders ready (${seconds.toFixed(1)} s${costShown})`);
  return { seed, ordersPerOrg, organizationIds: workspaces.slice(0, orgs).map((w) => w.id), seeding };
}

/**
 * Issues `perWorkspace` API keys named `name` with `scopes` in each workspace, stored as the service
 * stores them (SHA-256 only); earlier runs' keys of that name are revoked first.
 */
export async function issueKeys(pool: Pool, organizationIds: number[], scopes: string, perWorkspace = 1, name = 'bench'): Promise<Map<number, string[]>> {
  await pool.query(`update api_key set status = 0, revoked_at = now() where name = $2 and status = 1 and organization_id = any($1)`, [organizationIds, name]);
  const keys = new Map<number, string[]>();
  for (const organizationId of organizationIds) {
    const issued: string[] = [];
    for (let i = 0; i < perWorkspace; i += 1) {
      const { key, keyHash, keyPrefix } = newApiKey();
      await pool.query(`insert into api_key (organization_id, name, key_hash, key_prefix, scopes) values ($1, $5, $2, $3, $4)`, [organizationId, keyHash, keyPrefix, scopes, name]);
      issued.push(key);
    }
    keys.set(organizationId, issued);
  }
  return keys;
}

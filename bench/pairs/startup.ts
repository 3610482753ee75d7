import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { embeddedDatabaseOf, findFreePort, startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import type { BenchContext } from '../lib/bench-context';
import { BENCH_DATA_DIR } from '../lib/bench-database';
import { BENCH_SERVICE_ENV, waitUntilReady } from '../lib/service-process';
import { atMost, figure, type Figure } from '../lib/report';
import { median } from '../lib/stats';

/** Its own data directory: `npm start` with an embedded PostgreSQL, as on a developer's machine. */
const STARTUP_DATA_DIR = path.join(BENCH_DATA_DIR, 'startup');

/** Starts `npm start` in its own process group; resolves to the milliseconds until /readyz answers 200. */
async function npmStart(): Promise<{ ms: number; child: ChildProcess }> {
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...BENCH_SERVICE_ENV,
    DATA_DIR: STARTUP_DATA_DIR,
    PORT: String(port),
    PUBLIC_APP_URL: `http://127.0.0.1:${port}`,
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn('npm', ['start'], { env, stdio: 'ignore', detached: true });
  const ms = await waitUntilReady(`http://127.0.0.1:${port}/readyz`, started, child, 120_000);
  return { ms, child };
}

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the whole group (npm, node, the embedded PostgreSQL), then waits until every process
 * of it has ended: npm exits at once, but the service's orderly shutdown (and the database's) goes
 * on after it, and the next start needs the data directory free. SIGKILL after 60 s.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pgid = child.pid!;
  process.kill(-pgid, 'SIGTERM');
  const deadline = performance.now() + 60_000;
  while (groupAlive(pgid)) {
    if (performance.now() > deadline) {
      process.kill(-pgid, 'SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The floor: the embedded PostgreSQL alone starting on the same data directory (durable, as `npm start` runs it). */
async function postgresAlone(): Promise<number> {
  const started = performance.now();
  const embedded = await startEmbeddedPostgres(embeddedDatabaseOf(loadConfig({ DATA_DIR: STARTUP_DATA_DIR })));
  const ms = performance.now() - started;
  await embedded.stop();
  return ms;
}

/** Pair 7: `npm start` to /readyz 200 with an existing data directory, against the embedded PostgreSQL's own start. */
export async function measureStartup(ctx: BenchContext): Promise<Figure[]> {
  // The first start creates the data directory and applies migrations: not what is measured.
  await stopGroup((await npmStart()).child);
  const ours: number[] = [];
  const floor: number[] = [];
  for (let round = 1; round <= ctx.rounds; round += 1) {
    floor.push(await postgresAlone());
    const { ms, child } = await npmStart();
    ours.push(ms);
    await stopGroup(child);
    ctx.log(`  start-up round ${round}: PostgreSQL alone ${Math.round(floor.at(-1)!)} ms · npm start ${Math.round(ms)} ms`);
  }
  return [figure('Start-up, npm start → /readyz 200 (existing data)', 's', median(ours) / 1000, median(floor) / 1000, atMost(3, 's'))];
}

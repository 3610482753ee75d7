import type { MikroORM } from '@mikro-orm/postgresql';
import { run, runMigrations, type Runner, type RunnerOptions } from 'graphile-worker';
import type { Config } from '../src/config';
import { DeliveryEngine } from '../src/domains/webhooks/delivery-engine';
import { deliveryDepsOf } from '../src/domains/webhooks/delivery-deps';
import type { HostResolver } from '../src/domains/webhooks/target-guard';
import type { Secrets } from '../src/secrets';
import { domainCatalog } from '../src/domains';
import { exportJobServiceOf } from '../src/domains/exports/export-job-service-of';
import { Slots } from '../src/concurrency/slots';
import { ImportService } from '../src/domains/imports/import.service';
import { parsedCronItems } from './crontab';
import { quietWorkerLogger } from './quiet-logger';
import { openWorkerPool } from './worker-pool';
import { createTasks, type TaskDeps } from './tasks';
import { PushSender } from '../src/domains/notifications/push-sender';
import { createPushTransport } from '../src/domains/notifications/push-transport';

/** The tasks' dependencies, built from the configuration (the resolver is the system's unless given). */
export function taskDepsOf(deps: { config: Config; secrets: Secrets; orm: MikroORM; resolveHost?: HostResolver; fetch?: typeof fetch }): TaskDeps {
  return {
    webhooks: new DeliveryEngine(deliveryDepsOf(deps.config, deps.secrets, deps.resolveHost)),
    exportJobs: exportJobServiceOf({ ...deps, catalog: domainCatalog() }),
    exportSlots: new Slots(EXPORT_JOBS_AT_ONCE),
    imports: new ImportService(),
    push: new PushSender(createPushTransport(deps.config, deps.fetch ?? globalThis.fetch)),
    orm: deps.orm,
  };
}

/** Installs or upgrades graphile-worker's own schema, so the API can enqueue even with no worker running. */
export async function prepareJobQueue(connectionString: string): Promise<void> {
  const pool = openWorkerPool(connectionString, 1, quietWorkerLogger());
  try {
    await runMigrations({ pgPool: pool.pgPool });
  } finally {
    await pool.close();
  }
}

/** Connections of a worker's pool (graphile-worker's default size). */
const WORKER_POOL_SIZE = 10;

/**
 * Jobs one worker process runs at once unless told otherwise. Webhook attempts mostly wait on the
 * network (up to WEBHOOK_TIMEOUT_MS each) and on commits, so 5 let a few slow receivers hold up
 * every delivery. In the bench's burst (single runs on a shared, noisy machine): about 120
 * deliveries/s at 5, 140–170 at 16, 286 at 32, and 131 at 64 (graphile-worker's pool of 10
 * connections then queues). Exports share these slots, but only EXPORT_JOBS_AT_ONCE of them write.
 */
export const WORKER_CONCURRENCY = 32;

/**
 * Export jobs one worker process writes at once: each holds a connection of the ORM's pool of 10
 * (which `npm start` shares with the API) for its cursor, and a file in memory up to a chunk.
 */
export const EXPORT_JOBS_AT_ONCE = 3;

/**
 * graphile-worker settings beyond the defaults (the webhook bench gives its bare worker the
 * same). Completions within 5 ms go as one statement and one commit: in the bench the service's
 * burst went from about 100 to 140–170 deliveries/s and the bare worker's from about 270–450 to
 * 580–1,200. A worker killed within those 5 ms leaves its finished jobs locked; graphile-worker
 * runs them again after its lock timeout, and every task here is idempotent (a finished delivery
 * is left alone). No local queue: jobs it had locked but not started would wait for that same
 * timeout (4 hours) after a crash instead of being picked up within seconds.
 */
export const WORKER_TUNING: Partial<RunnerOptions> = { preset: { worker: { completeJobBatchDelay: 5 } } };

/**
 * Starts a graphile-worker runner over the task list. Its `stop()` releases jobs in flight and
 * resolves once the worker's connections are closed, so the database can stop right after.
 */
export async function startWorker(options: { connectionString: string; concurrency?: number; deps: TaskDeps }): Promise<Runner> {
  const logger = quietWorkerLogger();
  const pool = openWorkerPool(options.connectionString, WORKER_POOL_SIZE, logger);
  let runner: Runner;
  try {
    runner = await run({
      ...WORKER_TUNING,
      pgPool: pool.pgPool,
      concurrency: options.concurrency ?? WORKER_CONCURRENCY,
      noHandleSignals: true,
      parsedCronItems: parsedCronItems(),
      pollInterval: 1000,
      logger,
      taskList: createTasks(options.deps),
    });
  } catch (err) {
    await pool.close();
    throw err;
  }
  // The pool, and idle keep-alive sockets to webhook receivers, go with the worker.
  const released = runner.promise.finally(() => Promise.all([pool.close(), options.deps.webhooks.closeConnections()]));
  const stopRunner = runner.stop;
  return Object.assign(runner, {
    stop: async (reason?: string) => {
      await stopRunner(reason);
      await released;
    },
  });
}

import { run, runMigrations, type Runner } from 'graphile-worker';
import { parsedCronItems } from './crontab';
import { createTasks, type TaskDeps } from './tasks';

/** Installs or upgrades graphile-worker's own schema, so the API can enqueue even with no worker running. */
export async function prepareJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString });
}

/** Starts a graphile-worker runner over the task list; `stop()` releases jobs in flight. */
export async function startWorker(options: { connectionString: string; concurrency?: number; deps: TaskDeps }): Promise<Runner> {
  return run({
    connectionString: options.connectionString,
    concurrency: options.concurrency ?? 5,
    noHandleSignals: true,
    parsedCronItems: parsedCronItems(),
    pollInterval: 1000,
    taskList: createTasks(options.deps),
  });
}

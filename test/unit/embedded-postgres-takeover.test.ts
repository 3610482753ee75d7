import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres';
import { processInfo } from '../../src/db/process-info';

/**
 * startEmbeddedPostgres on a data directory someone else may hold: it stops only an orphan of
 * that very directory (its starter gone), never a server whose starter still runs, nor another
 * PostgreSQL on the directory, nor a process that merely shares a pid with a stale lock file
 * (another directory's PostgreSQL included); and a
 * PostgreSQL that refuses to start says why.
 */

/** A PostgreSQL 15 that is not the embedded-postgres package's (Debian's), where installed. */
const SYSTEM_POSTGRES = '/usr/lib/postgresql/15/bin/postgres';
const DIST_MODULE = path.resolve(__dirname, '../../dist/src/db/embedded-postgres.js');
const root = mkdtempSync(path.join(os.tmpdir(), 'sd-takeover-'));
chmodSync(root, 0o755); // PostgreSQL runs as the `postgres` user when we are root
const ours = path.join(root, 'ours', 'pg');
const foreignDir = path.join(root, 'foreign', 'pg');
const options = (directory: string) => ({ directory, password: 'takeover', database: 'postgres' });

/** Every process this file starts, ended in afterAll whatever happened. */
const started: ChildProcess[] = [];
let foreign: EmbeddedDatabase | undefined;
let lockFileOfARealRun = '';

const lockFile = () => path.join(ours, 'postmaster.pid');
const postmasterPid = (directory: string) => Number(readFileSync(path.join(directory, 'postmaster.pid'), 'utf8').split('\n')[0]);

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return (await client.query('select 1 as one')).rows[0].one === 1;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function setting(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(`select current_setting($1) as value`, [name])).rows[0].value;
  } finally {
    await client.end();
  }
}

/** `ours`' lock file as a real run wrote it, naming `pid` instead of its postmaster. */
function writeLockFileNaming(pid: number): void {
  const [, ...rest] = lockFileOfARealRun.split('\n');
  writeFileSync(lockFile(), [String(pid), ...rest].join('\n'));
}

beforeAll(async () => {
  mkdirSync(path.dirname(ours), { recursive: true, mode: 0o755 });
  mkdirSync(path.dirname(foreignDir), { recursive: true, mode: 0o755 });
  foreign = await startEmbeddedPostgres({ ...options(foreignDir), durable: false });
  // Initialise `ours` once; keep a real lock file to forge stale ones from.
  const first = await startEmbeddedPostgres(options(ours));
  lockFileOfARealRun = readFileSync(lockFile(), 'utf8');
  await first.stop();
}, 180_000);

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await foreign?.stop();
  rmSync(root, { recursive: true, force: true });
}, 60_000);

describe('starting the embedded PostgreSQL on a data directory', () => {
  it('is durable by default (fsync, synchronous_commit, full_page_writes on); durable: false turns the three off', async () => {
    const db = await startEmbeddedPostgres(options(ours));
    try {
      for (const name of ['fsync', 'synchronous_commit', 'full_page_writes']) {
        expect(await setting(db.url, name), name).toBe('on');
        expect(await setting(foreign!.url, name), name).toBe('off');
      }
    } finally {
      await db.stop();
    }
  }, 60_000);

  it('starts over a lock file naming a process that has ended', async () => {
    const gone = spawn('true');
    await once(gone, 'exit');
    writeLockFileNaming(gone.pid!);
    const db = await startEmbeddedPostgres(options(ours));
    expect(await answers(db.url)).toBe(true);
    await db.stop();
  }, 60_000);

  it('starts over a lock file naming a live process that is not PostgreSQL, and leaves that process alone', async () => {
    const bystander = spawn('sleep', ['300']);
    started.push(bystander);
    writeLockFileNaming(bystander.pid!);
    const notices: string[] = [];
    const db = await startEmbeddedPostgres({ ...options(ours), notice: (line) => notices.push(line) });
    expect(await answers(db.url)).toBe(true);
    expect(notices.join('\n')).toContain(`names process ${bystander.pid} (sleep 300), which is not this directory's PostgreSQL`);
    await db.stop();
    expect(bystander.exitCode).toBeNull();
    expect(bystander.signalCode).toBeNull();
    expect(processInfo(bystander.pid!)).not.toBeNull();
  }, 60_000);

  it("starts over a lock file naming another directory's PostgreSQL, which keeps running untouched", async () => {
    const foreignPid = postmasterPid(foreignDir);
    writeLockFileNaming(foreignPid);
    const db = await startEmbeddedPostgres(options(ours));
    expect(await answers(db.url)).toBe(true);
    await db.stop();
    expect(postmasterPid(foreignDir)).toBe(foreignPid);
    expect(await answers(foreign!.url)).toBe(true);
  }, 60_000);

  it.skipIf(!existsSync(SYSTEM_POSTGRES))('refuses while a PostgreSQL from another binary runs on the directory, and leaves it running', async () => {
    const port = await findFreePort();
    // The system's PostgreSQL 15 on the same data directory, as the `postgres` user when we are root.
    const runAs = process.getuid?.() === 0 ? { uid: Number(execSync('id -u postgres')), gid: Number(execSync('id -g postgres')) } : {};
    const args = ['-D', ours, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
    const other = spawn(SYSTEM_POSTGRES, args, { ...runAs, stdio: 'ignore' });
    started.push(other);
    const url = `postgres://postgres:takeover@127.0.0.1:${port}/postgres`;
    try {
      await expect.poll(() => answers(url), { timeout: 60_000, interval: 200 }).toBe(true);
      await expect(startEmbeddedPostgres(options(ours))).rejects.toThrow(
        new RegExp(`is in use by process ${other.pid} \\(${SYSTEM_POSTGRES} .*\\), a PostgreSQL that is not the embedded-postgres package's`),
      );
      expect(postmasterPid(ours)).toBe(other.pid);
      expect(await answers(url)).toBe(true);
    } finally {
      other.kill('SIGINT');
      if (other.exitCode === null && other.signalCode === null) await once(other, 'exit');
    }
  }, 120_000);

  it('refuses, naming the process, while the process that started the server still runs; the server keeps running', async () => {
    const db = await startEmbeddedPostgres(options(ours));
    try {
      const pid = postmasterPid(ours);
      await expect(startEmbeddedPostgres(options(ours))).rejects.toThrow(
        new RegExp(`belongs to process ${process.pid} \\(.*\\), which is still running`),
      );
      expect(postmasterPid(ours)).toBe(pid);
      expect(await answers(db.url)).toBe(true);
    } finally {
      await db.stop();
    }
  }, 60_000);

  it('stops an orphan (its starter killed with SIGKILL) with a clean shutdown, then starts', async () => {
    const script = `require(${JSON.stringify(DIST_MODULE)}).startEmbeddedPostgres(${JSON.stringify(options(ours))}).then(() => console.log('ready'))`;
    const starter = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(starter);
    let said = '';
    starter.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await expect.poll(() => said, { timeout: 60_000, interval: 100 }).toContain('ready');
    const orphan = postmasterPid(ours);
    starter.kill('SIGKILL');
    await once(starter, 'exit');
    expect(processInfo(orphan)?.ppid).not.toBe(starter.pid);

    const notices: string[] = [];
    let log = '';
    const db = await startEmbeddedPostgres({ ...options(ours), notice: (line) => notices.push(line), log: (message) => (log += message) });
    try {
      expect(notices).toEqual([`Stopping the embedded PostgreSQL (pid ${orphan}) left running by a process that ended without stopping it…`]);
      expect(processInfo(orphan)).toBeNull();
      expect(postmasterPid(ours)).not.toBe(orphan);
      expect(await answers(db.url)).toBe(true);
      // The orphan shut down cleanly: the new server found nothing to recover.
      expect(log).toMatch(/database system was shut down at/);
      expect(log).not.toMatch(/was interrupted|automatic recovery/);
    } finally {
      await db.stop();
    }
  }, 120_000);

  it("fails with PostgreSQL's own words when it refuses to start, not `undefined`", async () => {
    const conf = path.join(ours, 'postgresql.conf');
    const original = readFileSync(conf);
    appendFileSync(conf, '\nthis line is not a setting\n');
    try {
      const failure = await startEmbeddedPostgres(options(ours)).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(/^PostgreSQL \(data in .*\) exited while starting:\n/);
      expect((failure as Error).message).toMatch(/syntax error in file ".*postgresql\.conf"/);
      expect((failure as Error).message).toMatch(/FATAL: {2}configuration file ".*" contains errors/);
    } finally {
      writeFileSync(conf, original);
    }
  }, 60_000);
});

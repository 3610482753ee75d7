import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/db/embedded-postgres';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

/**
 * The README's walk-through, run as a new user would paste it: its bash blocks, extracted from
 * README.md, against `npm start`'s entry (dist/src/main.js, built by the global setup) on a fresh
 * database. Only the base URL is rewritten (to this service's free port); every command runs
 * as written, under `bash -euo pipefail`, so any failing command fails the test.
 */

const ROOT = path.resolve(__dirname, '../..');
const MAIN_JS = path.join(ROOT, 'dist/src/main.js');
const README_BASE = 'http://127.0.0.1:3000';

/** The ```bash blocks of the README section headed `heading`, in order. */
function bashBlocksOf(heading: string): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThanOrEqual(0);
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next === -1 ? undefined : next);
  return [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** A command's exit code and output. */
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment of the service and of the shell: nothing of the test process leaks in (no REDIS_URL, no NODE_ENV=test). */
const baseEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME ?? os.homedir(), LANG: 'C.UTF-8' });

/** Runs `script` with `bash -euo pipefail` in the project folder (where `npm run` finds the scripts). */
async function bash(script: string): Promise<Run> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = await once(child, 'exit');
  return { code, stdout, stderr };
}

/** Each non-empty line of a run's output as JSON (the walk-through's curl commands end each answer with a line break). */
function answers(run: Run): Array<Record<string, any>> {
  return run.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

describe('README: A first session over REST, run as written', () => {
  let db: TestDatabase;
  let service: ChildProcess;
  let serviceOutput = '';
  let base = '';
  let dataDir = '';
  let blocks: string[];

  /** A README block with its base URL pointed at this test's service. */
  const runnable = (block: string) => {
    expect(block).toContain(README_BASE);
    const script = block.replaceAll(README_BASE, base);
    expect(script).not.toContain(':3000');
    return script;
  };

  async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    blocks = bashBlocksOf('A first session over REST');
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-readme-'));
    chmodSync(dataDir, 0o755);
    const port = await findFreePort();
    base = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, [MAIN_JS], {
      env: { ...baseEnv(), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (c: Buffer) => (serviceOutput += c.toString()));
    service.stderr!.on('data', (c: Buffer) => (serviceOutput += c.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (service.exitCode !== null) throw new Error(`the service exited (${service.exitCode}): ${serviceOutput}`);
      const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the service was not ready within 60 s: ${serviceOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 90_000);

  afterAll(async () => {
    if (service && service.exitCode === null) {
      service.kill('SIGTERM');
      await once(service, 'exit');
    }
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('has the three blocks: the REST session, the same over GraphQL, signing in again', () => {
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toContain('/signup/register');
    expect(blocks[1]).toContain('/graphql');
    expect(blocks[2]).toContain('/auth/login');
  });

  it('the REST session and its GraphQL query answer as described, and leave the order forwarded', async () => {
    const run = await bash(`${runnable(blocks[0])}\n${runnable(blocks[1])}`);
    expect(run.code, `${run.stderr}\n${run.stdout}\n${serviceOutput}`).toBe(0);
    const [productClass, product, distributor, order, statusMove, list, graphql, ...rest] = answers(run);
    expect(rest).toEqual([]);
    expect([productClass, product, distributor, order, statusMove, list].map((a) => a.response_code)).toEqual([201, 201, 201, 201, 200, 200]);
    expect(distributor.data).toMatchObject({ id: 2, role_name: 'Distributor', store_name: 'Ravi Stores' });
    expect(order.data).toMatchObject({ id: 1, order_status: 1, order_total_amount: 85.5 });
    expect(list.data).toEqual([expect.objectContaining({ id: 1, order_status: 2, user_name: 'Ravi Kumar' })]);

    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.orders).toEqual({
      nodes: [
        {
          orderCode: order.data.order_code,
          status: 'FORWARDED',
          totalAmount: 85.5,
          customer: { firstName: 'Ravi', storeName: 'Ravi Stores' },
          items: [{ quantity: 3, amount: 85.5, variant: { itemSkuCode: 'TM-500', product: { name: 'Toned Milk', productClass: { name: 'Milk' } } } }],
        },
      ],
      pageInfo: { total: 1, totalPages: 1 },
    });
    expect(await sql('select id, status from sales_order')).toEqual([{ id: 1, status: 2 }]);
  }, 60_000);

  it('run again on the same data, the signup stops the script with its reason (no TOKEN=undefined, nothing else sent)', async () => {
    const run = await bash(runnable(blocks[0]));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('A user with this e-mail address already exists');
    expect(run.stdout).toBe('');
    expect(await sql('select count(*)::int as n from product_class')).toEqual([{ n: 1 }]);
    expect(await sql('select id, status from sales_order')).toEqual([{ id: 1, status: 2 }]);
  }, 60_000);

  it('signing in again from a terminal solves the bot-check and gets a working session', async () => {
    const run = await bash(runnable(blocks[2]));
    expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
    const [me, ...rest] = answers(run);
    expect(rest).toEqual([]);
    expect(me.response_code).toBe(200);
    expect(me.data.user).toMatchObject({ official_email: 'asha@example.com', role_name: 'Admin' });
  }, 60_000);
});

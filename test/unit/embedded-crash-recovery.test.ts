import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseOf, findFreePort } from '../../src/db/embedded-postgres';
import { processInfo } from '../../src/db/process-info';

/**
 * `npm start`'s process (dist/src/main.js, embedded PostgreSQL in a temporary DATA_DIR) killed
 * with SIGKILL while it takes orders: the next start stops the PostgreSQL it left running and
 * starts, every acknowledged order is there and none is half-written. Then the whole process
 * group (PostgreSQL too) is killed, as close to a power cut as a test gets: PostgreSQL recovers
 * from its write-ahead log, with the same result.
 */

const ROOT = path.resolve(__dirname, '../..');
const MAIN_JS = path.join(ROOT, 'dist/src/main.js');
const CLI_JS = path.join(ROOT, 'dist/src/cli/main.js');
const UA = 'Mozilla/5.0 (crash-recovery test)';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-crash-'));
chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root
const pgDir = path.join(dataDir, 'pg');
/** Every order is the same: 3 × 28.50 + 1 × 55.00, so a whole one has two lines and totals 140.50. */
const ORDER_TOTAL = 140.5;

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000',
  RATE_LIMIT_PER_HOUR: '1000000',
};
delete env.DATABASE_URL;
delete env.REDIS_URL;

/** A service process, in its own process group (its PostgreSQL joins that group). */
interface Service {
  child: ChildProcess;
  base: string;
  output: () => string;
}

const groups: number[] = [];

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends every process group this file started, however the tests went: SIGTERM, then SIGKILL after 30 s. */
afterAll(async () => {
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (groups.some(groupAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** Resolves once `child` has exited (at once if it already has: 'exit' is not sent twice). */
async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

/** Starts `node dist/src/main.js`; resolves once /readyz answers 200 (rejects if it exits first). */
async function startService(): Promise<Service> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [MAIN_JS], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.push(child.pid!);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited while starting:\n${output}`);
    const status = await fetch(`${base}/readyz`).then((res) => res.status, () => 0);
    if (status === 200) return { child, base, output: () => output };
    if (Date.now() > deadline) throw new Error(`the service was not ready within 150 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A REST call as a browser-like client; the parsed body. */
async function call(base: string, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { 'user-agent': UA };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/v1${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

/** The postmaster's pid and port from DATA_DIR/pg/postmaster.pid. */
function postmaster(): { pid: number; port: number } {
  const [pid, , , port] = readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(pid), port: Number(port) };
}

/** Runs `sql` on the service's embedded database (its password is in DATA_DIR/secrets). */
async function query<T>(sql: string): Promise<T[]> {
  const { password, database } = embeddedDatabaseOf({ dataDir });
  const client = new pg.Client({ host: '127.0.0.1', port: postmaster().port, user: 'postgres', password, database });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

interface Shop {
  token: string;
  customerId: number;
  variantIds: number[];
}

/** Signs up (no challenge needed) and creates a product with two variants and a distributor to order for. */
async function openShop(base: string): Promise<Shop> {
  const signup = await call(base, 'POST', '/signup/register', undefined, {
    first_name: 'Asha',
    last_name: 'Rao',
    official_email: 'asha@example.com',
    primary_contact_number: '+919876543210',
    password: 'a-long-secret',
    organization_name: 'Rao Dairy',
  });
  expect(signup.status, JSON.stringify(signup.json)).toBe(201);
  const token: string = signup.json.token;
  const cls = await call(base, 'POST', '/masters/product-classes', token, { product_class: 'Milk', unit: 'litre' });
  expect(cls.status, JSON.stringify(cls.json)).toBe(201);
  const product = await call(base, 'POST', '/products', token, {
    product_name: 'Toned Milk',
    product_class_id: cls.json.data.id,
    variants: [
      { variant_name: '500 ml', item_sku_code: 'TM-500', mrp: 30, sp: 28.5 },
      { variant_name: '1 l', item_sku_code: 'TM-1000', mrp: 58, sp: 55 },
    ],
  });
  expect(product.status, JSON.stringify(product.json)).toBe(201);
  const roles = await call(base, 'GET', '/masters/roles', token);
  const distributorRole = roles.json.data.find((r: { role_name: string }) => r.role_name === 'Distributor').id;
  const customer = await call(base, 'POST', '/users', token, {
    first_name: 'Ravi',
    last_name: 'Kumar',
    primary_contact_number: '9876500001',
    password: 'another-secret',
    role_id: distributorRole,
    user_type: 2,
    store_name: 'Ravi Stores',
  });
  expect(customer.status, JSON.stringify(customer.json)).toBe(201);
  return { token, customerId: customer.json.data.id, variantIds: product.json.data.ProductVariants.map((v: { id: number }) => v.id) };
}

/**
 * Four clients place orders without pause; once `atLeast` are acknowledged (201), `crash` runs
 * while requests are still in flight. Resolves to the acknowledged orders' ids and codes.
 */
async function orderUntilCrash(base: string, shop: Shop, atLeast: number, crash: () => void): Promise<Map<number, string>> {
  const acknowledged = new Map<number, string>();
  let crashed = false;
  const client = async () => {
    while (!crashed || acknowledged.size < atLeast) {
      let res;
      try {
        res = await call(base, 'POST', '/orders', shop.token, {
          user_id: shop.customerId,
          items: [
            { product_variant_id: shop.variantIds[0], quantity: 3 },
            { product_variant_id: shop.variantIds[1], quantity: 1 },
          ],
        });
      } catch {
        return; // the connection died with the process
      }
      // Once the crash is under way, the service may answer 5xx for a database that died first.
      if (crashed && res.status !== 201) return;
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      acknowledged.set(res.json.data.id, res.json.data.order_code);
      if (!crashed && acknowledged.size >= atLeast) {
        crashed = true;
        crash();
      }
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  return acknowledged;
}

/** Every acknowledged order is there, over REST, and every order in the database is whole. */
async function expectOrdersIntact(base: string, token: string, acknowledged: Map<number, string>): Promise<void> {
  for (const [id, code] of acknowledged) {
    const res = await call(base, 'GET', `/orders/${id}`, token);
    expect(res.status, `order ${id}: ${JSON.stringify(res.json)}`).toBe(200);
    expect(res.json.data.order_code).toBe(code);
  }
  const orders = await query<{ id: number; lines: number; total: string; sum: string }>(
    `select o.id, count(i.id)::int as lines, o.total_amount as total, coalesce(sum(i.amount), 0) as sum
       from sales_order o left join order_item i on i.order_id = o.id group by o.id`,
  );
  expect(orders.length).toBeGreaterThanOrEqual(acknowledged.size);
  for (const order of orders) {
    expect({ id: order.id, lines: order.lines, total: Number(order.total), sum: Number(order.sum) }).toEqual({
      id: order.id,
      lines: 2,
      total: ORDER_TOTAL,
      sum: ORDER_TOTAL,
    });
  }
}

describe('the service after a crash (embedded PostgreSQL)', () => {
  let service: Service;
  let shop: Shop;
  let acknowledged = new Map<number, string>();
  let orphan = 0;

  it('runs durable, and a second service on the same DATA_DIR refuses to start, naming the first, which keeps running', async () => {
    service = await startService();
    shop = await openShop(service.base);
    const settings = await query<{ name: string; setting: string }>(
      `select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes') order by name`,
    );
    expect(settings).toEqual([
      { name: 'fsync', setting: 'on' },
      { name: 'full_page_writes', setting: 'on' },
      { name: 'synchronous_commit', setting: 'on' },
    ]);
    const port = await findFreePort();
    const second = spawn(process.execPath, [MAIN_JS], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    groups.push(second.pid!);
    let output = '';
    second.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = await once(second, 'exit');
    expect(code, output).toBe(1);
    expect(output).toMatch(new RegExp(`Start-up failed: The embedded PostgreSQL of .* belongs to process ${service.child.pid} \\(`));
    expect(output).not.toContain('undefined');
    expect((await fetch(`${service.base}/readyz`)).status).toBe(200);
  }, 240_000);

  it('SIGKILL of the service leaves its PostgreSQL running as an orphan, which the CLI uses without stopping it', async () => {
    orphan = postmaster().pid;
    acknowledged = await orderUntilCrash(service.base, shop, 20, () => service.child.kill('SIGKILL'));
    await exited(service.child);
    expect(service.child.signalCode).toBe('SIGKILL');
    expect(processInfo(orphan)?.ppid).not.toBe(service.child.pid);
    const cli = await promisify(execFile)(process.execPath, [CLI_JS, 'workspace:list'], { env, timeout: 60_000 });
    expect(cli.stdout).toMatch(/rao-dairy/);
    expect(processInfo(orphan)).not.toBeNull();
  }, 120_000);

  it('the next start stops the orphan cleanly and starts: every acknowledged order is there, none half-written', async () => {
    service = await startService();
    expect(service.output()).toContain(`Stopping the embedded PostgreSQL (pid ${orphan}) left running by a process that ended without stopping it`);
    expect(processInfo(orphan)).toBeNull();
    expect(postmaster().pid).not.toBe(orphan);
    await expectOrdersIntact(service.base, shop.token, acknowledged);
  }, 240_000);

  it('after SIGKILL of the whole process group (PostgreSQL too), the next start recovers every acknowledged order', async () => {
    const pgid = service.child.pid!;
    const more = await orderUntilCrash(service.base, shop, 20, () => process.kill(-pgid, 'SIGKILL'));
    await exited(service.child);
    for (const [id, code] of more) acknowledged.set(id, code);
    service = await startService();
    expect(service.output()).not.toContain('Stopping the embedded PostgreSQL');
    expect((await fetch(`${service.base}/readyz`)).status).toBe(200);
    await expectOrdersIntact(service.base, shop.token, acknowledged);
  }, 240_000);

  it('stops cleanly on SIGTERM: exit 0, the database shut down', async () => {
    service.child.kill('SIGTERM');
    await exited(service.child);
    expect(service.child.exitCode, service.output()).toBe(0);
    expect(existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
  }, 120_000);
});

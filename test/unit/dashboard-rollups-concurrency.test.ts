import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRollups } from '../../src/domains/dashboard/rollups';
import { createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The rollup triggers under concurrent transactions, written in SQL without the service's order
 * locks: the payment triggers lock the order before they read its payments, so a second payment
 * waits for the first to commit and then computes the outstanding amount from both (past the
 * order's total, where the floor at 0 makes the order of the two matter); a payment waits for a
 * status move of its order likewise; and two orders of one day moved on at once do not deadlock.
 */
describe('dashboard rollups under concurrent writes', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
  });
  afterAll(async () => {
    for (const c of clients) await c.end();
    await t?.close();
  });

  async function connection(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    clients.push(client);
    return client;
  }
  async function order(total: number, status: number): Promise<number> {
    const { id } = await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    await t.orm.em.fork().getConnection().execute('update sales_order set total_amount = ?, status = ? where id = ?', [total, status, id]);
    return id;
  }
  /** Whether `pending` is still waiting after a moment (it is blocked on a lock). */
  const stillWaiting = async (pending: Promise<unknown>) =>
    Promise.race([pending.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 300))]);
  const pay = (c: pg.Client, orderId: number, amount: number) =>
    c.query(`insert into payment (organization_id, order_id, amount, mode_of_payment, paid_at) values ($1, $2, $3, 'cash', now())`, [ws.organizationId, orderId, amount]);
  const expectRollupsRight = async () => {
    const check = await checkRollups(t.orm.em.fork(), ws.organizationId);
    expect(check.listed).toEqual([]);
    expect(check.differing).toBe(0);
  };

  it('two payments of one order past its total: the second waits for the first and counts from both', async () => {
    const id = await order(100, 4);
    const [a, b] = [await connection(), await connection()];
    await a.query('begin');
    await b.query('begin');
    await pay(a, id, 60);
    const second = pay(b, id, 60);
    expect(await stillWaiting(second)).toBe(true);
    await a.query('commit');
    await second;
    await b.query('commit');
    await expectRollupsRight();
    const [row] = await t.orm.em.fork().getConnection().execute<{ outstanding_amount: string }[]>(
      `select sum(outstanding_amount) as outstanding_amount from order_day_rollup where organization_id = ? and status = 4`,
      [ws.organizationId],
    );
    expect(Number(row.outstanding_amount)).toBe(0); // 100 − 120, never below 0
  });

  it('a payment waits for a status move of its order in progress, and lands in the new status', async () => {
    const id = await order(50, 3);
    const [a, b] = [await connection(), await connection()];
    await a.query('begin');
    await a.query('update sales_order set status = 4 where id = $1', [id]);
    await b.query('begin');
    const payment = pay(b, id, 20);
    expect(await stillWaiting(payment)).toBe(true);
    await a.query('commit');
    await payment;
    await b.query('commit');
    await expectRollupsRight();
  });

  it('two orders of one day moved from status 1 to 2 at once both commit', async () => {
    const [x, y] = [await order(10, 1), await order(20, 1)];
    const [a, b] = [await connection(), await connection()];
    await a.query('begin');
    await b.query('begin');
    await a.query('update sales_order set status = 2 where id = $1', [x]);
    const moved = b.query('update sales_order set status = 2 where id = $1', [y]);
    expect(await stillWaiting(moved)).toBe(true); // the same rollup rows: it waits, it does not deadlock
    await a.query('commit');
    await moved;
    await b.query('commit');
    await expectRollupsRight();
  });
});

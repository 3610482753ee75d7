import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelledReason } from '../../src/domains/webhooks/delivery-engine';
import { recordAttempts, type AttemptRecord } from '../../src/domains/webhooks/delivery-statements';
import { createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Attempts of one endpoint recorded in one batch (recordAttempts) end as if recorded one by one
 * in the given order: failure_count counts the failures after the last success, or adds them all
 * when none succeeded; a record whose attempt was taken over changes nothing, its batch-mates
 * are still recorded. No worker runs: deliveries are put in `sending` by hand.
 */
describe('recording a batch of attempts', () => {
  let t: TestApp;
  let pool: pg.Pool;
  let ws: Workspace;
  let catalog: Catalog;
  const reasons = { paused: cancelledReason(false), deleted: cancelledReason(true) };

  beforeAll(async () => {
    t = await buildTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' });
    pool = new pg.Pool({ connectionString: t.db.url, max: 2 });
    ws = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
  });
  afterAll(async () => {
    await pool?.end();
    await t?.close();
  });

  /** An endpoint with `count` deliveries, each `sending` attempt 1, and the endpoint's failure_count set to `failures`. */
  async function sendingDeliveries(count: number, failures: number): Promise<{ webhookId: number; ids: number[] }> {
    const hook = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'Batch', url: 'https://127.0.0.1:9/hook' } });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhookId = hook.json().data.id as number;
    for (let i = 0; i < count; i += 1) {
      await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    }
    // Only this endpoint's deliveries: the other endpoints of the workspace are deleted first.
    await pool.query(`update webhook_endpoint set deleted_at = now() where organization_id = $1 and id <> $2`, [ws.organizationId, webhookId]);
    const { rows } = await pool.query<{ id: number }>(
      `update webhook_delivery set status = 'sending', attempts = 1, lease_until = now() + interval '1 minute'
        where webhook_id = $1 returning id`,
      [webhookId],
    );
    await pool.query('update webhook_endpoint set failure_count = $2 where id = $1', [webhookId, failures]);
    return { webhookId, ids: rows.map((r) => r.id).sort((a, b) => a - b) };
  }

  const outcome = (deliveryId: number, delivered: boolean, attempt = 1): AttemptRecord => ({
    deliveryId,
    organizationId: ws.organizationId,
    attempt,
    finalStatus: delivered ? 'sent' : 'dead',
    delivered,
    responseStatus: delivered ? 200 : 404,
    responseBody: delivered ? 'ok' : 'no',
    durationMs: 3,
    error: delivered ? null : 'HTTP 404',
    retryDelayMs: 0,
  });

  const failureCount = async (webhookId: number) =>
    (await pool.query<{ failure_count: number }>('select failure_count from webhook_endpoint where id = $1', [webhookId])).rows[0].failure_count;

  it('failure, success, failure, failure: failure_count is 2 (the failures after the last success)', async () => {
    const { webhookId, ids } = await sendingDeliveries(4, 7);
    await recordAttempts(pool as unknown as pg.PoolClient, [outcome(ids[0], false), outcome(ids[1], true), outcome(ids[2], false), outcome(ids[3], false)], reasons);
    expect(await failureCount(webhookId)).toBe(2);
    const { rows } = await pool.query('select id, status, response_status, lease_until from webhook_delivery where webhook_id = $1 order by id', [webhookId]);
    expect(rows.map((r) => [r.status, r.response_status, r.lease_until])).toEqual([
      ['dead', 404, null],
      ['sent', 200, null],
      ['dead', 404, null],
      ['dead', 404, null],
    ]);
  });

  it('only failures add to the count; a success last resets it to 0', async () => {
    const failing = await sendingDeliveries(2, 3);
    await recordAttempts(pool as unknown as pg.PoolClient, [outcome(failing.ids[0], false), outcome(failing.ids[1], false)], reasons);
    expect(await failureCount(failing.webhookId)).toBe(5);
    const recovering = await sendingDeliveries(2, 3);
    await recordAttempts(pool as unknown as pg.PoolClient, [outcome(recovering.ids[0], false), outcome(recovering.ids[1], true)], reasons);
    expect(await failureCount(recovering.webhookId)).toBe(0);
  });

  it('a record for an attempt taken over changes nothing; the rest of its batch is recorded', async () => {
    const { webhookId, ids } = await sendingDeliveries(2, 0);
    // Another worker took the first delivery over: it is at attempt 2 now.
    await pool.query('update webhook_delivery set attempts = 2 where id = $1', [ids[0]]);
    await recordAttempts(pool as unknown as pg.PoolClient, [outcome(ids[0], false, 1), outcome(ids[1], true)], reasons);
    const { rows } = await pool.query('select status, attempts, response_status from webhook_delivery where webhook_id = $1 order by id', [webhookId]);
    expect(rows).toEqual([
      { status: 'sending', attempts: 2, response_status: null },
      { status: 'sent', attempts: 1, response_status: 200 },
    ]);
    expect(await failureCount(webhookId)).toBe(0);
  });
});

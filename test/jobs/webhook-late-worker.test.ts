import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryEngine } from '../../src/domains/webhooks/delivery-engine';
import { deliveryDepsOf } from '../../src/domains/webhooks/delivery-deps';
import type { HostResolver } from '../../src/domains/webhooks/target-guard';
import { secretsFrom } from '../../src/secrets';
import { createWorkspace, placeOrder, seedCatalog } from '../helpers/fixtures';
import { startHttpsReceiver, type HttpsReceiver } from '../helpers/https-receiver';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * A worker that outlives its lease (stalled, not dead) while another worker takes the delivery
 * over and finishes it: the late result must change nothing.
 */
describe('a worker that outlives its lease', () => {
  let t: TestApp;
  let receiver: HttpsReceiver;
  let pool: pg.Pool;
  beforeAll(async () => {
    t = await buildTestApp(
      { WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'late.hooks.test', WEBHOOK_TIMEOUT_MS: '2000' },
      { resolveHost: async () => [{ address: '127.0.0.1', family: 4 }] },
    );
    receiver = await startHttpsReceiver();
    pool = new pg.Pool({ connectionString: t.db.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await receiver?.close();
    await t?.close();
  });

  it('records nothing when the delivery was taken over and finished meanwhile', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const url = receiver.url('/late', 'late.hooks.test');
    const hook = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'Late', url } });
    expect(hook.statusCode, hook.body).toBe(201);
    await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    const [delivery] = await pool.query<{ id: number }>('select id from webhook_delivery where organization_id = $1', [ws.organizationId]).then((r) => r.rows);

    // Worker A stalls in its target lookup (after claiming attempt 1) until released.
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const stallingResolver: HostResolver = async () => {
      await stalled;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const quickResolver: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const secrets = secretsFrom(t.config.jwtSecret!);
    const workerA = new DeliveryEngine(deliveryDepsOf(t.config, secrets, stallingResolver));
    const workerB = new DeliveryEngine(deliveryDepsOf(t.config, secrets, quickResolver));

    const clientA = await pool.connect();
    const runA = workerA.run((work) => work(clientA), ws.organizationId, delivery.id);
    const waitForClaim = async () => {
      for (let i = 0; i < 100; i += 1) {
        const { rows } = await pool.query('select status from webhook_delivery where id = $1', [delivery.id]);
        if (rows[0].status === 'sending') return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('worker A never claimed the delivery');
    };
    await waitForClaim();
    // A's lease runs out; B takes over and delivers.
    await pool.query(`update webhook_delivery set lease_until = now() - interval '1 second' where id = $1`, [delivery.id]);
    const clientB = await pool.connect();
    await workerB.run((work) => work(clientB), ws.organizationId, delivery.id);
    clientB.release();
    const afterB = (await pool.query('select * from webhook_delivery where id = $1', [delivery.id])).rows[0];
    expect(afterB).toMatchObject({ status: 'sent', attempts: 2, response_status: 200 });

    // A wakes up, sends its (stale) attempt, and must leave the record and the endpoint alone.
    receiver.script({ status: 500 });
    release();
    await runA;
    clientA.release();
    const final = (await pool.query('select * from webhook_delivery where id = $1', [delivery.id])).rows[0];
    expect(final).toMatchObject({ status: 'sent', attempts: 2, response_status: 200, last_error: null, lease_until: null });
    expect(final.sent_at).toEqual(afterB.sent_at);
    const endpoint = (await pool.query('select failure_count from webhook_endpoint where id = $1', [hook.json().data.id])).rows[0];
    expect(endpoint.failure_count).toBe(0);
    const jobs = await pool.query(`select count(*)::int as n from graphile_worker.jobs where key = $1`, [`webhook-delivery-${delivery.id}`]);
    expect(jobs.rows[0].n).toBe(0);
  });
});

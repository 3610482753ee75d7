import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from './helpers/fixtures';
import { startHttpsReceiver, type HttpsReceiver } from './helpers/https-receiver';
import { buildTestApp, type TestApp } from './helpers/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let t: TestApp; let ws: Workspace; let cat: Catalog; let r: HttpsReceiver;
const sql = (q: string, p: unknown[] = []) => t.orm.em.fork().getConnection().execute(q, p);

beforeAll(async () => {
  t = await buildTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_MAX_ATTEMPTS: '4', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_CAP_MS: '400' });
  ws = await createWorkspace(t); cat = await seedCatalog(t, ws); r = await startHttpsReceiver();
  await t.startWorker();
}, 60_000);
afterAll(async () => { await t?.close(); await r?.close(); });

async function endpoint() {
  const res = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'x', url: r.url() } });
  expect(res.statusCode, res.body).toBe(201); return res.json().data;
}

describe('review', () => {
  it('200 with a NUL byte in the body', async () => {
    r.fallback = { status: 200, body: 'ok\u0000' };
    r.received.length = 0;
    const ep = await endpoint();
    await placeOrder(t, ws.token, { user_id: cat.distributorId, items: [{ product_variant_id: cat.variantIds[0], quantity: 1 }] });
    await sleep(8000);
    console.log('requests received', r.received.length, r.received.map((q) => q.headers['x-webhook-attempt']));
    console.log(await sql('select id,status,attempts,response_status,last_error,lease_until from webhook_delivery where webhook_id=?', [ep.id]));
    console.log(await sql("select id,key,attempts,max_attempts,last_error,run_at,locked_at from graphile_worker.jobs"));
    const test = await t.request({ method: 'POST', url: `/api/v1/developer/webhooks/${ep.id}/test`, token: ws.token });
    console.log('test endpoint', test.statusCode, test.body);
    console.log(await sql("select id,status,event_type,attempts,lease_until from webhook_delivery where webhook_id=? and event_type='webhook.test'", [ep.id]));
    await t.request({ method: 'DELETE', url: `/api/v1/developer/webhooks/${ep.id}`, token: ws.token });
  }, 30_000);

  it('pause while in flight, resume before retry', async () => {
    r.fallback = { status: 200, body: 'ok' };
    r.received.length = 0;
    r.script({ status: 503, delayMs: 300 });
    const ep = await endpoint();
    await placeOrder(t, ws.token, { user_id: cat.distributorId, items: [{ product_variant_id: cat.variantIds[0], quantity: 1 }] });
    await r.waitFor(1);
    const p = await t.request({ method: 'PUT', url: `/api/v1/developer/webhooks/${ep.id}`, token: ws.token, payload: { status: 0 } });
    expect(p.statusCode).toBe(200);
    await sleep(350);
    console.log('after pause', await sql('select id,status,attempts,next_attempt_at,last_error from webhook_delivery where webhook_id=?', [ep.id]));
    const q = await t.request({ method: 'PUT', url: `/api/v1/developer/webhooks/${ep.id}`, token: ws.token, payload: { status: 1 } });
    expect(q.statusCode).toBe(200);
    await sleep(2500);
    console.log('received after resume', r.received.length);
    console.log(await sql('select id,status,attempts,last_error from webhook_delivery where webhook_id=?', [ep.id]));
  }, 30_000);
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace, placeOrder, seedCatalog, type Workspace } from '../helpers/fixtures';
import { startHttpsReceiver, type HttpsReceiver } from '../helpers/https-receiver';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/** Answers and inputs that once broke deliveries: NUL bytes, double redelivery. */
describe('webhook edge cases', () => {
  let t: TestApp;
  let receiver: HttpsReceiver;
  /** A fresh workspace per test, so no other endpoint shares the receiver's scripted answers. */
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace(t);
  });
  beforeAll(async () => {
    t = await buildTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_CAP_MS: '200' });
    receiver = await startHttpsReceiver();
    await t.startWorker();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const sql = <T extends object[]>(query: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute<T>(query, params);
  const createHook = async (url = receiver.url()) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'Edge', url } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const waitForStatus = async (webhookId: number, status: string) => {
    for (let i = 0; i < 200; i += 1) {
      const rows = await sql<{ id: number; status: string; response_body: string | null }[]>(
        'select id, status, response_body from webhook_delivery where webhook_id = ? and event_type = ? order by id',
        [webhookId, 'order.created'],
      );
      if (rows.length > 0 && rows.every((r) => r.status === status)) return rows;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`deliveries of webhook ${webhookId} never all became ${status}`);
  };

  it('a 2xx whose body holds NUL and a cut multi-byte character is recorded as sent, NUL shown as U+FFFD', async () => {
    const id = await createHook();
    receiver.script({ status: 200, body: `ok\u0000${'é'.repeat(3000)}` });
    const catalog = await seedCatalog(t, ws);
    await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    const [row] = await waitForStatus(id, 'sent');
    expect(row.response_body!.startsWith('ok\uFFFD')).toBe(true);
    // 4096 bytes were kept: "ok", NUL and 2,046 whole "é"; the half "é" at the limit is dropped.
    expect(row.response_body).toBe(`ok\uFFFD${'é'.repeat(2046)}`);
    expect(row.response_body!.endsWith('é')).toBe(true); // the character cut at 4096 bytes is dropped, not mangled
  });

  it('the test endpoint reports a NUL-bearing answer instead of failing', async () => {
    const id = await createHook();
    receiver.script({ status: 200, body: 'fine\u0000' });
    const res = await t.request({ method: 'POST', url: `/api/v1/developer/webhooks/${id}/test`, token: ws.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ delivered: true, response_status: 200 });
  });

  it('redelivers a dead event once: a second request while the copy is on its way is 409', async () => {
    const id = await createHook();
    receiver.script({ status: 410 });
    const catalog = await seedCatalog(t, ws);
    await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] });
    const [dead] = await waitForStatus(id, 'dead');
    const redeliver = () => t.request({ method: 'POST', url: `/api/v1/developer/webhook-deliveries/${dead.id}/redeliver`, token: ws.token });
    const [first, second] = await Promise.all([redeliver(), redeliver()]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const refused = first.statusCode === 409 ? first : second;
    expect(refused.json()).toEqual({ response_code: 409, message: expect.stringMatching(/already being redelivered|Only dead deliveries/) });
  });

  it('refuses NUL in text fields with 400 naming the field', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'a\u0000b', url: receiver.url() } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, 'name must not contain NUL characters'));
  });

  it('caps a workspace at 20 endpoints (deleted ones do not count)', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 20; i += 1) ids.push(await createHook());
    const over = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'One more', url: receiver.url() } });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json()).toEqual(errorEnvelope(400, 'A workspace may have at most 20 webhook endpoints; delete one first'));
    expect((await t.request({ method: 'DELETE', url: `/api/v1/developer/webhooks/${ids[0]}`, token: ws.token })).statusCode).toBe(200);
    await createHook();
  });
});

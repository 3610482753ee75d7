import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Logger, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTasks } from '../../jobs/tasks';
import { taskDepsOf } from '../../jobs/worker';
import type { Config } from '../../src/config';
import { UserType } from '../../src/domains/users/user.entity';
import { secretsFrom } from '../../src/secrets';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, signIn, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const INBOX = '/api/v1/portal/notifications';
const TOKENS = '/api/v1/portal/notifications/device-token';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function sql<Row>(query: string, params: unknown[] = []): Promise<Row[]> {
  return (await t.orm.em.fork().getConnection().execute(query, params)) as unknown as Row[];
}

/** Runs every due job once with the tasks built from `config` (the app's unless given). */
async function runJobs(config: Config = t.config): Promise<void> {
  const tasks = createTasks(taskDepsOf({ config, secrets: secretsFrom(config.jwtSecret!), orm: t.orm }));
  await runOnce({ connectionString: t.db.url, taskList: tasks, logger: new Logger(() => () => undefined), noHandleSignals: true, concurrency: 1 });
}

interface World {
  ws: Workspace;
  catalog: Catalog;
  orderId: number;
  orderCode: string;
}

async function world(): Promise<World> {
  const ws = await createWorkspace(t);
  const catalog = await seedCatalog(t, ws);
  const order = await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 3 }] });
  return { ws, catalog, orderId: order.id, orderCode: order.order_code as string };
}

const moveOrder = async (w: World, status: number) => {
  const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${w.orderId}/status`, token: w.ws.token, payload: { order_status: status } });
  expect(res.statusCode, res.body).toBe(200);
};
const inbox = (token: string, query = '') => t.request({ method: 'GET', url: `${INBOX}${query}`, token });
const register = (token: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: TOKENS, token, payload });

describe('the inbox', () => {
  it('an order status change and a payment write the customer’s inbox; unread filter and count; read one, read all', async () => {
    const w = await world();
    await moveOrder(w, 2);
    const paid = await t.request({ method: 'POST', url: '/api/v1/payments', token: w.ws.token, payload: { order_id: w.orderId, amount: 10 } });
    expect(paid.statusCode, paid.body).toBe(201);

    const listed = await inbox(w.catalog.distributorToken);
    expect(listed.statusCode, listed.body).toBe(200);
    const body = listed.json();
    expect(body.unread_count).toBe(2);
    expect(body.pagination).toEqual({ total: 2, page: 1, limit: 20, total_pages: 1 });
    expect(body.data).toEqual([
      expect.objectContaining({ type: 'payment_recorded', entity_type: 'payment', entity_id: paid.json().data.id, read: false, read_at: null }),
      expect.objectContaining({ type: 'order_status', title: `Order ${w.orderCode} forwarded`, entity_type: 'order', entity_id: w.orderId, read: false }),
    ]);
    // The admin who made the changes has an empty inbox.
    expect((await inbox(w.ws.token)).json().data).toEqual([]);

    const [payment, order] = body.data;
    const read = await t.request({ method: 'PATCH', url: `${INBOX}/${order.id}/read`, token: w.catalog.distributorToken });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toEqual(expect.objectContaining({ id: order.id, read: true, read_at: expect.any(String) }));
    const unread = (await inbox(w.catalog.distributorToken, '?unread=true')).json();
    expect(unread.data.map((n: { id: number }) => n.id)).toEqual([payment.id]);
    expect(unread.unread_count).toBe(1);
    expect((await inbox(w.catalog.distributorToken, '?unread=false')).json().data.map((n: { id: number }) => n.id)).toEqual([order.id]);

    const all = await t.request({ method: 'PATCH', url: `${INBOX}/read-all`, token: w.catalog.distributorToken });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toEqual({ marked: 1 });
    expect((await inbox(w.catalog.distributorToken)).json().unread_count).toBe(0);
  });

  it('a refused status change writes no inbox row and queues no push (the event’s transaction)', async () => {
    const w = await world();
    expect((await register(w.catalog.distributorToken, { token: `rolled-${unique()}`, app: 'portal', platform: 'web' })).statusCode).toBe(201);
    const skipped = await t.request({ method: 'PATCH', url: `/api/v1/orders/${w.orderId}/status`, token: w.ws.token, payload: { order_status: 4 } });
    expect(skipped.statusCode).toBeGreaterThanOrEqual(400);
    expect((await inbox(w.catalog.distributorToken)).json().data).toEqual([]);
    const cancelled = await t.request({ method: 'POST', url: `/api/v1/orders/${w.orderId}/cancel`, token: w.ws.token, payload: { reason: 'Shop closed' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await inbox(w.catalog.distributorToken)).json().data).toEqual([
      expect.objectContaining({ type: 'order_status', title: `Order ${w.orderCode} cancelled`, body: expect.stringContaining('Shop closed') }),
    ]);
  });

  it('another user’s notification, or another workspace’s, is 404 and stays unread; API keys are refused; a bad sort is a 400', async () => {
    const w = await world();
    await moveOrder(w, 2);
    const [mine] = (await inbox(w.catalog.distributorToken)).json().data;
    const other = await createUser(t, w.ws, UserType.RETAILER);
    const res = await t.request({ method: 'PATCH', url: `${INBOX}/${mine.id}/read`, token: other.token });
    expect(res.statusCode, res.body).toBe(404);
    const elsewhere = await createWorkspace(t);
    expect((await t.request({ method: 'PATCH', url: `${INBOX}/${mine.id}/read`, token: elsewhere.token })).statusCode).toBe(404);
    expect((await inbox(w.catalog.distributorToken)).json().data[0].read).toBe(false);
    const gql = await t.graphql('mutation($id: Int!) { markNotificationRead(id: $id) { id } }', { id: mine.id }, other.token);
    expectGraphqlError(gql, 'NOT_FOUND');

    const key = await createApiKey(t, w.ws);
    expect((await t.request({ method: 'GET', url: INBOX, apiKey: key.key })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: TOKENS, apiKey: key.key, payload: { token: 'x', app: 'portal', platform: 'web' } })).statusCode).toBe(403);
    expect((await inbox(w.catalog.distributorToken, '?sort=title')).statusCode).toBe(400);
  });

  it('GraphQL: the inbox, the unread count, read all', async () => {
    const w = await world();
    await moveOrder(w, 2);
    await moveOrder(w, 3);
    const token = w.catalog.distributorToken;
    const listed = expectGraphqlData(
      await t.graphql('{ notifications(unread: true) { nodes { id type title entityType entityId readAt } pageInfo { total } } unreadNotificationCount }', {}, token),
    );
    expect(listed.unreadNotificationCount).toBe(2);
    expect(listed.notifications.pageInfo.total).toBe(2);
    expect(listed.notifications.nodes[0]).toEqual(expect.objectContaining({ type: 'order_status', title: `Order ${w.orderCode} approved`, entityType: 'order', entityId: w.orderId, readAt: null }));
    expect(expectGraphqlData(await t.graphql('mutation { markAllNotificationsRead }', {}, token)).markAllNotificationsRead).toBe(2);
    expect(expectGraphqlData(await t.graphql('{ unreadNotificationCount }', {}, token)).unreadNotificationCount).toBe(0);
  });
});

describe('approvals', () => {
  it('an approval request notifies the step’s approver and its decision the requester', async () => {
    const w = await world();
    const manager = await createUser(t, w.ws, UserType.EMPLOYEE);
    const employee = await createUser(t, w.ws, UserType.EMPLOYEE);
    const policy = await t.request({ method: 'PUT', url: '/api/v1/approvals/policies/foc', token: w.ws.token, payload: { tiers: [{ min_amount: 0, approver_user_id: manager.id }] } });
    expect(policy.statusCode, policy.body).toBe(200);
    const foc = await t.request({
      method: 'POST',
      url: '/api/v1/foc/requests',
      token: employee.token,
      payload: { customer_id: w.catalog.distributorId, reason: 1, items: [{ product_variant_id: w.catalog.variantIds[1], quantity: 2 }] },
    });
    expect(foc.statusCode, foc.body).toBe(201);
    const approvalId = foc.json().data.approval_id;
    expect((await inbox(manager.token)).json().data).toEqual([expect.objectContaining({ type: 'approval_requested', entity_type: 'approval', entity_id: approvalId })]);
    expect((await inbox(employee.token)).json().data).toEqual([]);
    const decided = await t.request({ method: 'POST', url: `/api/v1/approvals/${approvalId}/reject`, token: manager.token, payload: { comment: 'Not this month' } });
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await inbox(employee.token)).json().data).toEqual([
      expect.objectContaining({ type: 'approval_decided', title: 'Your foc request was rejected', entity_type: 'approval', entity_id: approvalId }),
    ]);
  });
});

describe('device tokens', () => {
  it('POST is idempotent (same token, same row), moves a token another user registers; DELETE by value; 400 naming the field', async () => {
    const w = await world();
    const token = `fcm-${unique()}`;
    const first = await register(w.catalog.distributorToken, { token, app: 'portal', platform: 'android' });
    expect(first.statusCode, first.body).toBe(201);
    const again = await register(w.catalog.distributorToken, { token, app: 'portal', platform: 'android' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    const other = await createUser(t, w.ws, UserType.RETAILER);
    const moved = await register(other.token, { token, app: 'portal', platform: 'android' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.id).toBe(first.json().data.id);
    expect(await sql(`select user_id from device_token where organization_id = ? and token = ?`, [w.ws.organizationId, token])).toEqual([{ user_id: other.id }]);

    const bad = await register(other.token, { token, app: 'desktop', platform: 'android' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('app');

    // The first user no longer holds it.
    expect((await t.request({ method: 'DELETE', url: TOKENS, token: w.catalog.distributorToken, payload: { token } })).statusCode).toBe(404);
    const removed = await t.request({ method: 'DELETE', url: TOKENS, token: other.token, payload: { token } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await sql(`select id from device_token where organization_id = ? and token = ?`, [w.ws.organizationId, token])).toEqual([]);

    const gql = expectGraphqlData(
      await t.graphql('mutation($input: DeviceTokenInput!) { registerDeviceToken(input: $input) { id app platform token disabledAt } }', { input: { token, app: 'field', platform: 'ios' } }, w.ws.token),
    );
    expect(gql.registerDeviceToken).toEqual(expect.objectContaining({ app: 'field', platform: 'ios', token, disabledAt: null }));
    expect(expectGraphqlData(await t.graphql('mutation($token: String!) { unregisterDeviceToken(token: $token) }', { token }, w.ws.token)).unregisterDeviceToken).toBe(true);
  });

  it('logout unregisters the session user’s tokens of that app', async () => {
    const w = await world();
    const user = await createUser(t, w.ws, UserType.EMPLOYEE);
    const portal = `portal-${unique()}`;
    const driver = `driver-${unique()}`;
    expect((await register(user.token, { token: portal, app: 'portal', platform: 'web' })).statusCode).toBe(201);
    expect((await register(user.token, { token: driver, app: 'driver', platform: 'android' })).statusCode).toBe(201);
    const out = await t.request({ method: 'POST', url: '/api/v1/auth/logout?app=portal', token: user.token });
    expect(out.statusCode, out.body).toBe(200);
    expect(await sql(`select token from device_token where organization_id = ? and user_id = ?`, [w.ws.organizationId, user.id])).toEqual([{ token: driver }]);
  });

  it('GraphQL logout(app:) unregisters that app’s tokens; without an app, all of them', async () => {
    const w = await world();
    const user = await createUser(t, w.ws, UserType.EMPLOYEE);
    const field = `field-${unique()}`;
    const driver = `driver-${unique()}`;
    expect((await register(user.token, { token: field, app: 'field', platform: 'android' })).statusCode).toBe(201);
    expect((await register(user.token, { token: driver, app: 'driver', platform: 'android' })).statusCode).toBe(201);
    expect(expectGraphqlData(await t.graphql('mutation { logout(app: "field") }', {}, user.token)).logout).toBe(true);
    expect(await sql(`select token from device_token where organization_id = ? and user_id = ?`, [w.ws.organizationId, user.id])).toEqual([{ token: driver }]);
    const again = await signIn(t, w.ws, user.id);
    expect(expectGraphqlData(await t.graphql('mutation { logout }', {}, again)).logout).toBe(true);
    expect(await sql(`select token from device_token where organization_id = ? and user_id = ?`, [w.ws.organizationId, user.id])).toEqual([]);
  });
});

describe('pushes', () => {
  it('a push job delivers to the file outbox after the event’s commit', async () => {
    const w = await world();
    const token = `push-${unique()}`;
    expect((await register(w.catalog.distributorToken, { token, app: 'portal', platform: 'android' })).statusCode).toBe(201);
    await moveOrder(w, 2);
    await runJobs();
    const pushes = (await t.outbox()).filter((m) => m.channel === 'push' && m.to === token);
    expect(pushes).toEqual([
      expect.objectContaining({ subject: `Order ${w.orderCode} forwarded`, data: expect.objectContaining({ type: 'order_status', entity_type: 'order', entity_id: String(w.orderId), app: 'portal' }) }),
    ]);
    const [{ pushed }] = await sql<{ pushed: boolean }>(`select pushed_at is not null as pushed from notification where organization_id = ? and entity_id = ?`, [w.ws.organizationId, w.orderId]);
    expect(pushed).toBe(true);
  });

  it('quiet hours hold the push until their end; the inbox row is written at once', async () => {
    const w = await world();
    const token = `quiet-${unique()}`;
    expect((await register(w.catalog.distributorToken, { token, app: 'portal', platform: 'ios' })).statusCode).toBe(201);
    const [{ minute }] = await sql<{ minute: number }>(
      `select (extract(hour from now() at time zone c.time_zone) * 60 + extract(minute from now() at time zone c.time_zone))::int as minute from workspace_config c where c.organization_id = ?`,
      [w.ws.organizationId],
    );
    const hhmm = (m: number) => `${String(Math.floor(((m + 1440) % 1440) / 60)).padStart(2, '0')}:${String((m + 1440) % 60).padStart(2, '0')}`;
    const set = await t.request({ method: 'PUT', url: `${INBOX}/preferences`, token: w.catalog.distributorToken, payload: { quiet_hours_start: hhmm(minute - 60), quiet_hours_end: hhmm(minute + 120) } });
    expect(set.statusCode, set.body).toBe(200);
    expect((await t.request({ method: 'PUT', url: `${INBOX}/preferences`, token: w.catalog.distributorToken, payload: { quiet_hours_start: '25:00', quiet_hours_end: '06:00' } })).statusCode).toBe(400);
    await moveOrder(w, 2);
    expect((await inbox(w.catalog.distributorToken)).json().unread_count).toBe(1);
    const jobs = await sql<{ wait_minutes: number }>(
      `select extract(epoch from (run_at - now())) / 60 as wait_minutes from graphile_worker.jobs
        where key in (select 'push-notification-' || n.id from notification n where n.organization_id = ?)`,
      [w.ws.organizationId],
    );
    expect(jobs).toHaveLength(1);
    expect(Number(jobs[0].wait_minutes)).toBeGreaterThan(110);
    await runJobs();
    expect((await t.outbox()).filter((m) => m.to === token)).toEqual([]);

    const prefs = expectGraphqlData(await t.graphql('mutation { setQuietHours(start: null, end: null) { quietHoursStart quietHoursEnd } }', {}, w.catalog.distributorToken));
    expect(prefs.setQuietHours).toEqual({ quietHoursStart: null, quietHoursEnd: null });
  });

  describe('FCM HTTP v1 against a fake receiver', () => {
    let server: Server;
    const seen: Array<{ url: string; auth?: string; body: string }> = [];
    let answer: { status: number; body: unknown } = { status: 200, body: { name: 'projects/p/messages/1' } };
    let config: Config;

    const bodyOf = (req: IncomingMessage) =>
      new Promise<string>((resolve) => {
        let text = '';
        req.on('data', (c) => (text += c));
        req.on('end', () => resolve(text));
      });

    beforeAll(async () => {
      // A real HTTPS receiver, its certificate from the tests' throwaway CA (trusted by NODE_EXTRA_CA_CERTS).
      const tls = inject('receiverTls');
      server = createServer({ key: tls.key, cert: tls.cert }, async (req, res) => {
        const body = await bodyOf(req);
        seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/token') {
          res.end(JSON.stringify({ access_token: 'fake-access-token', expires_in: 3600, token_type: 'Bearer' }));
          return;
        }
        res.statusCode = answer.status;
        res.end(JSON.stringify(answer.body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-fcm-'));
      const credentials = path.join(dir, 'service-account.json');
      writeFileSync(
        credentials,
        JSON.stringify({ client_email: 'push@p.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }), token_uri: `https://127.0.0.1:${port}/token` }),
      );
      config = { ...t.config, push: { transport: 'fcm', fcmProjectId: 'p', fcmCredentialsFile: credentials, fcmApiUrl: `https://127.0.0.1:${port}/v1` } };
    });
    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    it('sends with a service-account access token; UNREGISTERED disables the token, other errors keep it', async () => {
      const w = await world();
      const token = `fcm-live-${unique()}`;
      expect((await register(w.catalog.distributorToken, { token, app: 'portal', platform: 'android' })).statusCode).toBe(201);
      await runJobs(); // anything due from earlier tests, through the file outbox
      seen.length = 0;

      answer = { status: 200, body: { name: 'projects/p/messages/1' } };
      await moveOrder(w, 2);
      await runJobs(config);
      const sends = seen.filter((s) => s.url === '/v1/projects/p/messages:send');
      expect(sends).toHaveLength(1);
      expect(sends[0].auth).toBe('Bearer fake-access-token');
      expect(JSON.parse(sends[0].body).message).toEqual(expect.objectContaining({ token, notification: { title: `Order ${w.orderCode} forwarded`, body: expect.any(String) } }));

      answer = { status: 500, body: { error: { code: 500, status: 'INTERNAL' } } };
      await moveOrder(w, 3);
      await runJobs(config);
      const kept = await sql<{ disabled: boolean; last_error: string }>(`select disabled_at is not null as disabled, last_error from device_token where organization_id = ? and token = ?`, [w.ws.organizationId, token]);
      expect(kept).toEqual([{ disabled: false, last_error: 'FCM answered 500 INTERNAL' }]);

      answer = { status: 404, body: { error: { code: 404, status: 'NOT_FOUND', details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }] } } };
      await moveOrder(w, 4);
      await runJobs(config);
      const gone = await sql<{ disabled: boolean; last_error: string }>(`select disabled_at is not null as disabled, last_error from device_token where organization_id = ? and token = ?`, [w.ws.organizationId, token]);
      expect(gone).toEqual([{ disabled: true, last_error: 'FCM answered 404 UNREGISTERED' }]);

      // A disabled token gets no more pushes (and no job is queued for a user without live tokens).
      seen.length = 0;
      await t.request({ method: 'POST', url: '/api/v1/payments', token: w.ws.token, payload: { order_id: w.orderId, amount: 1 } });
      await runJobs(config);
      expect(seen.filter((s) => s.url.endsWith(':send'))).toEqual([]);
      // Registering it again makes it live.
      const again = await register(w.catalog.distributorToken, { token, app: 'portal', platform: 'android' });
      expect(again.json().data.disabled_at).toBeNull();
    });
  });
});

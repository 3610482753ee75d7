import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveryDepsOf } from '../../src/domains/webhooks/delivery-deps';
import type { HostResolver, ResolvedAddress } from '../../src/domains/webhooks/target-guard';
import { WebhookEventQueue } from '../../src/domains/webhooks/webhook-event-queue';
import { UserType } from '../../src/domains/users/user.entity';
import { secretsFrom } from '../../src/secrets';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import {
  createApiKey,
  createUser,
  createWorkspace,
  placeOrder,
  seedCatalog,
  type Catalog,
  type Workspace,
} from '../helpers/fixtures';
import { ORDER_CREATED_KEYS, signatureValid, startHttpsReceiver, USER_CREATED_KEYS, type HttpsReceiver, type LoggedDelivery } from '../helpers/https-receiver';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/**
 * Webhook management over REST (/api/v1/developer/webhooks, /developer/webhook-deliveries) and
 * GraphQL: registration and its target rules, update, pause, delete, rotation, the synchronous
 * test delivery, the delivery log, redelivery, access, and the transactional event outbox.
 *
 * Two apps: `t` (127.0.0.1 exempt, no worker: queued deliveries stay pending so their state and
 * jobs can be inspected) and `guard` (strict target rules; runs a worker for the test-endpoint
 * checks, reaching the HTTPS receiver through exempt host names only).
 */

const WEBHOOKS = '/api/v1/developer/webhooks';
const DELIVERIES = '/api/v1/developer/webhook-deliveries';
const SUPPORTED = ['order.created', 'order.delivered', 'order.cancelled', 'user.created', 'user.updated', 'leave.approved', 'leave.rejected', 'crate_movement.recorded', 'foc_request.approved', 'foc_request.rejected', 'foc_request.fulfilled', 'foc_request.cancelled'];
const SUPPORTED_TEXT = SUPPORTED.join(', ');
const DEFAULT_EVENTS = 'order.created,order.delivered';
const SECRET_SHAPE = /^whsec_[0-9a-f]{64}$/;
const EVENT_ID_SHAPE = /^evt_[0-9a-f]{24}$/;
const USER_AGENT = 'SalesDistribution-Webhooks/1.0 (+https://github.com/sales-distribution)';
const CREATED_MESSAGE = 'Webhook created; store the secret now, it is not shown again';
const ADMINS_ONLY = 'Only workspace administrators may do this';
const NO_KEYS_HERE = 'API keys are not accepted on /developer: sign in with a session token';
const NO_CREDENTIAL = 'Authentication required: send a session token or an API key';
const PAUSED_REASON = 'cancelled: the endpoint was paused';
const DELETED_REASON = 'cancelled: the endpoint was deleted';

const LIST_ITEM_KEYS = ['created_at', 'events', 'failure_count', 'id', 'last_triggered_at', 'name', 'organization_id', 'status', 'url'];
const CREATED_KEYS = ['events', 'failure_count', 'id', 'name', 'organization_id', 'secret', 'status', 'url'];
const UPDATED_KEYS = ['events', 'id', 'name', 'status', 'url'];
const DELIVERY_KEYS = [
  'attempts',
  'created_at',
  'duration_ms',
  'event_id',
  'event_type',
  'id',
  'last_attempt_at',
  'last_error',
  'max_attempts',
  'next_attempt_at',
  'response_body',
  'response_status',
  'sent_at',
  'status',
  'webhook_id',
];
const TEST_RESULT_KEYS = ['delivered', 'duration_ms', 'error', 'event_id', 'response_status'];

/** Public stand-ins the fake resolver knows; nothing is ever sent to them (no worker runs in `t`). */
const TARGET = 'https://hooks.example/webhook';
const OTHER_TARGET = 'https://other.example/events';

// ---------------------------------------------------------------------------------------------
// Shapes

interface ListedHook {
  id: number;
  organization_id: number;
  name: string;
  url: string;
  events: string;
  status: number;
  last_triggered_at: string | null;
  failure_count: number;
  created_at: string;
}

interface CreatedHook {
  id: number;
  organization_id: number;
  name: string;
  url: string;
  secret: string;
  events: string;
  status: number;
  failure_count: number;
}


interface HookRow {
  id: number;
  organization_id: number;
  name: string;
  url: string;
  events: string;
  status: number;
  secret_ciphertext: string | null;
  /** Raw SQL answers timestamps as text. */
  deleted_at: string | null;
  failure_count: number;
}

interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_id: string;
  event_type: string;
  event_data: Record<string, unknown>;
  status: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
}

// ---------------------------------------------------------------------------------------------
// A fake DNS shared by both apps: names map to addresses; anything else does not resolve.

const dns = new Map<string, ResolvedAddress[]>();
const lookups: string[] = [];
const family = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);
const resolvesTo = (host: string, ...addresses: string[]) => dns.set(host, addresses.map((address) => ({ address, family: family(address) })));
const resolveHost: HostResolver = async (host) => {
  lookups.push(host);
  const answer = dns.get(host);
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};
resolvesTo('hooks.example', '93.184.216.34');
resolvesTo('other.example', '93.184.216.35');

let t: TestApp;
let guard: TestApp;
/** The relation the job queue is read through (graphile-worker 0.17 exposes the view `jobs`). */
let jobsRelation = 'graphile_worker.jobs';

beforeAll(async () => {
  [t, guard] = await Promise.all([
    buildTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '3000' }, { resolveHost }),
    buildTestApp(
      {
        // Upper case and an IPv6 address without brackets, as the variable documents them.
        WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'EXEMPT.hooks.test, receiver.hooks.test, FD00::7',
        WEBHOOK_TIMEOUT_MS: '3000',
        WEBHOOK_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_CAP_MS: '200',
      },
      { resolveHost },
    ),
  ]);
  const relations = await sql<{ table_name: string }>(
    t,
    "select table_name from information_schema.tables where table_schema = 'graphile_worker' and table_name in ('jobs', '_private_jobs')",
  );
  if (!relations.some((r) => r.table_name === 'jobs')) jobsRelation = 'graphile_worker._private_jobs';
});
afterAll(async () => {
  await Promise.all([t?.close(), guard?.close()]);
});

// ---------------------------------------------------------------------------------------------
// Helpers

async function sql<Row>(app: TestApp, query: string, params: unknown[] = []): Promise<Row[]> {
  return (await app.orm.em.fork().getConnection().execute(query, params)) as unknown as Row[];
}

const post = (app: TestApp, token: string, payload: Record<string, unknown>) => app.request({ method: 'POST', url: WEBHOOKS, token, payload });
const put = (app: TestApp, token: string, id: number | string, payload: Record<string, unknown>) =>
  app.request({ method: 'PUT', url: `${WEBHOOKS}/${id}`, token, payload });
const remove = (app: TestApp, token: string, id: number | string) => app.request({ method: 'DELETE', url: `${WEBHOOKS}/${id}`, token });
const rotate = (app: TestApp, token: string, id: number | string) => app.request({ method: 'POST', url: `${WEBHOOKS}/${id}/rotate-secret`, token });
const sendTest = (app: TestApp, token: string, id: number | string) => app.request({ method: 'POST', url: `${WEBHOOKS}/${id}/test`, token });
const redeliver = (app: TestApp, token: string, id: number | string) => app.request({ method: 'POST', url: `${DELIVERIES}/${id}/redeliver`, token });
const getDeliveries = (app: TestApp, token: string, query = '') => app.request({ method: 'GET', url: `${DELIVERIES}${query ? `?${query}` : ''}`, token });

/** Registers an endpoint (201 expected) and returns the created body. */
async function createHook(app: TestApp, ws: Workspace, payload: Record<string, unknown> = {}): Promise<CreatedHook> {
  const res = await post(app, ws.token, { name: 'Orders feed', url: TARGET, ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function listHooks(app: TestApp, ws: Workspace): Promise<ListedHook[]> {
  const res = await app.request({ method: 'GET', url: WEBHOOKS, token: ws.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function listDeliveries(app: TestApp, ws: Workspace, query = ''): Promise<LoggedDelivery[]> {
  const res = await getDeliveries(app, ws.token, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function hookRow(app: TestApp, id: number): Promise<HookRow> {
  const [row] = await sql<HookRow>(app, 'select * from webhook_endpoint where id = ?', [id]);
  expect(row, `endpoint ${id}`).toBeDefined();
  return row;
}

/** Every endpoint row of the workspace, deleted ones included. */
async function countHooks(app: TestApp, ws: Workspace): Promise<number> {
  const [row] = await sql<{ n: number }>(app, 'select count(*)::int as n from webhook_endpoint where organization_id = ?', [ws.organizationId]);
  return row.n;
}

/** Delivery rows of the workspace (optionally of one endpoint), oldest first. */
async function deliveryRows(app: TestApp, ws: Workspace, webhookId?: number): Promise<DeliveryRow[]> {
  return sql<DeliveryRow>(
    app,
    `select * from webhook_delivery where organization_id = ? ${webhookId === undefined ? '' : 'and webhook_id = ?'} order by id`,
    webhookId === undefined ? [ws.organizationId] : [ws.organizationId, webhookId],
  );
}

/** Jobs waiting under the delivery's job key. */
async function jobsOf(app: TestApp, deliveryId: number): Promise<number> {
  const [row] = await sql<{ n: number }>(app, `select count(*)::int as n from ${jobsRelation} where key = ?`, [`webhook-delivery-${deliveryId}`]);
  return row.n;
}

/** Every deliver_webhook job of the app's database. */
async function allDeliveryJobs(app: TestApp): Promise<number> {
  const [row] = await sql<{ n: number }>(app, `select count(*)::int as n from ${jobsRelation} where key like 'webhook-delivery-%'`);
  return row.n;
}

/** The secret the stored ciphertext opens to (the app's own key derivation). */
function openSecret(app: TestApp, ciphertext: string): string {
  return deliveryDepsOf(app.config, secretsFrom(app.config.jwtSecret!)).secrets.open(ciphertext);
}

const newOrder = (ws: Workspace, catalog: Catalog) =>
  placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] });


/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------

describe('POST /developer/webhooks and GET /developer/webhooks', () => {
  it('answers 201 with exactly the documented fields and a whsec_ secret shown once', async () => {
    const ws = await createWorkspace(t);
    const res = await post(t, ws.token, { name: '  Orders feed  ', url: TARGET });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'response_code']);
    expect(body.response_code).toBe(201);
    expect(body.message).toBe(CREATED_MESSAGE);
    expect(Object.keys(body.data).sort()).toEqual(CREATED_KEYS);
    expect(body.data).toEqual({
      id: expect.any(Number),
      organization_id: ws.organizationId,
      name: 'Orders feed',
      url: TARGET,
      secret: expect.stringMatching(SECRET_SHAPE),
      events: DEFAULT_EVENTS,
      status: 1,
      failure_count: 0,
    });
  });

  it('keeps the secret only encrypted: the row never contains it in clear, and the ciphertext opens to it', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    const [{ json }] = await sql<{ json: string }>(t, 'select row_to_json(w)::text as json from webhook_endpoint w where id = ?', [hook.id]);
    expect(json).not.toContain(hook.secret);
    expect(json).not.toContain(hook.secret.slice('whsec_'.length));
    const row = await hookRow(t, hook.id);
    expect(row.secret_ciphertext).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(openSecret(t, row.secret_ciphertext!)).toBe(hook.secret);
    // Two endpoints never share a secret.
    const second = await createHook(t, ws);
    expect(second.secret).not.toBe(hook.secret);
  });

  it.each([
    ['omitted → the default', undefined, DEFAULT_EVENTS],
    ['an array of one', ['user.created'], 'user.created'],
    ['an array out of order', ['user.created', 'order.created'], 'order.created,user.created'],
    ['an array with duplicates', ['order.created', 'order.created', 'user.created', 'user.created'], 'order.created,user.created'],
    ['a comma-separated string with spaces', ' order.delivered , order.created', 'order.created,order.delivered'],
    ['a string naming them all with a duplicate', 'foc_request.cancelled,foc_request.fulfilled,foc_request.rejected,foc_request.approved,crate_movement.recorded,leave.rejected,user.updated,user.created,order.cancelled,order.delivered,order.created,leave.approved,user.created', SUPPORTED.join(',')],
    ['a string of one', 'order.delivered', 'order.delivered'],
  ])('events as %s are stored and listed in canonical form', async (_label, events, stored) => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws, events === undefined ? {} : { events });
    expect(hook.events).toBe(stored);
    expect((await hookRow(t, hook.id)).events).toBe(stored);
    expect((await listHooks(t, ws)).map((h) => h.events)).toEqual([stored]);
  });

  it('accepts a 100-character name (the limit)', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws, { name: 'n'.repeat(100) });
    expect(hook.name).toBe('n'.repeat(100));
  });

  it('lists endpoints newest first with exactly the list fields, supported_events, and never a secret', async () => {
    const ws = await createWorkspace(t);
    const first = await createHook(t, ws, { name: 'First' });
    const second = await createHook(t, ws, { name: 'Second', url: OTHER_TARGET, events: ['user.created'] });
    const res = await t.request({ method: 'GET', url: WEBHOOKS, token: ws.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'response_code', 'supported_events']);
    expect(body.response_code).toBe(200);
    expect(body.supported_events).toEqual(SUPPORTED);
    expect(body.data.map((h: ListedHook) => h.id)).toEqual([second.id, first.id]);
    for (const item of body.data) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
    expect(body.data[0]).toEqual({
      id: second.id,
      organization_id: ws.organizationId,
      name: 'Second',
      url: OTHER_TARGET,
      events: 'user.created',
      status: 1,
      last_triggered_at: null,
      failure_count: 0,
      created_at: expect.any(String),
    });
    expect(Date.parse(body.data[0].created_at)).toBeGreaterThanOrEqual(Date.parse(body.data[1].created_at));
    expect(res.body).not.toContain(first.secret);
    expect(res.body).not.toContain(second.secret);
    expect(res.body).not.toContain('whsec_');
  });

  it("lists only the caller's workspace", async () => {
    const a = await createWorkspace(t);
    const b = await createWorkspace(t);
    const hookA = await createHook(t, a);
    expect(await listHooks(t, b)).toEqual([]);
    expect((await listHooks(t, a)).map((h) => h.id)).toEqual([hookA.id]);
  });
});

describe('registration refusals (400, nothing created)', () => {
  const BASE = { name: 'Hook', url: TARGET };

  it.each<[string, Record<string, unknown>, string]>([
    ['name missing', { url: TARGET }, 'name is required'],
    ['name empty', { ...BASE, name: '' }, 'name must not be empty'],
    ['name blank', { ...BASE, name: '    ' }, 'name is required'],
    ['name of 101 characters', { ...BASE, name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
    ['url missing', { name: 'Hook' }, 'url is required'],
    ['url http://', { ...BASE, url: 'http://hooks.example/webhook' }, 'url must use https://'],
    ['url ftp://', { ...BASE, url: 'ftp://hooks.example/webhook' }, 'url must use https://'],
    ['url not a URL', { ...BASE, url: 'not a url' }, 'url must be an absolute https:// URL'],
    ['url with user and password', { ...BASE, url: 'https://u:p@hooks.test/x' }, 'url must not contain a user name or password'],
    ['url with a user name only', { ...BASE, url: 'https://u@hooks.example/x' }, 'url must not contain a user name or password'],
    ['events unknown (array)', { ...BASE, events: ['order.shipped'] }, `events has unknown event "order.shipped"; supported: ${SUPPORTED_TEXT}`],
    ['events unknown among known (string)', { ...BASE, events: 'order.created,bogus' }, `events has unknown event "bogus"; supported: ${SUPPORTED_TEXT}`],
    [
      'events webhook.test',
      { ...BASE, events: 'webhook.test' },
      'events cannot include webhook.test: it is sent by the test endpoint and cannot be subscribed to',
    ],
    [
      'events webhook.test among known (array)',
      { ...BASE, events: ['order.created', 'webhook.test'] },
      'events cannot include webhook.test: it is sent by the test endpoint and cannot be subscribed to',
    ],
    ['events empty array', { ...BASE, events: [] }, `events must name at least one event: ${SUPPORTED_TEXT}`],
    ['events empty string', { ...BASE, events: '' }, `events must name at least one event: ${SUPPORTED_TEXT}`],
    ['events with a non-string item', { ...BASE, events: ['order.created', 7] }, 'events[1] must be a string'],
  ])('%s', async (_label, payload, message) => {
    const ws = await createWorkspace(guard);
    const res = await post(guard, ws.token, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, message));
    expect(await countHooks(guard, ws)).toBe(0);
  });

  /** [class, address as a resolver answers it, the address as the URL parser spells it]. */
  const REFUSED: Array<[string, string, string?]> = [
    ['loopback', '127.0.0.1'],
    ['loopback (all of 127/8)', '127.1.2.3'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12 (first)', '172.16.0.1'],
    ['private 172.16/12 (last)', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local metadata address', '169.254.169.254'],
    ['CGNAT 100.64/10', '100.64.0.1'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 unique-local fc00::/7', 'fc00::1'],
    ['IPv6 unique-local fd00::/8', 'fd12::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1', '::ffff:a00:1'],
    ['IPv6 multicast', 'ff02::1'],
    ['NAT64 of 10.0.0.1', '64:ff9b::a00:1'],
    ['6to4 of 10.0.0.1', '2002:a00:1::'],
  ];
  const literalUrl = (address: string) => (address.includes(':') ? `https://[${address}]/hook` : `https://${address}/hook`);

  it.each(REFUSED)('%s (%s) as an IP literal URL', async (_label, address, shown = address) => {
    const ws = await createWorkspace(guard);
    const before = lookups.length;
    const res = await post(guard, ws.token, { name: 'Hook', url: literalUrl(address) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, `url is refused: ${shown} is not a public address`));
    expect(lookups.length, 'IP literals are not resolved').toBe(before);
    expect(await countHooks(guard, ws)).toBe(0);
  });

  it.each(REFUSED)('%s (%s) behind a host name', async (label, address) => {
    const ws = await createWorkspace(guard);
    const host = `${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.refused.example`;
    resolvesTo(host, address);
    const res = await post(guard, ws.token, { name: 'Hook', url: `https://${host}/hook` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, `url is refused: host ${host} must resolve only to public addresses`));
    expect(lookups).toContain(host);
    expect(await countHooks(guard, ws)).toBe(0);
  });

  it.each([
    ['public then private', ['93.184.216.34', '10.0.0.5']],
    ['public IPv4 and link-local IPv6', ['93.184.216.34', 'fe80::1']],
  ])('a host resolving to %s is refused, without naming the address', async (_label, addresses) => {
    const ws = await createWorkspace(guard);
    resolvesTo('mixed.refused.example', ...addresses);
    const res = await post(guard, ws.token, { name: 'Hook', url: 'https://mixed.refused.example/hook' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe('url is refused: host mixed.refused.example must resolve only to public addresses');
    expect(await countHooks(guard, ws)).toBe(0);
  });

  it('a host that does not resolve (resolver error or no addresses) is refused', async () => {
    const ws = await createWorkspace(guard);
    const unknown = await post(guard, ws.token, { name: 'Hook', url: 'https://nowhere.example/hook' });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json()).toEqual(errorEnvelope(400, 'url is refused: host nowhere.example must resolve only to public addresses'));
    dns.set('empty.example', []);
    const empty = await post(guard, ws.token, { name: 'Hook', url: 'https://empty.example/hook' });
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().message).toBe('url is refused: host empty.example must resolve only to public addresses');
    expect(await countHooks(guard, ws)).toBe(0);
  });

  // 361 characters as sent (within the 2048 limit), 2050 once the URL is normalised (each é is %C3%A9).
  const LONG_ONCE_ENCODED = `https://hooks.example/${'é'.repeat(338)}`;

  it('a url within 2048 characters as sent but longer once normalised → 400 on create, nothing created', async () => {
    const ws = await createWorkspace(guard);
    expect(LONG_ONCE_ENCODED.length).toBeLessThan(2048);
    expect(new URL(LONG_ONCE_ENCODED).toString().length).toBeGreaterThan(2048);
    const res = await post(guard, ws.token, { name: 'Hook', url: LONG_ONCE_ENCODED });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^url must be at most 2048 characters/)));
    expect(await countHooks(guard, ws)).toBe(0);
  });

  it('the same url → 400 on update, the endpoint unchanged', async () => {
    const ws = await createWorkspace(guard);
    const hook = await createHook(guard, ws);
    const before = await hookRow(guard, hook.id);
    const res = await put(guard, ws.token, hook.id, { url: LONG_ONCE_ENCODED });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(/^url must be at most 2048 characters/)));
    expect(await hookRow(guard, hook.id)).toEqual(before);
  });

  it.each([
    ['a public IPv4 literal', 'https://93.184.216.34/x'],
    ['a public IPv6 literal', 'https://[2606:4700::1111]/x'],
    ['a host resolving to public IPv4 and IPv6 addresses', 'https://dual.public.example/x'],
  ])('%s is accepted', async (_label, url) => {
    resolvesTo('dual.public.example', '93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946');
    const ws = await createWorkspace(guard);
    const res = await post(guard, ws.token, { name: 'Hook', url });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.url).toBe(url);
    expect(await countHooks(guard, ws)).toBe(1);
  });

  it('WEBHOOK_ALLOWED_PRIVATE_HOSTS exempts exactly the listed hosts (case-insensitive, IPv6 without brackets)', async () => {
    const ws = await createWorkspace(guard);
    resolvesTo('exempt.hooks.test', '10.0.0.1');
    resolvesTo('sibling.hooks.test', '10.0.0.1');
    const exempt = await post(guard, ws.token, { name: 'Exempt', url: 'https://Exempt.Hooks.Test/hook' });
    expect(exempt.statusCode, exempt.body).toBe(201);
    expect(exempt.json().data.url).toBe('https://exempt.hooks.test/hook');
    const v6 = await post(guard, ws.token, { name: 'Exempt v6', url: 'https://[fd00::7]/hook' });
    expect(v6.statusCode, v6.body).toBe(201);
    // Neither a sibling name on the same private address nor a neighbouring address is exempt.
    const sibling = await post(guard, ws.token, { name: 'Sibling', url: 'https://sibling.hooks.test/hook' });
    expect(sibling.statusCode, sibling.body).toBe(400);
    expect(sibling.json().message).toBe('url is refused: host sibling.hooks.test must resolve only to public addresses');
    const neighbour = await post(guard, ws.token, { name: 'Neighbour', url: 'https://[fd00::8]/hook' });
    expect(neighbour.statusCode, neighbour.body).toBe(400);
    expect(await countHooks(guard, ws)).toBe(2);
  });
});

describe('PUT /developer/webhooks/{id}', () => {
  it.each<[string, Record<string, unknown>, Partial<ListedHook>]>([
    ['name', { name: '  Renamed  ' }, { name: 'Renamed' }],
    ['url', { url: OTHER_TARGET }, { url: OTHER_TARGET }],
    ['events (array)', { events: ['user.created', 'order.created'] }, { events: 'order.created,user.created' }],
    ['events (string)', { events: 'order.delivered' }, { events: 'order.delivered' }],
    ['status 0', { status: 0 }, { status: 0 }],
    ['everything at once', { name: 'All', url: OTHER_TARGET, events: 'user.created', status: 0 }, { name: 'All', url: OTHER_TARGET, events: 'user.created', status: 0 }],
  ])('changes %s alone; omitted fields stay (answer, list and row)', async (_label, payload, changes) => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws, { name: 'Original' });
    const [listedBefore] = await listHooks(t, ws);
    const rowBefore = await hookRow(t, hook.id);
    const res = await put(t, ws.token, hook.id, payload);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'response_code']);
    expect(body).toMatchObject({ response_code: 200, message: 'Webhook updated' });
    expect(Object.keys(body.data).sort()).toEqual(UPDATED_KEYS);
    const expected = { ...listedBefore, ...changes };
    expect(body.data).toEqual({ id: hook.id, name: expected.name, url: expected.url, events: expected.events, status: expected.status });
    const [listedAfter] = await listHooks(t, ws);
    expect(listedAfter).toEqual(expected);
    const rowAfter = await hookRow(t, hook.id);
    expect(rowAfter).toMatchObject({ name: expected.name, url: expected.url, events: expected.events, status: expected.status, deleted_at: null });
    expect(rowAfter.secret_ciphertext, 'the secret is kept').toBe(rowBefore.secret_ciphertext);
  });

  it('status 0 then 1 pauses and resumes', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    expect((await put(t, ws.token, hook.id, { status: 0 })).json().data.status).toBe(0);
    expect((await listHooks(t, ws))[0].status).toBe(0);
    expect((await put(t, ws.token, hook.id, { status: 1 })).json().data.status).toBe(1);
    expect((await listHooks(t, ws))[0].status).toBe(1);
    expect((await hookRow(t, hook.id)).status).toBe(1);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['status 2', { status: 2 }, 'status must be one of: 0, 1'],
    ['an empty body', {}, 'Request body must NOT have fewer than 1 properties'],
    ['an http:// url', { url: 'http://hooks.example/webhook' }, 'url must use https://'],
    ['a private url', { url: 'https://10.0.0.1/hook' }, 'url is refused: 10.0.0.1 is not a public address'],
    ['a url that does not resolve', { url: 'https://nowhere.example/hook' }, 'url is refused: host nowhere.example must resolve only to public addresses'],
    ['unknown events', { events: ['nope'] }, `events has unknown event "nope"; supported: ${SUPPORTED_TEXT}`],
    ['empty events', { events: [] }, `events must name at least one event: ${SUPPORTED_TEXT}`],
    ['webhook.test in events', { events: 'webhook.test' }, 'events cannot include webhook.test: it is sent by the test endpoint and cannot be subscribed to'],
    ['an empty name', { name: '' }, 'name must not be empty'],
    ['a valid name with a bad status', { name: 'Changed', status: 5 }, 'status must be one of: 0, 1'],
  ])('%s → 400 and nothing changes', async (_label, payload, message) => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws, { name: 'Original' });
    const rowBefore = await hookRow(t, hook.id);
    const res = await put(t, ws.token, hook.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, message));
    const rowAfter = await hookRow(t, hook.id);
    expect(rowAfter).toEqual(rowBefore);
  });

  it("another workspace's, an unknown and a deleted endpoint → 404", async () => {
    const a = await createWorkspace(t);
    const b = await createWorkspace(t);
    const hookB = await createHook(t, b, { name: 'B' });
    const foreign = await put(t, a.token, hookB.id, { name: 'Stolen' });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json()).toEqual({ response_code: 404, message: `Webhook ${hookB.id} not found` });
    expect((await hookRow(t, hookB.id)).name).toBe('B');
    const unknown = await put(t, a.token, 999_999, { name: 'x' });
    expect(unknown.json()).toEqual({ response_code: 404, message: 'Webhook 999999 not found' });
    const hookA = await createHook(t, a);
    expect((await remove(t, a.token, hookA.id)).statusCode).toBe(200);
    const deleted = await put(t, a.token, hookA.id, { status: 1 });
    expect(deleted.statusCode, deleted.body).toBe(404);
    expect(deleted.json().message).toBe(`Webhook ${hookA.id} not found`);
    expect(await hookRow(t, hookA.id)).toMatchObject({ status: 0, secret_ciphertext: null });
  });

  it('pausing cancels queued deliveries and their jobs; paused events are not queued; resuming delivers new events only', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const hook = await createHook(t, ws, { name: 'Paused later' });
    const bystander = await createHook(t, ws, { name: 'Stays active', url: OTHER_TARGET });
    await newOrder(ws, catalog);
    const [queued] = await deliveryRows(t, ws, hook.id);
    expect(queued).toMatchObject({ status: 'pending', event_type: 'order.created', attempts: 0 });
    expect(await jobsOf(t, queued.id)).toBe(1);

    const res = await put(t, ws.token, hook.id, { status: 0 });
    expect(res.statusCode, res.body).toBe(200);
    const [cancelled] = await deliveryRows(t, ws, hook.id);
    expect(cancelled).toMatchObject({ id: queued.id, status: 'dead', last_error: PAUSED_REASON, next_attempt_at: null, attempts: 0 });
    expect(await jobsOf(t, queued.id)).toBe(0);
    const [logged] = await listDeliveries(t, ws, `webhook_id=${hook.id}`);
    expect(logged).toMatchObject({ id: queued.id, status: 'dead', last_error: PAUSED_REASON });
    // The other endpoint's delivery of the same event is untouched.
    const [other] = await deliveryRows(t, ws, bystander.id);
    expect(other).toMatchObject({ status: 'pending', event_id: queued.event_id });
    expect(await jobsOf(t, other.id)).toBe(1);

    // While paused: nothing is queued for it.
    await newOrder(ws, catalog);
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
    expect(await deliveryRows(t, ws, bystander.id)).toHaveLength(2);

    // Resumed: the cancelled delivery stays dead, the paused event is not backfilled, a new event is queued once.
    expect((await put(t, ws.token, hook.id, { status: 1 })).statusCode).toBe(200);
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
    await newOrder(ws, catalog);
    const rows = await deliveryRows(t, ws, hook.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ id: queued.id, status: 'dead', last_error: PAUSED_REASON });
    expect(rows[1]).toMatchObject({ status: 'pending', event_type: 'order.created', attempts: 0 });
    expect(await jobsOf(t, rows[1].id)).toBe(1);
  });
});

describe('DELETE /developer/webhooks/{id}', () => {
  it('answers 200, discards the secret, cancels queued deliveries, hides the endpoint and keeps its log', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const hook = await createHook(t, ws, { name: 'Doomed' });
    const keeper = await createHook(t, ws, { name: 'Keeper', url: OTHER_TARGET });
    await newOrder(ws, catalog);
    const [queued] = await deliveryRows(t, ws, hook.id);
    expect(queued.status).toBe('pending');
    expect(await jobsOf(t, queued.id)).toBe(1);

    const res = await remove(t, ws.token, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ response_code: 200, message: 'Webhook deleted' });

    const row = await hookRow(t, hook.id);
    expect(row.secret_ciphertext).toBeNull();
    expect(Date.parse(row.deleted_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(row.status).toBe(0);
    const [cancelled] = await deliveryRows(t, ws, hook.id);
    expect(cancelled).toMatchObject({ id: queued.id, status: 'dead', last_error: DELETED_REASON, next_attempt_at: null });
    expect(await jobsOf(t, queued.id)).toBe(0);
    const [kept] = await deliveryRows(t, ws, keeper.id);
    expect(kept.status).toBe('pending');
    expect(await jobsOf(t, kept.id)).toBe(1);

    expect((await listHooks(t, ws)).map((h) => h.id)).toEqual([keeper.id]);
    const log = await listDeliveries(t, ws, `webhook_id=${hook.id}`);
    expect(log.map((d) => [d.id, d.status, d.last_error])).toEqual([[queued.id, 'dead', DELETED_REASON]]);

    // A later order queues nothing for it.
    await newOrder(ws, catalog);
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
  });

  it.each([
    ['PUT', (ws: Workspace, id: number) => put(t, ws.token, id, { name: 'Back' })],
    ['DELETE', (ws: Workspace, id: number) => remove(t, ws.token, id)],
    ['rotate-secret', (ws: Workspace, id: number) => rotate(t, ws.token, id)],
    ['test', (ws: Workspace, id: number) => sendTest(t, ws.token, id)],
  ])('a deleted endpoint answers 404 to %s', async (_route, call) => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    expect((await remove(t, ws.token, hook.id)).statusCode).toBe(200);
    const res = await call(ws, hook.id);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual({ response_code: 404, message: `Webhook ${hook.id} not found` });
    expect(await hookRow(t, hook.id)).toMatchObject({ secret_ciphertext: null, name: 'Orders feed' });
    expect(await deliveryRows(t, ws, hook.id)).toEqual([]);
  });

  it("another workspace's endpoint → 404 and it stays", async () => {
    const a = await createWorkspace(t);
    const b = await createWorkspace(t);
    const hookB = await createHook(t, b);
    const res = await remove(t, a.token, hookB.id);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toBe(`Webhook ${hookB.id} not found`);
    expect(await hookRow(t, hookB.id)).toMatchObject({ deleted_at: null, status: 1 });
    expect((await listHooks(t, b)).map((h) => h.id)).toEqual([hookB.id]);
  });
});

describe('POST /developer/webhooks/{id}/rotate-secret', () => {
  it('returns a new secret once; the stored ciphertext now opens to it; the list never shows it', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    const before = await hookRow(t, hook.id);
    const res = await rotate(t, ws.token, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'response_code']);
    expect(body.response_code).toBe(200);
    expect(Object.keys(body.data).sort()).toEqual(['id', 'secret']);
    expect(body.data.id).toBe(hook.id);
    expect(body.data.secret).toMatch(SECRET_SHAPE);
    expect(body.data.secret).not.toBe(hook.secret);
    const after = await hookRow(t, hook.id);
    expect(after.secret_ciphertext).not.toBe(before.secret_ciphertext);
    expect(openSecret(t, after.secret_ciphertext!)).toBe(body.data.secret);
    const [{ json }] = await sql<{ json: string }>(t, 'select row_to_json(w)::text as json from webhook_endpoint w where id = ?', [hook.id]);
    expect(json).not.toContain(body.data.secret.slice('whsec_'.length));
    const list = await t.request({ method: 'GET', url: WEBHOOKS, token: ws.token });
    expect(list.body).not.toContain(body.data.secret);
    expect(list.body).not.toContain('whsec_');
    // Each rotation gives yet another secret.
    const again = (await rotate(t, ws.token, hook.id)).json().data.secret;
    expect(new Set([hook.secret, body.data.secret, again]).size).toBe(3);
  });

  it("another workspace's or an unknown endpoint → 404, its secret unchanged", async () => {
    const a = await createWorkspace(t);
    const b = await createWorkspace(t);
    const hookB = await createHook(t, b);
    const before = await hookRow(t, hookB.id);
    const res = await rotate(t, a.token, hookB.id);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual({ response_code: 404, message: `Webhook ${hookB.id} not found` });
    expect((await hookRow(t, hookB.id)).secret_ciphertext).toBe(before.secret_ciphertext);
    expect((await rotate(t, a.token, 999_999)).statusCode).toBe(404);
  });
});

describe('POST /developer/webhooks/{id}/test (real HTTPS receiver, a worker running)', () => {
  let receiver: HttpsReceiver;
  beforeAll(async () => {
    resolvesTo('receiver.hooks.test', '127.0.0.1');
    await guard.startWorker();
  });
  beforeEach(async () => {
    receiver = await startHttpsReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  const target = () => receiver.url('/hook', 'receiver.hooks.test');

  it('delivers webhook.test once, signed, with the documented headers and envelope, and logs it as sent', async () => {
    const ws = await createWorkspace(guard);
    const hook = await createHook(guard, ws, { url: target() });
    const started = Date.now();
    const res = await sendTest(guard, ws.token, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'response_code']);
    expect(Object.keys(body.data).sort()).toEqual(TEST_RESULT_KEYS);
    expect(body.data).toEqual({ delivered: true, event_id: expect.stringMatching(EVENT_ID_SHAPE), response_status: 200, duration_ms: expect.any(Number), error: null });
    expect(Number.isInteger(body.data.duration_ms)).toBe(true);
    expect(body.data.duration_ms).toBeGreaterThanOrEqual(0);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hook');
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-webhook-event': 'webhook.test',
      'x-webhook-id': body.data.event_id,
      'x-webhook-attempt': '1',
      'x-webhook-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
    });
    const timestamp = Number(request.headers['x-webhook-timestamp']);
    expect(Number.isInteger(timestamp)).toBe(true);
    expect(Math.abs(timestamp - Math.floor(started / 1000))).toBeLessThanOrEqual(5);
    expect(signatureValid(hook.secret, request)).toBe(true);
    expect(signatureValid(`whsec_${'0'.repeat(64)}`, request), 'the check is able to fail').toBe(false);

    const envelope = JSON.parse(request.body);
    expect(Object.keys(envelope)).toEqual(['id', 'event', 'timestamp', 'organization_id', 'data']);
    expect(envelope).toMatchObject({ id: body.data.event_id, event: 'webhook.test', organization_id: ws.organizationId });
    expect(new Date(envelope.timestamp).toISOString()).toBe(envelope.timestamp);
    expect(Math.abs(Date.parse(envelope.timestamp) - started)).toBeLessThan(10_000);
    expect(envelope.data).toEqual({ webhook_id: hook.id, message: expect.any(String) });

    const log = await listDeliveries(guard, ws, `webhook_id=${hook.id}`);
    expect(log).toHaveLength(1);
    expect(Object.keys(log[0]).sort()).toEqual(DELIVERY_KEYS);
    expect(log[0]).toMatchObject({
      webhook_id: hook.id,
      event_id: body.data.event_id,
      event_type: 'webhook.test',
      status: 'sent',
      attempts: 1,
      max_attempts: 1,
      next_attempt_at: null,
      response_status: 200,
      response_body: 'ok',
      duration_ms: body.data.duration_ms,
      last_error: null,
    });
    expect(log[0].sent_at).not.toBeNull();
    expect(log[0].last_attempt_at).not.toBeNull();
    expect(await jobsOf(guard, log[0].id)).toBe(0);
  });

  it('a 500 answer → 200 with delivered false, logged dead, never retried', async () => {
    const ws = await createWorkspace(guard);
    const hook = await createHook(guard, ws, { url: target() });
    receiver.script({ status: 500, body: 'boom' });
    const res = await sendTest(guard, ws.token, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ delivered: false, event_id: expect.stringMatching(EVENT_ID_SHAPE), response_status: 500, duration_ms: expect.any(Number), error: 'HTTP 500' });
    const [delivery] = await listDeliveries(guard, ws, `webhook_id=${hook.id}`);
    expect(delivery).toMatchObject({
      event_type: 'webhook.test',
      status: 'dead',
      attempts: 1,
      max_attempts: 1,
      response_status: 500,
      response_body: 'boom',
      last_error: 'HTTP 500',
      sent_at: null,
      next_attempt_at: null,
    });
    expect(await jobsOf(guard, delivery.id)).toBe(0);
    // A worker runs with a 100 ms retry base: a retry, if any were queued, would arrive now.
    await sleep(1_000);
    expect(receiver.received).toHaveLength(1);
    expect((await listDeliveries(guard, ws, `webhook_id=${hook.id}`)).map((d) => [d.status, d.attempts])).toEqual([['dead', 1]]);
  });

  it('an unreachable target → 200 with delivered false, no status, the connection error', async () => {
    const ws = await createWorkspace(guard);
    const port = await closedPort();
    const hook = await createHook(guard, ws, { url: `https://receiver.hooks.test:${port}/hook` });
    const res = await sendTest(guard, ws.token, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ delivered: false, response_status: null });
    expect(data.error).toMatch(/ECONNREFUSED/);
    const [delivery] = await listDeliveries(guard, ws, `webhook_id=${hook.id}`);
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'dead', attempts: 1, max_attempts: 1, response_status: null, last_error: data.error });
    expect(await jobsOf(guard, delivery.id)).toBe(0);
  });

  it('works on a paused endpoint subscribed to other events only', async () => {
    const ws = await createWorkspace(guard);
    const hook = await createHook(guard, ws, { url: target(), events: ['user.created'] });
    expect((await put(guard, ws.token, hook.id, { status: 0 })).statusCode).toBe(200);
    const res = await sendTest(guard, ws.token, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ delivered: true, response_status: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].headers['x-webhook-event']).toBe('webhook.test');
    expect(signatureValid(hook.secret, receiver.received[0])).toBe(true);
    expect((await hookRow(guard, hook.id)).status).toBe(0);
  });

  it('after rotation the next attempt is signed with the new secret only', async () => {
    const ws = await createWorkspace(guard);
    const hook = await createHook(guard, ws, { url: target() });
    const rotated = (await rotate(guard, ws.token, hook.id)).json().data.secret as string;
    expect((await sendTest(guard, ws.token, hook.id)).json().data.delivered).toBe(true);
    const [request] = await receiver.waitFor(1, 5_000);
    expect(signatureValid(rotated, request)).toBe(true);
    expect(signatureValid(hook.secret, request)).toBe(false);
  });

  it('a target that has turned private since registration is refused at test time, nothing sent', async () => {
    const ws = await createWorkspace(guard);
    resolvesTo('flip.example', '93.184.216.34');
    const hook = await createHook(guard, ws, { url: `https://flip.example:${receiver.port}/hook` });
    resolvesTo('flip.example', '127.0.0.1');
    const res = await sendTest(guard, ws.token, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      delivered: false,
      response_status: null,
      error: 'target refused: host flip.example must resolve only to public addresses',
    });
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await listDeliveries(guard, ws, `webhook_id=${hook.id}`);
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'dead', attempts: 1, response_status: null });
  });

  it("another workspace's endpoint → 404 and nothing is sent", async () => {
    const a = await createWorkspace(guard);
    const b = await createWorkspace(guard);
    const hookB = await createHook(guard, b, { url: target() });
    const res = await sendTest(guard, a.token, hookB.id);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toBe(`Webhook ${hookB.id} not found`);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRows(guard, b)).toEqual([]);
  });
});

describe('GET /developer/webhook-deliveries', () => {
  /** Adds `count` deliveries of the endpoint in SQL (a second apart, the last the newest), all `status`. */
  async function insertDeliveries(ws: Workspace, webhookId: number, count: number, status = 'pending'): Promise<number[]> {
    const rows = await sql<{ id: number }>(
      t,
      `insert into webhook_delivery (organization_id, webhook_id, event_id, event_type, event_data, event_at, status, attempts, max_attempts, created_at)
       select ?, ?, 'evt_' || lpad(to_hex(g), 24, '0'), 'order.created', '{}'::json, now(), ?, 0, 12, now() - make_interval(secs => ? - g)
         from generate_series(1, ?) g
       returning id`,
      [ws.organizationId, webhookId, status, count, count],
    );
    return rows.map((r) => r.id);
  }

  it('lists newest first with exactly the record fields; limit defaults to 50; 1 and 200 are accepted', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    const ids = await insertDeliveries(ws, hook.id, 55);
    const newestFirst = [...ids].reverse();
    const page = await listDeliveries(t, ws);
    expect(page).toHaveLength(50);
    expect(page.map((d) => d.id)).toEqual(newestFirst.slice(0, 50));
    for (const item of page) expect(Object.keys(item).sort()).toEqual(DELIVERY_KEYS);
    expect((await listDeliveries(t, ws, 'limit=1')).map((d) => d.id)).toEqual([newestFirst[0]]);
    expect((await listDeliveries(t, ws, 'limit=200')).map((d) => d.id)).toEqual(newestFirst);
    expect(await listDeliveries(t, ws, 'limit=55')).toHaveLength(55);
  });

  it('orders by creation time, not by id', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    const [older, newer] = await insertDeliveries(ws, hook.id, 2);
    // A row inserted last but created earlier than both.
    const [backdated] = await sql<{ id: number }>(
      t,
      `insert into webhook_delivery (organization_id, webhook_id, event_id, event_type, event_data, event_at, status, attempts, max_attempts, created_at)
       values (?, ?, 'evt_backdated00000000000000', 'order.created', '{}'::json, now(), 'pending', 0, 12, now() - interval '1 hour') returning id`,
      [ws.organizationId, hook.id],
    );
    expect((await listDeliveries(t, ws)).map((d) => d.id)).toEqual([newer, older, backdated.id]);
  });

  it('filters by webhook_id, by status, and by both', async () => {
    const ws = await createWorkspace(t);
    const first = await createHook(t, ws, { name: 'First' });
    const second = await createHook(t, ws, { name: 'Second', url: OTHER_TARGET });
    const pending = await insertDeliveries(ws, first.id, 3, 'pending');
    const sent = await insertDeliveries(ws, first.id, 2, 'sent');
    const dead = await insertDeliveries(ws, second.id, 2, 'dead');
    const sending = await insertDeliveries(ws, second.id, 1, 'sending');
    const sentOfSecond = await insertDeliveries(ws, second.id, 1, 'sent');
    const ids = async (query: string) => (await listDeliveries(t, ws, query)).map((d) => d.id).sort((x, y) => x - y);
    const sorted = (...lists: number[][]) => lists.flat().sort((x, y) => x - y);
    expect(await ids(`webhook_id=${first.id}`)).toEqual(sorted(pending, sent));
    expect(await ids(`webhook_id=${second.id}`)).toEqual(sorted(dead, sending, sentOfSecond));
    expect(await ids('status=pending')).toEqual(sorted(pending));
    expect(await ids('status=sent')).toEqual(sorted(sent, sentOfSecond));
    expect(await ids('status=dead')).toEqual(sorted(dead));
    expect(await ids('status=sending')).toEqual(sorted(sending));
    expect(await ids(`webhook_id=${second.id}&status=sent`)).toEqual(sorted(sentOfSecond));
    expect(await ids(`webhook_id=${first.id}&status=dead`)).toEqual([]);
    expect(await ids('webhook_id=999999')).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit must be >= 1'],
    ['limit=201', 'limit must be <= 200'],
    ['limit=x', 'limit must be an integer'],
    ['status=bogus', 'status must be one of: pending, sending, sent, dead'],
  ])('%s → 400', async (query, message) => {
    const ws = await createWorkspace(t);
    const res = await getDeliveries(t, ws.token, query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, message));
  });

  it("another workspace sees none of the deliveries, even naming the endpoint", async () => {
    const a = await createWorkspace(t);
    const b = await createWorkspace(t);
    const hookA = await createHook(t, a);
    await insertDeliveries(a, hookA.id, 3);
    expect(await listDeliveries(t, a)).toHaveLength(3);
    expect(await listDeliveries(t, b)).toEqual([]);
    expect(await listDeliveries(t, b, `webhook_id=${hookA.id}`)).toEqual([]);
    expect(await listDeliveries(t, b, 'status=pending&limit=200')).toEqual([]);
  });
});

describe('POST /developer/webhook-deliveries/{id}/redeliver', () => {
  /** A workspace with an endpoint and one real queued order.created delivery of it. */
  async function queuedDelivery() {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const hook = await createHook(t, ws);
    await newOrder(ws, catalog);
    const [delivery] = await deliveryRows(t, ws, hook.id);
    expect(delivery.status).toBe('pending');
    return { ws, catalog, hook, delivery };
  }
  const setStatus = (id: number, status: string) => sql(t, 'update webhook_delivery set status = ? where id = ?', [status, id]);

  it('queues a new pending delivery of a dead one: same event, attempts 0, its own job', async () => {
    const { ws, hook, delivery } = await queuedDelivery();
    await setStatus(delivery.id, 'dead');
    const res = await redeliver(t, ws.token, delivery.id);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'response_code']);
    expect(body).toMatchObject({ response_code: 201, message: 'Redelivery queued' });
    expect(Object.keys(body.data).sort()).toEqual(DELIVERY_KEYS);
    expect(body.data).toMatchObject({
      webhook_id: hook.id,
      event_id: delivery.event_id,
      event_type: 'order.created',
      status: 'pending',
      attempts: 0,
      max_attempts: 12,
      sent_at: null,
      response_status: null,
      last_error: null,
    });
    expect(body.data.id).not.toBe(delivery.id);
    expect(await jobsOf(t, body.data.id)).toBe(1);
    const rows = await deliveryRows(t, ws, hook.id);
    expect(rows.map((r) => [r.id, r.status, r.event_id])).toEqual([
      [delivery.id, 'dead', delivery.event_id],
      [body.data.id, 'pending', delivery.event_id],
    ]);
    expect(rows[1].event_data).toEqual(rows[0].event_data);
    expect((await listDeliveries(t, ws)).map((d) => d.id)).toEqual([body.data.id, delivery.id]);
  });

  it.each(['sent', 'pending', 'sending'])('a %s delivery → 409 and nothing is queued', async (status) => {
    const { ws, hook, delivery } = await queuedDelivery();
    await setStatus(delivery.id, status);
    const res = await redeliver(t, ws.token, delivery.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ response_code: 409, message: `Only dead deliveries can be redelivered; this one is ${status}` });
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
  });

  it('a test event → 409', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws, { url: `https://127.0.0.1:${await closedPort()}/hook` });
    const test = await sendTest(t, ws.token, hook.id);
    expect(test.json().data.delivered).toBe(false);
    const [delivery] = await deliveryRows(t, ws, hook.id);
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'dead' });
    const res = await redeliver(t, ws.token, delivery.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ response_code: 409, message: 'Test events are never redelivered; send a new test' });
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
  });

  it('a paused endpoint → 409; after resuming → 201', async () => {
    const { ws, hook, delivery } = await queuedDelivery();
    expect((await put(t, ws.token, hook.id, { status: 0 })).statusCode).toBe(200);
    expect((await deliveryRows(t, ws, hook.id))[0].status).toBe('dead');
    const res = await redeliver(t, ws.token, delivery.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ response_code: 409, message: 'The endpoint is paused; resume it first' });
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
    expect((await put(t, ws.token, hook.id, { status: 1 })).statusCode).toBe(200);
    expect((await redeliver(t, ws.token, delivery.id)).statusCode).toBe(201);
  });

  it('a deleted endpoint → 409', async () => {
    const { ws, hook, delivery } = await queuedDelivery();
    expect((await remove(t, ws.token, hook.id)).statusCode).toBe(200);
    const res = await redeliver(t, ws.token, delivery.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ response_code: 409, message: 'The endpoint of this delivery was deleted' });
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
  });

  it("an unknown or another workspace's delivery → 404", async () => {
    const { ws, hook, delivery } = await queuedDelivery();
    await setStatus(delivery.id, 'dead');
    const other = await createWorkspace(t);
    const foreign = await redeliver(t, other.token, delivery.id);
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json()).toEqual({ response_code: 404, message: `Webhook delivery ${delivery.id} not found` });
    const unknown = await redeliver(t, ws.token, 999_999);
    expect(unknown.json()).toEqual({ response_code: 404, message: 'Webhook delivery 999999 not found' });
    expect(await deliveryRows(t, ws, hook.id)).toHaveLength(1);
    expect(await deliveryRows(t, other)).toEqual([]);
  });
});

describe('access: administrators with a session only', () => {
  let ws: Workspace;
  let hook: CreatedHook;
  let deliveryId: number;
  let employeeToken: string;
  let apiKey: string;

  beforeAll(async () => {
    ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
    apiKey = (await createApiKey(t, ws, { scopes: '*' })).key;
    hook = await createHook(t, ws);
    await newOrder(ws, catalog);
    [{ id: deliveryId }] = await deliveryRows(t, ws, hook.id);
    await sql(t, "update webhook_delivery set status = 'dead' where id = ?", [deliveryId]);
  });

  const ROUTES: Array<[string, () => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown> }]> = [
    ['GET /developer/webhooks', () => ({ method: 'GET', url: WEBHOOKS })],
    ['POST /developer/webhooks', () => ({ method: 'POST', url: WEBHOOKS, payload: { name: 'Intruder', url: TARGET } })],
    ['PUT /developer/webhooks/{id}', () => ({ method: 'PUT', url: `${WEBHOOKS}/${hook.id}`, payload: { name: 'Intruder', status: 0 } })],
    ['DELETE /developer/webhooks/{id}', () => ({ method: 'DELETE', url: `${WEBHOOKS}/${hook.id}` })],
    ['POST /developer/webhooks/{id}/rotate-secret', () => ({ method: 'POST', url: `${WEBHOOKS}/${hook.id}/rotate-secret` })],
    ['POST /developer/webhooks/{id}/test', () => ({ method: 'POST', url: `${WEBHOOKS}/${hook.id}/test` })],
    ['GET /developer/webhook-deliveries', () => ({ method: 'GET', url: `${DELIVERIES}?webhook_id=${hook.id}` })],
    ['POST /developer/webhook-deliveries/{id}/redeliver', () => ({ method: 'POST', url: `${DELIVERIES}/${deliveryId}/redeliver` })],
  ];

  /** The endpoint row and the workspace's endpoints and deliveries, to show a refused call changed nothing. */
  const snapshot = async () => ({ row: await hookRow(t, hook.id), hooks: await countHooks(t, ws), deliveries: await deliveryRows(t, ws) });

  const CALLERS: Array<[string, () => { token?: string; apiKey?: string }, number, string]> = [
    ['an employee session', () => ({ token: employeeToken }), 403, ADMINS_ONLY],
    ["an API key with scope '*'", () => ({ apiKey }), 403, NO_KEYS_HERE],
    ['no credential', () => ({}), 401, NO_CREDENTIAL],
  ];

  describe.each(CALLERS)('%s', (_caller, credential, status, message) => {
    it.each(ROUTES)(`%s → ${status}, nothing changes`, async (_route, route) => {
      const before = await snapshot();
      const res = await t.request({ ...route(), ...credential() });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual(errorEnvelope(status, message));
      expect(await snapshot()).toEqual(before);
    });
  });

  it('the admin session reaches every route (control)', async () => {
    expect((await t.request({ method: 'GET', url: WEBHOOKS, token: ws.token })).statusCode).toBe(200);
    expect((await getDeliveries(t, ws.token, `webhook_id=${hook.id}`)).statusCode).toBe(200);
  });
});

describe('events are queued in the transaction of the change', () => {
  it('order.created: one pending delivery with its job and exactly the documented data', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const hook = await createHook(t, ws);
    const order = await newOrder(ws, catalog);
    const rows = await deliveryRows(t, ws, hook.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_type: 'order.created', status: 'pending', attempts: 0, max_attempts: 12, event_id: expect.stringMatching(EVENT_ID_SHAPE) });
    expect(Object.keys(rows[0].event_data)).toEqual(ORDER_CREATED_KEYS);
    expect(rows[0].event_data).toMatchObject({ id: order.id, order_status: 1, user_id: catalog.distributorId });
    expect(await jobsOf(t, rows[0].id)).toBe(1);
  });

  it('an order refused with 400 queues nothing', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const hook = await createHook(t, ws);
    const jobsBefore = await allDeliveryJobs(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/orders',
      token: ws.token,
      payload: { user_id: ws.adminId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 1 }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(await deliveryRows(t, ws, hook.id)).toEqual([]);
    expect(await allDeliveryJobs(t)).toBe(jobsBefore);
  });

  it('an outbox emit in a transaction that rolls back leaves no delivery and no job', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    const jobsBefore = await allDeliveryJobs(t);
    let seenInside = -1;
    await expect(
      t.orm.em.fork().transactional(async (tx) => {
        await new WebhookEventQueue(12).emit(tx, ws.organizationId, 'order.created', { id: 1 });
        const [row] = await tx.execute<{ n: number }[]>('select count(*)::int as n from webhook_delivery where webhook_id = ?', [hook.id]);
        seenInside = row.n;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(seenInside, 'the emit wrote inside the transaction').toBe(1);
    expect(await deliveryRows(t, ws, hook.id)).toEqual([]);
    expect(await allDeliveryJobs(t)).toBe(jobsBefore);
  });

  it('the same emit committed leaves one delivery per subscribed endpoint, each with its job', async () => {
    const ws = await createWorkspace(t);
    const hook = await createHook(t, ws);
    const jobsBefore = await allDeliveryJobs(t);
    await t.orm.em.fork().transactional(async (tx) => {
      await new WebhookEventQueue(12).emit(tx, ws.organizationId, 'order.created', { id: 1 });
    });
    const rows = await deliveryRows(t, ws, hook.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_type: 'order.created', status: 'pending', event_data: { id: 1 } });
    expect(await jobsOf(t, rows[0].id)).toBe(1);
    expect(await allDeliveryJobs(t)).toBe(jobsBefore + 1);
  });

  it('order.delivered is queued only when the status becomes 4', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const hook = await createHook(t, ws, { events: ['order.delivered'] });
    const order = await newOrder(ws, catalog);
    expect(await deliveryRows(t, ws, hook.id), 'order.created is not subscribed').toEqual([]);
    for (const status of [2, 3]) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${order.id}/status`, token: ws.token, payload: { order_status: status } });
      expect(res.statusCode, res.body).toBe(200);
      expect(await deliveryRows(t, ws, hook.id)).toEqual([]);
    }
    const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${order.id}/status`, token: ws.token, payload: { order_status: 4 } });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await deliveryRows(t, ws, hook.id);
    expect(rows.map((r) => r.event_type)).toEqual(['order.delivered']);
    expect(Object.keys(rows[0].event_data)).toEqual([...ORDER_CREATED_KEYS, 'delivered_at']);
    expect(rows[0].event_data).toMatchObject({ id: order.id, order_status: 4, delivered_at: expect.any(String) });
    expect(await jobsOf(t, rows[0].id)).toBe(1);
  });

  it('user.created on POST /users; subscriptions are respected', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const users = await createHook(t, ws, { name: 'Users', events: ['user.created'] });
    const orders = await createHook(t, ws, { name: 'Orders', url: OTHER_TARGET, events: 'order.created' });
    await newOrder(ws, catalog);
    expect(await deliveryRows(t, ws, users.id), 'no order event for a user.created endpoint').toEqual([]);
    expect((await deliveryRows(t, ws, orders.id)).map((r) => r.event_type)).toEqual(['order.created']);

    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const rows = await deliveryRows(t, ws, users.id);
    expect(rows.map((r) => r.event_type)).toEqual(['user.created']);
    expect(Object.keys(rows[0].event_data)).toEqual(USER_CREATED_KEYS);
    expect(rows[0].event_data).toMatchObject({ id: employee.id, user_type: UserType.EMPLOYEE, role_id: ws.roles.Employee });
    expect(JSON.stringify(rows[0].event_data)).not.toMatch(/password/i);
    expect(await jobsOf(t, rows[0].id)).toBe(1);
    expect(await deliveryRows(t, ws, orders.id), 'no user event for an order.created endpoint').toHaveLength(1);
  });

  it('two subscribed endpoints get one delivery each of the same event; another workspace gets none', async () => {
    const ws = await createWorkspace(t);
    const other = await createWorkspace(t);
    const otherHook = await createHook(t, other);
    const catalog = await seedCatalog(t, ws);
    const first = await createHook(t, ws, { name: 'First' });
    const second = await createHook(t, ws, { name: 'Second', url: OTHER_TARGET });
    await newOrder(ws, catalog);
    const rows = await deliveryRows(t, ws);
    expect(rows.map((r) => r.webhook_id).sort()).toEqual([first.id, second.id].sort());
    expect(rows[0].event_id).toBe(rows[1].event_id);
    expect(rows[0].id).not.toBe(rows[1].id);
    for (const row of rows) expect(await jobsOf(t, row.id)).toBe(1);
    expect(await deliveryRows(t, other, otherHook.id)).toEqual([]);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id organizationId name url events status failureCount lastTriggeredAt createdAt';
  const DELIVERY_FIELDS = 'id webhookId eventId eventType status attempts maxAttempts responseStatus lastError';
  const OPS = {
    webhooks: `{ webhooks { ${FIELDS} } }`,
    create: `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${FIELDS} } } }`,
    update: `mutation($id: Int!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { id name url events status } }`,
    remove: 'mutation($id: Int!) { deleteWebhook(id: $id) }',
    rotate: 'mutation($id: Int!) { rotateWebhookSecret(id: $id) { secret webhook { id } } }',
    test: 'mutation($id: Int!) { testWebhook(id: $id) { delivered eventId responseStatus durationMs error } }',
    deliveries: `query($webhookId: Int, $status: String, $limit: Int) { webhookDeliveries(webhookId: $webhookId, status: $status, limit: $limit) { ${DELIVERY_FIELDS} } }`,
    redeliver: `mutation($id: Int!) { redeliverWebhookDelivery(id: $id) { ${DELIVERY_FIELDS} } }`,
  };

  let receiver: HttpsReceiver;
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('creates, lists, updates, rotates, tests and deletes an endpoint', async () => {
    const ws = await createWorkspace(t);
    const created = expectGraphqlData(
      await t.graphql(OPS.create, { input: { name: 'GraphQL hook', url: receiver.url(), events: ['user.created', 'order.created'] } }, ws.token),
    ).createWebhook;
    expect(created.secret).toMatch(SECRET_SHAPE);
    expect(created.webhook).toEqual({
      id: expect.any(Number),
      organizationId: ws.organizationId,
      name: 'GraphQL hook',
      url: receiver.url(),
      events: 'order.created,user.created',
      status: 1,
      failureCount: 0,
      lastTriggeredAt: null,
      createdAt: expect.any(String),
    });
    const id = created.webhook.id as number;
    expect(openSecret(t, (await hookRow(t, id)).secret_ciphertext!)).toBe(created.secret);
    const defaulted = expectGraphqlData(await t.graphql(OPS.create, { input: { name: 'Defaults', url: TARGET } }, ws.token)).createWebhook;
    expect(defaulted.webhook.events).toBe(DEFAULT_EVENTS);

    const listed = expectGraphqlData(await t.graphql(OPS.webhooks, {}, ws.token)).webhooks;
    expect(listed.map((w: { id: number }) => w.id)).toEqual([defaulted.webhook.id, id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');

    const updated = expectGraphqlData(await t.graphql(OPS.update, { id, input: { name: 'Renamed', status: 0 } }, ws.token)).updateWebhook;
    expect(updated).toEqual({ id, name: 'Renamed', url: receiver.url(), events: 'order.created,user.created', status: 0 });
    expect(await hookRow(t, id)).toMatchObject({ name: 'Renamed', status: 0, events: 'order.created,user.created' });

    const rotated = expectGraphqlData(await t.graphql(OPS.rotate, { id }, ws.token)).rotateWebhookSecret;
    expect(rotated.webhook.id).toBe(id);
    expect(rotated.secret).toMatch(SECRET_SHAPE);
    expect(rotated.secret).not.toBe(created.secret);

    const tested = expectGraphqlData(await t.graphql(OPS.test, { id }, ws.token)).testWebhook;
    expect(tested).toEqual({ delivered: true, eventId: expect.stringMatching(EVENT_ID_SHAPE), responseStatus: 200, durationMs: expect.any(Number), error: null });
    const [request] = await receiver.waitFor(1, 5_000);
    expect(request.headers['x-webhook-id']).toBe(tested.eventId);
    expect(signatureValid(rotated.secret, request)).toBe(true);

    const log = expectGraphqlData(await t.graphql(OPS.deliveries, { webhookId: id, status: 'sent', limit: 10 }, ws.token)).webhookDeliveries;
    expect(log).toEqual([
      { id: expect.any(Number), webhookId: id, eventId: tested.eventId, eventType: 'webhook.test', status: 'sent', attempts: 1, maxAttempts: 1, responseStatus: 200, lastError: null },
    ]);
    expect(expectGraphqlData(await t.graphql(OPS.deliveries, { webhookId: id, status: 'dead' }, ws.token)).webhookDeliveries).toEqual([]);

    expect(expectGraphqlData(await t.graphql(OPS.remove, { id }, ws.token)).deleteWebhook).toBe(true);
    expect(expectGraphqlData(await t.graphql(OPS.webhooks, {}, ws.token)).webhooks.map((w: { id: number }) => w.id)).toEqual([defaulted.webhook.id]);
    expect(await hookRow(t, id)).toMatchObject({ secret_ciphertext: null, deleted_at: expect.any(String) });
    expectGraphqlError(await t.graphql(OPS.remove, { id }, ws.token), 'NOT_FOUND', `Webhook ${id} not found`);
  });

  it('redelivers a dead delivery', async () => {
    const ws = await createWorkspace(t);
    const catalog = await seedCatalog(t, ws);
    const hook = await createHook(t, ws);
    await newOrder(ws, catalog);
    const [delivery] = await deliveryRows(t, ws, hook.id);
    await sql(t, "update webhook_delivery set status = 'dead' where id = ?", [delivery.id]);
    const again = expectGraphqlData(await t.graphql(OPS.redeliver, { id: delivery.id }, ws.token)).redeliverWebhookDelivery;
    expect(again).toEqual({
      id: expect.any(Number),
      webhookId: hook.id,
      eventId: delivery.event_id,
      eventType: 'order.created',
      status: 'pending',
      attempts: 0,
      maxAttempts: 12,
      responseStatus: null,
      lastError: null,
    });
    expect(again.id).not.toBe(delivery.id);
    expect(await jobsOf(t, again.id)).toBe(1);
    expectGraphqlError(await t.graphql(OPS.redeliver, { id: again.id }, ws.token), 'CONFLICT', 'Only dead deliveries can be redelivered; this one is pending');
  });

  it('an unknown event → BAD_USER_INPUT and nothing is created', async () => {
    const ws = await createWorkspace(t);
    const res = await t.graphql(OPS.create, { input: { name: 'Bad', url: TARGET, events: ['order.shipped'] } }, ws.token);
    expectGraphqlError(res, 'BAD_USER_INPUT', `events has unknown event "order.shipped"; supported: ${SUPPORTED_TEXT}`);
    expect(await countHooks(t, ws)).toBe(0);
  });

  describe('an employee is refused every operation (FORBIDDEN)', () => {
    let ws: Workspace;
    let employeeToken: string;
    let hookId: number;
    beforeAll(async () => {
      ws = await createWorkspace(t);
      employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
      hookId = (await createHook(t, ws)).id;
    });

    it.each<[string, string, () => Record<string, unknown>]>([
      ['webhooks', OPS.webhooks, () => ({})],
      ['createWebhook', OPS.create, () => ({ input: { name: 'Intruder', url: TARGET } })],
      ['updateWebhook', OPS.update, () => ({ id: hookId, input: { name: 'Intruder' } })],
      ['deleteWebhook', OPS.remove, () => ({ id: hookId })],
      ['rotateWebhookSecret', OPS.rotate, () => ({ id: hookId })],
      ['testWebhook', OPS.test, () => ({ id: hookId })],
      ['webhookDeliveries', OPS.deliveries, () => ({})],
      ['redeliverWebhookDelivery', OPS.redeliver, () => ({ id: 1 })],
    ])('%s', async (_op, query, variables) => {
      const before = await hookRow(t, hookId);
      expectGraphqlError(await t.graphql(query, variables(), employeeToken), 'FORBIDDEN', ADMINS_ONLY);
      expect(await hookRow(t, hookId)).toEqual(before);
      expect(await countHooks(t, ws)).toBe(1);
      expect(await deliveryRows(t, ws)).toEqual([]);
    });
  });
});

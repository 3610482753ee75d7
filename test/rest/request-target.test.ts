import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createWorkspace, type IssuedKey } from '../helpers/fixtures';
import { BROWSER_AGENT, buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one request exactly as written (request line included) over a real socket: app.inject
 * normalizes what these tests are about.
 */
async function raw(port: number, requestLine: string, headers: Record<string, string>, body = ''): Promise<RawAnswer> {
  const head = [requestLine, 'Host: api.test', 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`]
    .concat(Object.entries(headers).map(([k, v]) => `${k}: ${v}`))
    .join('\r\n');
  const text = await new Promise<string>((resolve, reject) => {
    // Written, not ended: the server closes the connection after its answer (Connection: close).
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n${body}`));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  const [headerBlock, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = headerBlock.split('\r\n');
  return {
    status: Number(statusLine.split(' ')[1]),
    headers: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()])),
    body: rest.join('\r\n\r\n'),
  };
}

/** Whatever form the request line takes, the scope rules, budgets and envelope hold. */
describe('request-target forms', () => {
  let t: TestApp;
  let port: number;
  let readOrders: IssuedKey;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '120' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    readOrders = await createApiKey(t, await createWorkspace(t), { scopes: 'read,orders' });
  });
  afterAll(() => t.close());

  const json = { 'Content-Type': 'application/json' };

  it('applies key scopes to absolute-form request lines (GET http://host/api/v1/...)', async () => {
    const write = await raw(port, 'POST http://evil.test/api/v1/masters/towns HTTP/1.1', { 'X-API-Key': readOrders.key, ...json }, '{"town_name":"Nope"}');
    expect(write.status, write.body).toBe(403);
    expect(JSON.parse(write.body)).toEqual({ response_code: 403, message: 'This API key is read-only: the write scope is required' });
    const read = await raw(port, 'GET http://evil.test/api/v1/users HTTP/1.1', { 'X-API-Key': readOrders.key });
    expect(JSON.parse(read.body)).toEqual({ response_code: 403, message: 'This API key is not scoped for users: its scopes allow orders' });
    const allowed = await raw(port, 'GET http://evil.test/api/v1/orders?limit=1 HTTP/1.1', { 'X-API-Key': readOrders.key });
    expect(allowed.status, allowed.body).toBe(200);
    const towns = await t.orm.em.fork().getConnection().execute<{ n: string }[]>("select count(*) as n from town where name = 'Nope'");
    expect(Number(towns[0].n)).toBe(0);
  });

  it('charges absolute-form export requests to the exports budget', async () => {
    const res = await raw(port, 'GET http://evil.test/api/v1/exports/orders HTTP/1.1', { 'X-API-Key': readOrders.key });
    expect(res.status).toBe(403); // a key confined to orders may not export
    expect(res.headers['x-ratelimit-limit']).toBe('5');
  });

  it('answers a URL that cannot be decoded with 400 in the envelope', async () => {
    const res = await raw(port, 'GET /api/v1/orders/%E0%A4%A HTTP/1.1', { 'User-Agent': BROWSER_AGENT });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(errorEnvelope(400, 'Malformed request URL'));
  });

  it('answers unknown methods and paths next to /graphql with 404 in the envelope, with rate-limit headers', async () => {
    for (const line of ['PUT /graphql HTTP/1.1', 'GET /graphql/x HTTP/1.1', 'GET /api/v2/orders HTTP/1.1']) {
      const res = await raw(port, line, { 'User-Agent': BROWSER_AGENT });
      expect(res.status, line).toBe(404);
      expect(JSON.parse(res.body), line).toEqual({ response_code: 404, message: expect.stringMatching(/^No endpoint /) });
      expect(res.headers['x-ratelimit-limit'], line).toBe('120');
    }
  });
});

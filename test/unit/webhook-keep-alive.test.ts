import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { KeepAliveAgents } from '../../src/domains/webhooks/keep-alive-agents';
import type { ResolvedAddress } from '../../src/domains/webhooks/target-guard';
import { sendAttempt } from '../../src/domains/webhooks/webhook-sender';

/**
 * Keep-alive connections of webhook delivery (KeepAliveAgents with sendAttempt) against a real
 * HTTPS receiver listening on every loopback address, which counts TLS connections: a second
 * attempt to the same endpoint reuses the connection; another pinned address or host name gets a
 * connection of its own; a reused socket reset before the answer (the keep-alive race) is sent
 * again once on a fresh connection, and only once; idle sockets close; the cache is bounded.
 */

const pinned = (address: string): ResolvedAddress => ({ address, family: 4 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the receiver does with a request: answer 200, or reset the connection without answering. */
type Behaviour = (requestOnConnection: number) => 'answer' | 'reset';

interface CountingReceiver {
  port: number;
  /** TLS connections accepted so far. */
  connections: number;
  /** TLS connections closed so far. */
  closed: number;
  /** Each request: the connection it came on (1-based) and the local address it reached. */
  requests: Array<{ connection: number; localAddress: string }>;
  behaviour: Behaviour;
}

let receiver: CountingReceiver;
let server: https.Server;
const agentCaches: KeepAliveAgents[] = [];

/** A fresh cache, closed after the test. */
function agentsWith(limits?: ConstructorParameters<typeof KeepAliveAgents>[0]): KeepAliveAgents {
  const agents = new KeepAliveAgents(limits);
  agentCaches.push(agents);
  return agents;
}

beforeAll(async () => {
  const tls = inject('receiverTls');
  const counts: CountingReceiver = { port: 0, connections: 0, closed: 0, requests: [], behaviour: () => 'answer' };
  const connectionOf = new WeakMap<object, { number: number; requests: number }>();
  server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const connection = connectionOf.get(req.socket)!;
    connection.requests += 1;
    req.resume();
    req.on('end', () => {
      counts.requests.push({ connection: connection.number, localAddress: req.socket.localAddress ?? '' });
      if (counts.behaviour(connection.requests) === 'reset') req.socket.destroy();
      else res.writeHead(200).end('ok');
    });
  });
  server.on('secureConnection', (socket) => {
    counts.connections += 1;
    connectionOf.set(socket, { number: counts.connections, requests: 0 });
    socket.on('close', () => (counts.closed += 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  counts.port = (server.address() as AddressInfo).port;
  receiver = counts;
});

afterEach(async () => {
  for (const agents of agentCaches.splice(0)) agents.close();
  server.closeAllConnections();
  // Closes are counted asynchronously: let this test's land before the next test counts its own.
  for (let i = 0; i < 100 && receiver.closed < receiver.connections; i += 1) await sleep(10);
  Object.assign(receiver, { connections: 0, closed: 0, requests: [], behaviour: () => 'answer' });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** One attempt to https://{host}:{port}/hook connecting to `address`, through the cache. */
function post(agents: KeepAliveAgents, address: string, host = 'hooks.test') {
  const url = new URL(`https://${host}:${receiver.port}/hook`);
  const to = pinned(address);
  return sendAttempt(url, to, { 'content-type': 'application/json' }, '{"n":1}', 5_000, agents.agentFor(url, to));
}

describe('keep-alive connections to webhook endpoints', () => {
  it('a second attempt to the same endpoint and address reuses the TLS connection', async () => {
    const agents = agentsWith();
    expect((await post(agents, '127.0.0.1')).status).toBe(200);
    expect((await post(agents, '127.0.0.1')).status).toBe(200);
    expect(receiver.connections).toBe(1);
    expect(receiver.requests.map((r) => r.connection)).toEqual([1, 1]);
  });

  it('another pinned address for the same host gets a connection of its own, to that address', async () => {
    const agents = agentsWith();
    await post(agents, '127.0.0.1');
    await post(agents, '127.0.0.2');
    await post(agents, '127.0.0.1');
    expect(receiver.connections).toBe(2);
    expect(receiver.requests).toEqual([
      { connection: 1, localAddress: '127.0.0.1' },
      { connection: 2, localAddress: '127.0.0.2' },
      { connection: 1, localAddress: '127.0.0.1' },
    ]);
  });

  it('another host name on the same address gets a connection of its own (TLS names differ)', async () => {
    const agents = agentsWith();
    await post(agents, '127.0.0.1', 'hooks.test');
    await post(agents, '127.0.0.1', 'pinned.hooks.test');
    expect(receiver.connections).toBe(2);
  });

  it('a reused socket reset before the answer is sent again once, on a fresh connection', async () => {
    const agents = agentsWith();
    await post(agents, '127.0.0.1');
    // The second request on a connection is reset, as when the receiver closes an idle socket just as it is reused.
    receiver.behaviour = (n) => (n === 2 ? 'reset' : 'answer');
    const outcome = await post(agents, '127.0.0.1');
    expect(outcome).toMatchObject({ status: 200, error: null });
    expect(receiver.requests.map((r) => r.connection)).toEqual([1, 1, 2]);
  });

  it('the retry after a reset is made only once, and a fresh connection reset is not retried', async () => {
    const agents = agentsWith();
    await post(agents, '127.0.0.1');
    receiver.behaviour = () => 'reset';
    const outcome = await post(agents, '127.0.0.1');
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/ECONNRESET/);
    // The first request, the reset reused one, and one fresh retry (also reset): no more.
    expect(receiver.requests.map((r) => r.connection)).toEqual([1, 1, 2]);
  });

  it('closes a connection idle longer than idleMs', async () => {
    const agents = agentsWith({ maxAgents: 4, maxIdleSocketsPerAgent: 4, idleMs: 150 });
    await post(agents, '127.0.0.1');
    await sleep(50);
    expect(receiver.closed).toBe(0);
    await sleep(400);
    expect(receiver.closed).toBe(1);
    await post(agents, '127.0.0.1');
    expect(receiver.connections).toBe(2);
  });

  it('keeps at most maxAgents agents and closes the idle sockets of the one it evicts', async () => {
    const agents = agentsWith({ maxAgents: 2, maxIdleSocketsPerAgent: 4, idleMs: 10_000 });
    await post(agents, '127.0.0.1'); // least recently used once the others come
    await post(agents, '127.0.0.2');
    await post(agents, '127.0.0.3');
    expect(agents.size).toBe(2);
    await sleep(100);
    expect(receiver.closed).toBe(1);
    expect(receiver.requests.at(-1)?.localAddress).toBe('127.0.0.3');
    await post(agents, '127.0.0.1');
    expect(receiver.connections).toBe(4);
  });
});

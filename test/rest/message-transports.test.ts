import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The real message transports: an HTTP SMS gateway (SMS_TRANSPORT=<url>) served by a node:http
 * server, SMTP (MAIL_TRANSPORT=smtp) into a minimal SMTP receiver written on node:net, and the
 * on-disk format of the default file outbox (OUTBOX_DIR).
 */

type User = Awaited<ReturnType<typeof createUser>>;

const listen = (server: net.Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const closeServer = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** An SMS gateway that records each POST and answers with `status`. */
async function startSmsGateway() {
  const received: Array<{ method: string; url: string; contentType: string; body: unknown }> = [];
  const gateway = { status: 200, received, port: 0, server: http.createServer() };
  gateway.server.on('request', (req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: JSON.parse(raw || 'null') });
      res.writeHead(gateway.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(gateway.status < 300 ? { accepted: true } : { error: 'gateway exploded: stack at SmsCore.send' }));
    });
  });
  gateway.port = await listen(gateway.server);
  return gateway;
}

interface SmtpMessage { from: string; to: string[]; data: string }

/** Just enough SMTP: greeting, EHLO/HELO, MAIL FROM, RCPT TO, DATA (until "."), RSET, QUIT. */
async function startSmtpReceiver() {
  const messages: SmtpMessage[] = [];
  const sockets = new Set<net.Socket>();
  const receiver = {
    messages,
    /** When true, RCPT TO is refused with 550. */
    reject: false,
    port: 0,
    server: net.createServer(),
    close: () => {
      for (const s of sockets) s.destroy();
      return closeServer(receiver.server);
    },
  };
  receiver.server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let current: SmtpMessage = { from: '', to: [], data: '' };
    let lines: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push({ ...current, data: lines.join('\r\n') });
            current = { from: '', to: [], data: '' };
            lines = [];
            reply('250 2.0.0 Queued');
          } else {
            lines.push(line.startsWith('..') ? line.slice(1) : line); // undo dot-stuffing
          }
          continue;
        }
        const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
        if (/^(EHLO|HELO)\b/i.test(line)) reply('250 test-smtp');
        else if (/^MAIL FROM:/i.test(line)) { current.from = address; reply('250 2.1.0 OK'); }
        else if (/^RCPT TO:/i.test(line)) {
          if (receiver.reject) { reply('550 5.1.1 Mailbox unavailable'); continue; }
          current.to.push(address);
          reply('250 2.1.5 OK');
        } else if (/^DATA$/i.test(line)) { inData = true; reply('354 End data with <CR><LF>.<CR><LF>'); }
        else if (/^RSET$/i.test(line)) { current = { from: '', to: [], data: '' }; reply('250 2.0.0 OK'); }
        else if (/^QUIT$/i.test(line)) socket.end('221 2.0.0 Bye\r\n');
        else reply('250 OK');
      }
    });
    reply('220 test-smtp ESMTP ready');
  });
  receiver.port = await listen(receiver.server);
  return receiver;
}

/** Headers (unfolded, lower-case names) and the body of a message, quoted-printable decoded. */
function parseMail(data: string): { headers: Record<string, string>; body: string } {
  const split = data.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of data.slice(0, split).replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = data.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return { headers, body };
}

const phoneOf = (u: User) => u.body.primary_contact_number as string;
const emailOf = (u: User) => u.body.official_email as string;

describe('SMS through an HTTP gateway (SMS_TRANSPORT=http://…)', () => {
  let gateway: Awaited<ReturnType<typeof startSmsGateway>>;
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    gateway = await startSmsGateway();
    t = await buildTestApp({ SMS_TRANSPORT: `http://127.0.0.1:${gateway.port}/sms` });
    ws = await createWorkspace(t, 'Gateway Dairy');
  });
  afterAll(async () => {
    await t.close();
    await closeServer(gateway.server);
  });

  const requestOtp = async (phone: string) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/otp/request', payload: { phone } });
    await t.settled(); // delivery runs after the answer
    return res;
  };

  it('POSTs {to, text} with the code as JSON to the gateway; the code signs in; nothing goes to the file outbox', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    gateway.status = 200;
    gateway.received.length = 0;
    const res = await requestOtp(phoneOf(user));
    expect(res.statusCode, res.body).toBe(200);
    expect(gateway.received).toEqual([
      { method: 'POST', url: '/sms', contentType: expect.stringMatching(/^application\/json/), body: { to: phoneOf(user), text: expect.stringMatching(/\b\d{6}\b/) } },
    ]);
    expect((await t.outbox()).filter((m) => m.channel === 'sms')).toEqual([]);

    const otp = /(\d{6})/.exec((gateway.received[0].body as { text: string }).text)![1];
    const verify = await t.request({ method: 'POST', url: '/api/v1/auth/otp/verify', payload: { phone: phoneOf(user), otp } });
    expect(verify.statusCode, verify.body).toBe(200);
  });

  it('sends nothing for an unknown phone', async () => {
    gateway.received.length = 0;
    const res = await requestOtp('+919999988888');
    expect(res.statusCode, res.body).toBe(200);
    expect(gateway.received).toEqual([]);
  });

  it('a gateway answering 500 changes nothing in the answer: a known phone still looks like an unknown one', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const unknown = await requestOtp('+919999977777');
    gateway.status = 500;
    gateway.received.length = 0;
    try {
      const res = await requestOtp(phoneOf(user));
      expect(gateway.received).toHaveLength(1);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(unknown.body);
      expect(res.body).not.toMatch(/gateway|sms|stack|exploded|select|insert|at \w+/i);
    } finally {
      gateway.status = 200;
    }
    expect((await t.outbox()).filter((m) => m.channel === 'sms')).toEqual([]);
  });

  it('an unreachable gateway: the same answer as for an unknown phone', async () => {
    const dead = net.createServer();
    const port = await listen(dead);
    await closeServer(dead); // nothing listens on this port any more
    const t2 = await buildTestApp({ SMS_TRANSPORT: `http://127.0.0.1:${port}/sms` });
    try {
      const w = await createWorkspace(t2);
      const user = await createUser(t2, w, UserType.EMPLOYEE);
      const unknown = await t2.request({ method: 'POST', url: '/api/v1/auth/otp/request', payload: { phone: '+919999977777' } });
      const res = await t2.request({ method: 'POST', url: '/api/v1/auth/otp/request', payload: { phone: phoneOf(user) } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(unknown.body);
      expect(res.body).not.toMatch(/ECONNREFUSED|fetch failed|127\.0\.0\.1/);
    } finally {
      await t2.close();
    }
  });
});

describe('e-mail through SMTP (MAIL_TRANSPORT=smtp)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await buildTestApp({ MAIL_TRANSPORT: 'smtp', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    ws = await createWorkspace(t, 'Mail Dairy');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const magicLinkRequest = async (email: string) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/magic-link/request', payload: { email } });
    await t.settled(); // delivery runs after the answer
    return res;
  };

  it('delivers the magic link: one message to the address, from no-reply@localhost, whose link signs in', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const email = emailOf(user);
    smtp.messages.length = 0;
    const res = await magicLinkRequest(email);
    expect(res.statusCode, res.body).toBe(200);

    expect(smtp.messages).toHaveLength(1);
    const [message] = smtp.messages;
    expect(message.from).toBe('no-reply@localhost');
    expect(message.to).toEqual([email]);
    const { headers, body } = parseMail(message.data);
    expect(headers.from).toMatch(/(^|<)no-reply@localhost>?$/);
    expect(headers.to).toContain(email);
    expect(headers.subject).toBe('Sign in to Mail Dairy');
    expect(body).toContain('token=');
    // Not written to the file outbox as well.
    expect((await t.outbox()).filter((m) => m.channel === 'email')).toEqual([]);

    const token = /token=([A-Za-z0-9_-]+)/.exec(body)![1];
    const verify = await t.request({ method: 'POST', url: '/api/v1/auth/magic-link/verify', payload: { token } });
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json().user.id).toBe(user.id);
  });

  it('the invite of a new user goes through SMTP too', async () => {
    smtp.messages.length = 0;
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    expect(smtp.messages.map((m) => m.to)).toEqual([[emailOf(user)]]);
    expect(parseMail(smtp.messages[0].data).headers.subject).toBe('You are invited to Mail Dairy');
  });

  it('a server refusing the recipient changes nothing in the answer: a known address still looks like an unknown one', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const unknown = await magicLinkRequest('nobody-here@example.test');
    smtp.messages.length = 0;
    smtp.reject = true;
    try {
      const res = await magicLinkRequest(emailOf(user));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(unknown.body);
      expect(res.body).not.toMatch(/550|mailbox|smtp|recipient/i);
    } finally {
      smtp.reject = false;
    }
    expect(smtp.messages).toEqual([]);
  });
});

describe('the file outbox (default transports)', () => {
  let t: TestApp;
  let ws: Workspace;
  const started = Date.now();
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Outbox Dairy');
  });
  afterAll(() => t.close());

  it('writes one JSON file per message with exactly {channel, to, subject, text, created_at}, and no temporary files', async () => {
    const user = await createUser(t, ws, UserType.EMPLOYEE); // invite e-mail
    expect((await t.request({ method: 'POST', url: '/api/v1/auth/otp/request', payload: { phone: phoneOf(user) } })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/v1/auth/magic-link/request', payload: { email: emailOf(user) } })).statusCode).toBe(200);
    await t.settled(); // deliveries run after the answers

    const names = readdirSync(t.config.outboxDir); // dot files included
    expect(names.filter((n) => !n.endsWith('.json'))).toEqual([]);
    expect(names.filter((n) => n.includes('.tmp'))).toEqual([]);
    const files = names.map((name) => {
      const full = path.join(t.config.outboxDir, name);
      return { name, mode: statSync(full).mode & 0o777, json: JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown> };
    });
    const mine = files.filter((f) => f.json.to === emailOf(user) || f.json.to === phoneOf(user));
    expect(mine.map((f) => `${f.json.channel}:${f.json.subject}`).sort()).toEqual([
      'email:Sign in to Outbox Dairy',
      'email:You are invited to Outbox Dairy',
      'sms:null',
    ]);
    for (const { name, mode, json } of files) {
      expect(Object.keys(json).sort(), name).toEqual(['channel', 'created_at', 'subject', 'text', 'to']);
      expect(name).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z-${json.channel}-[0-9a-f]+\\.json$`));
      expect(['email', 'sms']).toContain(json.channel);
      expect(typeof json.to).toBe('string');
      expect(typeof json.text).toBe('string');
      expect(json.channel === 'sms' ? json.subject === null : typeof json.subject === 'string', name).toBe(true);
      const createdAt = json.created_at as string;
      expect(new Date(createdAt).toISOString()).toBe(createdAt);
      expect(Date.parse(createdAt)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(createdAt)).toBeLessThanOrEqual(Date.now() + 1000);
      // The file name starts with the creation time.
      expect(name.startsWith(createdAt.replace(/[:.]/g, '-'))).toBe(true);
      expect(mode, `${name} is readable by its owner only`).toBe(0o600);
    }
    expect((await t.outbox())).toHaveLength(files.length);
  });

  it('creates OUTBOX_DIR (owner-only) when it does not exist yet', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'sd-test-outbox-parent-'));
    const dir = path.join(parent, 'nested', 'outbox');
    const t2 = await buildTestApp({ OUTBOX_DIR: dir });
    try {
      expect(t2.config.outboxDir).toBe(dir);
      const w = await createWorkspace(t2);
      const user = await createUser(t2, w, UserType.EMPLOYEE);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect((await t2.outbox())).toEqual([expect.objectContaining({ channel: 'email', to: emailOf(user) })]);
    } finally {
      await t2.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('links in e-mails (PUBLIC_APP_URL)', () => {
  it('point below the web app URL, keeping its path', async () => {
    const t = await buildTestApp({ PUBLIC_APP_URL: 'https://app.example.com/portal/' });
    try {
      const ws = await createWorkspace(t);
      const user = await createUser(t, ws, UserType.EMPLOYEE);
      const invite = (await t.outbox()).find((m) => m.to === emailOf(user))!;
      expect(invite.text).toMatch(/https:\/\/app\.example\.com\/portal\/auth\/set-password\?token=[A-Za-z0-9_-]{43}\n/);
    } finally {
      await t.close();
    }
  });
});

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/context/request-log';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** What the service writes to its log: never a usable link token, never a code it failed to deliver. */
describe('the log', () => {
  let t: TestApp;
  const lines: string[] = [];
  let deadPort = 0;
  beforeAll(async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    deadPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    t = await buildTestApp(
      { LOG_LEVEL: 'info', SMS_TRANSPORT: `http://127.0.0.1:${deadPort}/sms` },
      { logStream: { write: (line) => void lines.push(line) } },
    );
  });
  afterAll(() => t.close());

  it('redacts the token of set-password links from request URLs', async () => {
    expect(redactUrl('/api/v1/auth/magic-link/set-password/abcDEF_123-x?x=1')).toBe('/api/v1/auth/magic-link/set-password/[redacted]?x=1');
    expect(redactUrl('/api/v1/orders/7')).toBe('/api/v1/orders/7');

    const ws = await createWorkspace(t);
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const invite = (await t.outbox()).find((m) => m.to === user.body.official_email)!;
    const token = /token=([A-Za-z0-9_-]+)/.exec(invite.text)![1];
    lines.length = 0;
    const res = await t.request({ method: 'POST', url: `/api/v1/auth/magic-link/set-password/${token}`, payload: { password: 'short' } });
    expect(res.statusCode).toBe(400); // the link stays usable, so its token must not be in the log
    const log = lines.join('');
    expect(log).toContain('/api/v1/auth/magic-link/set-password/[redacted]');
    expect(log).not.toContain(token);
  });

  it('writes one access line per request, when it is answered, with its status and duration', async () => {
    lines.length = 0;
    const res = await t.request({ method: 'GET', url: '/api/v1/orders?limit=5' });
    expect(res.statusCode).toBe(401);
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      msg: 'request completed',
      reqId: expect.stringMatching(/^req_/),
      req: { method: 'GET', url: '/api/v1/orders?limit=5' },
      res: { statusCode: 401 },
      responseTime: expect.any(Number),
    });
  });

  it('logs a failed delivery without the message text, and still answers as for an unknown phone', async () => {
    const ws = await createWorkspace(t);
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const unknown = await t.request({ method: 'POST', url: '/api/v1/auth/otp/request', payload: { phone: '+919999966666' } });
    lines.length = 0;
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/otp/request', payload: { phone: user.body.primary_contact_number } });
    await t.settled();
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(unknown.body);
    const failures = lines.map((l) => JSON.parse(l)).filter((entry) => entry.msg === 'background task failed');
    expect(failures).toHaveLength(1);
    expect(failures[0].task).toBe('sign-in code by SMS');
    expect(lines.join('')).not.toMatch(/is your .* sign-in code/);
  });
});

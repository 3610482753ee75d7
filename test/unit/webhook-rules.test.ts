import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { ValidationError } from '../../src/errors/app-error';
import { envelope, leaseMs } from '../../src/domains/webhooks/delivery-engine';
import { deliveryJobKey } from '../../src/domains/webhooks/delivery-job';
import { isRetryable, parseRetryAfter, retryDelayMs, type RetrySettings } from '../../src/domains/webhooks/retry-policy';
import {
  isPublicAddress,
  parseWebhookUrl,
  UnsafeTargetError,
  vetTarget,
  type HostResolver,
  type ResolvedAddress,
} from '../../src/domains/webhooks/target-guard';
import { catalogOf, DOMAINS } from '../../src/domains';
import { DEFAULT_EVENTS, newEventId, normalizeEvents as normalizeAgainst, TEST_EVENT } from '../../src/domains/webhooks/webhook-events';

/** The events the domains declare, as the app gathers them. */
const WEBHOOK_EVENTS = catalogOf(DOMAINS).webhookEvents;
const normalizeEvents = (field: string, value: string | string[]) => normalizeAgainst(field, value, WEBHOOK_EVENTS);
import { newWebhookSecret, SecretBox, signPayload } from '../../src/domains/webhooks/webhook-secret';

/**
 * The pure rules of webhook delivery, without a database or a network: which addresses count as
 * public, how a target is vetted and pinned, URL and subscription validation, the retry schedule,
 * Retry-After, which failures are retried, signatures, the secret box and the envelope.
 */

/** The events the domains declare, as the 400s list them. */
const SUPPORTED = catalogOf(DOMAINS).webhookEvents.join(', ');

/** Runs `fn` and returns what it threw (fails the test when it does not throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw, nothing was thrown');
}

/** Awaits `promise` and returns its rejection (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (err: Error) => err,
  );
}

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['172.15.255.255', 'just below 172.16.0.0/12'],
    ['172.32.0.1', 'just above 172.16.0.0/12'],
    ['100.63.255.255', 'just below 100.64.0.0/10 (carrier-grade NAT)'],
    ['100.128.0.1', 'just above 100.64.0.0/10 (carrier-grade NAT)'],
    ['::ffff:8.8.8.8', 'IPv4-mapped form of a public IPv4 address, judged as that address'],
  ])('%s is public (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12, first'],
    ['172.31.255.255', 'private 172.16/12, last'],
    ['192.168.0.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT, first'],
    ['100.127.255.255', 'carrier-grade NAT, last'],
    ['224.0.0.1', 'multicast, first'],
    ['239.255.255.255', 'multicast, last'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd00::1', 'unique local fd00::/8'],
    ['fe80::1', 'IPv6 link-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['64:ff9b::a00:1', 'NAT64 (RFC 6052)'],
    ['::a00:1', 'IPv4-compatible IPv6 (deprecated ::/96)'],
    ['3fff::1', 'IPv6 documentation (3fff::/20)'],
    ['4000::1', 'outside 2000::/3'],
    ['2002:a00:1::', '6to4'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['not-an-ip', 'not an address at all'],
    ['', 'empty'],
  ])('%s is not public (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('vetTarget', () => {
  /** A resolver that answers `addresses` for every host and records what it was asked. */
  const fakeResolver = (addresses: ResolvedAddress[]) => vi.fn<HostResolver>(async () => addresses);
  const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
  const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

  describe('host names', () => {
    it('resolves the host name (lower-cased) and pins a public address', async () => {
      const resolve = fakeResolver([v4('93.184.216.34')]);
      await expect(vetTarget(new URL('https://Hooks.Example.COM/in'), resolve, [])).resolves.toEqual(v4('93.184.216.34'));
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(resolve).toHaveBeenCalledWith('hooks.example.com');
    });

    it('pins the first IPv4 address when the name has IPv6 and IPv4 addresses (all public)', async () => {
      const resolve = fakeResolver([v6('2606:4700:4700::1111'), v4('1.1.1.1'), v6('2001:4860:4860::8888'), v4('8.8.8.8')]);
      await expect(vetTarget(new URL('https://dual.example/'), resolve, [])).resolves.toEqual(v4('1.1.1.1'));
    });

    it('pins the first address when the name has IPv6 addresses only', async () => {
      const resolve = fakeResolver([v6('2606:4700:4700::1111'), v6('2001:4860:4860::8888')]);
      await expect(vetTarget(new URL('https://v6.example/'), resolve, [])).resolves.toEqual(v6('2606:4700:4700::1111'));
    });

    it.each([
      [[v4('10.0.0.1')]],
      [[v4('8.8.8.8'), v4('127.0.0.1')]],
      [[v4('8.8.8.8'), v6('::1')]],
      [[v6('2606:4700:4700::1111'), v6('fd00::1'), v4('169.254.169.254')]],
      [[v6('::ffff:10.0.0.1')]],
    ])('refuses a name when any of its addresses is not public (%j)', async (addresses) => {
      const err = await rejection(vetTarget(new URL('https://mixed.example/x'), fakeResolver(addresses), []));
      expect(err).toBeInstanceOf(UnsafeTargetError);
      expect(err.message).toBe('host mixed.example must resolve only to public addresses');
    });

    it('refuses a name the resolver cannot resolve (it throws)', async () => {
      const resolve = vi.fn<HostResolver>(async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
      });
      const err = await rejection(vetTarget(new URL('https://nowhere.example/'), resolve, []));
      expect(err).toBeInstanceOf(UnsafeTargetError);
      expect(err.message).toBe('host nowhere.example must resolve only to public addresses');
    });

    it('refuses a name that resolves to no address at all', async () => {
      const err = await rejection(vetTarget(new URL('https://empty.example/'), fakeResolver([]), []));
      expect(err).toBeInstanceOf(UnsafeTargetError);
      expect(err.message).toBe('host empty.example must resolve only to public addresses');
    });
  });

  describe('IP literals', () => {
    it.each([
      ['https://8.8.8.8/hook', v4('8.8.8.8')],
      ['https://[2606:4700:4700::1111]:8443/hook', v6('2606:4700:4700::1111')],
    ])('pins a public literal without calling the resolver (%s)', async (url, pinned) => {
      const resolve = fakeResolver([v4('10.9.9.9')]);
      await expect(vetTarget(new URL(url), resolve, [])).resolves.toEqual(pinned);
      expect(resolve).not.toHaveBeenCalled();
    });

    it.each([
      ['https://127.0.0.1/hook', '127.0.0.1'],
      ['https://127.1/hook', '127.0.0.1'], // the URL parser normalises the short form
      ['https://[::1]/hook', '::1'],
      ['https://[::ffff:169.254.169.254]/hook', '::ffff:a9fe:a9fe'],
      ['https://0x7f.0.0.1/hook', '127.0.0.1'],
    ])('refuses a non-public literal without calling the resolver (%s)', async (url, shown) => {
      const resolve = fakeResolver([v4('8.8.8.8')]);
      const err = await rejection(vetTarget(new URL(url), resolve, []));
      expect(err).toBeInstanceOf(UnsafeTargetError);
      expect(err.message).toBe(`${shown} is not a public address`);
      expect(resolve).not.toHaveBeenCalled();
    });
  });

  describe('WEBHOOK_ALLOWED_PRIVATE_HOSTS', () => {
    const allowed = loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOWED_PRIVATE_HOSTS: ' Hooks.TEST , 127.0.0.1,::1 ' }).webhook.allowedPrivateHosts;

    it('is read lower-cased and trimmed from the environment', () => {
      expect(allowed).toEqual(['hooks.test', '127.0.0.1', '::1']);
    });

    it('exempts a listed host name, whatever its case in the URL', async () => {
      const resolve = fakeResolver([v6('fd00::5'), v4('10.1.2.3')]);
      await expect(vetTarget(new URL('https://HOOKS.test:9443/in'), resolve, allowed)).resolves.toEqual(v4('10.1.2.3'));
      expect(resolve).toHaveBeenCalledWith('hooks.test');
    });

    it('exempts a listed IPv4 literal and a listed IPv6 literal (listed without brackets)', async () => {
      const resolve = fakeResolver([]);
      await expect(vetTarget(new URL('https://127.0.0.1:4000/'), resolve, allowed)).resolves.toEqual(v4('127.0.0.1'));
      await expect(vetTarget(new URL('https://[::1]:4000/'), resolve, allowed)).resolves.toEqual(v6('::1'));
      expect(resolve).not.toHaveBeenCalled();
    });

    it('exempts only the listed hosts: a sub-domain or another loopback address is still refused', async () => {
      const sub = await rejection(vetTarget(new URL('https://a.hooks.test/'), fakeResolver([v4('127.0.0.1')]), allowed));
      expect(sub).toBeInstanceOf(UnsafeTargetError);
      expect(sub.message).toBe('host a.hooks.test must resolve only to public addresses');
      const other = await rejection(vetTarget(new URL('https://127.0.0.2/'), fakeResolver([]), allowed));
      expect(other.message).toBe('127.0.0.2 is not a public address');
    });

    it('does not exempt a listed host from having to resolve', async () => {
      const err = await rejection(vetTarget(new URL('https://hooks.test/'), fakeResolver([]), allowed));
      expect(err).toBeInstanceOf(UnsafeTargetError);
      expect(err.message).toBe('host hooks.test must resolve only to public addresses');
    });
  });
});

describe('parseWebhookUrl', () => {
  it('accepts an absolute https:// URL (trimmed) and returns it parsed', () => {
    const url = parseWebhookUrl('url', '  https://hooks.example.com:8443/in?x=1  ');
    expect(url).toBeInstanceOf(URL);
    expect(url.href).toBe('https://hooks.example.com:8443/in?x=1');
    expect(parseWebhookUrl('url', 'HTTPS://Hooks.Example.com/').href).toBe('https://hooks.example.com/');
  });

  it.each([
    ['http://hooks.example.com/in', 'url must use https://'],
    ['ftp://hooks.example.com/in', 'url must use https://'],
    ['wss://hooks.example.com/in', 'url must use https://'],
    ['/relative/path', 'url must be an absolute https:// URL'],
    ['hooks.example.com/in', 'url must be an absolute https:// URL'],
    ['not a url', 'url must be an absolute https:// URL'],
    ['', 'url must be an absolute https:// URL'],
    ['https://user:pass@hooks.example.com/in', 'url must not contain a user name or password'],
    ['https://user@hooks.example.com/in', 'url must not contain a user name or password'],
    ['https://:pass@hooks.example.com/in', 'url must not contain a user name or password'],
  ])('refuses %j: %s', (value, message) => {
    const err = thrown(() => parseWebhookUrl('url', value));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(message);
    expect((err as ValidationError).field).toBe('url');
  });

  it('names the field it was given', () => {
    expect(thrown(() => parseWebhookUrl('input.url', 'http://x.example/')).message).toBe('input.url must use https://');
  });
});

describe('normalizeEvents', () => {
  it('has the documented events and default', () => {
    expect(WEBHOOK_EVENTS).toEqual(['order.created', 'order.delivered', 'order.cancelled', 'user.created', 'user.updated', 'leave.approved', 'leave.rejected', 'crate_movement.recorded', 'foc_request.approved', 'foc_request.rejected', 'foc_request.fulfilled', 'foc_request.cancelled']);
    expect(DEFAULT_EVENTS).toBe('order.created,order.delivered');
    expect(TEST_EVENT).toBe('webhook.test');
  });

  it.each([
    [['order.created'], 'order.created'],
    [['user.created', 'order.created'], 'order.created,user.created'],
    [['user.created', 'order.delivered', 'order.created'], 'order.created,order.delivered,user.created'],
    [['order.delivered', 'order.delivered', 'order.delivered'], 'order.delivered'],
    [[' user.created ', '\torder.created'], 'order.created,user.created'],
    ['order.created', 'order.created'],
    ['user.created,order.created', 'order.created,user.created'],
    [' user.created , order.delivered ,order.created', 'order.created,order.delivered,user.created'],
    ['order.created,order.created', 'order.created'],
  ])('%j → %j', (value, canonical) => {
    expect(normalizeEvents('events', value)).toBe(canonical);
  });

  it.each([
    [[], `events must name at least one event: ${SUPPORTED}`],
    ['', `events must name at least one event: ${SUPPORTED}`],
    ['  ', `events must name at least one event: ${SUPPORTED}`],
    [' , ,', `events must name at least one event: ${SUPPORTED}`],
    [['', ' '], `events must name at least one event: ${SUPPORTED}`],
    ['webhook.test', 'events cannot include webhook.test: it is sent by the test endpoint and cannot be subscribed to'],
    [['order.created', ' webhook.test'], 'events cannot include webhook.test: it is sent by the test endpoint and cannot be subscribed to'],
    ['x', `events has unknown event "x"; supported: ${SUPPORTED}`],
    [['order.created', 'order.shipped'], `events has unknown event "order.shipped"; supported: ${SUPPORTED}`],
    ['Order.Created', `events has unknown event "Order.Created"; supported: ${SUPPORTED}`],
    ['order.created,,user.created', `events has an empty event name; supported: ${SUPPORTED}`],
    [['user.created', ''], `events has an empty event name; supported: ${SUPPORTED}`],
  ])('refuses %j', (value, message) => {
    const err = thrown(() => normalizeEvents('events', value));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(message);
  });

  it('shows at most 60 characters of an unknown event name', () => {
    const long = `e${'x'.repeat(99)}`;
    expect(thrown(() => normalizeEvents('events', [long])).message).toBe(`events has unknown event "${long.slice(0, 60)}"; supported: ${SUPPORTED}`);
  });
});

describe('retry policy', () => {
  const DEFAULTS: RetrySettings = { retryBaseMs: 30_000, retryCapMs: 21_600_000, maxAttempts: 12 };
  const SECOND = 1_000;
  const MINUTE = 60 * SECOND;
  const HOUR = 60 * MINUTE;
  const half = () => 0.5;

  it('the defaults of the configuration are 30 s base, 6 h cap, 12 attempts', () => {
    const { retryBaseMs, retryCapMs, maxAttempts } = loadConfig({ NODE_ENV: 'test' }).webhook;
    expect({ retryBaseMs, retryCapMs, maxAttempts }).toEqual(DEFAULTS);
  });

  describe('retryDelayMs', () => {
    it.each([
      [1, 30 * SECOND],
      [2, 60 * SECOND],
      [3, 2 * MINUTE],
      [4, 4 * MINUTE],
      [5, 8 * MINUTE],
      [6, 16 * MINUTE],
      [7, 32 * MINUTE],
      [8, 64 * MINUTE],
      [9, 128 * MINUTE],
      [10, 256 * MINUTE],
      [11, 6 * HOUR],
      [12, 6 * HOUR],
    ])('after attempt %i, without jitter (random 0.5): %i ms', (attempt, delay) => {
      expect(retryDelayMs(attempt, DEFAULTS, null, half)).toBe(delay);
    });

    it('the eleven waits between twelve attempts add up to about 14 hours (between 10 and 20)', () => {
      let total = 0;
      for (let attempt = 1; attempt <= 11; attempt += 1) total += retryDelayMs(attempt, DEFAULTS, null, half);
      expect(total).toBe(30 * SECOND * (2 ** 10 - 1) + 6 * HOUR); // 14 h 31 min 30 s
      expect(total).toBeGreaterThan(10 * HOUR);
      expect(total).toBeLessThan(20 * HOUR);
    });

    it('jitter is −20% with random 0 and +20% with random 1', () => {
      expect(retryDelayMs(1, DEFAULTS, null, () => 0)).toBe(24 * SECOND);
      expect(retryDelayMs(1, DEFAULTS, null, () => 1)).toBe(36 * SECOND);
      expect(retryDelayMs(4, DEFAULTS, null, () => 0)).toBe(192 * SECOND);
      expect(retryDelayMs(4, DEFAULTS, null, () => 1)).toBe(288 * SECOND);
      expect(retryDelayMs(10, DEFAULTS, null, () => 1)).toBe(256 * MINUTE * 1.2);
    });

    it('jitter never goes above the cap (but may go below it)', () => {
      expect(retryDelayMs(11, DEFAULTS, null, () => 1)).toBe(6 * HOUR);
      expect(retryDelayMs(30, DEFAULTS, null, () => 1)).toBe(6 * HOUR);
      expect(retryDelayMs(11, DEFAULTS, null, () => 0)).toBe(6 * HOUR * 0.8);
      const small: RetrySettings = { retryBaseMs: 100, retryCapMs: 1_000, maxAttempts: 3 };
      expect(retryDelayMs(4, small, null, () => 1)).toBe(960);
      expect(retryDelayMs(5, small, null, () => 1)).toBe(1_000);
    });

    it('with the real random source every delay stays within ±20% of base × 2^(n−1), capped', () => {
      for (let i = 0; i < 500; i += 1) {
        const attempt = 1 + (i % 12);
        const exact = Math.min(30 * SECOND * 2 ** (attempt - 1), 6 * HOUR);
        const delay = retryDelayMs(attempt, DEFAULTS);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(Math.round(exact * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.min(Math.round(exact * 1.2), 6 * HOUR));
      }
    });

    it('honours a Retry-After longer than the back-off, within the cap', () => {
      expect(retryDelayMs(1, DEFAULTS, 120, half)).toBe(120 * SECOND);
      expect(retryDelayMs(1, DEFAULTS, 31, () => 1)).toBe(36 * SECOND); // shorter than the jittered back-off: ignored
      expect(retryDelayMs(1, DEFAULTS, 10, half)).toBe(30 * SECOND);
      expect(retryDelayMs(1, DEFAULTS, 0, half)).toBe(30 * SECOND);
      expect(retryDelayMs(1, DEFAULTS, 7 * 3600, half)).toBe(6 * HOUR);
      expect(retryDelayMs(2, DEFAULTS, 10 ** 9, half)).toBe(6 * HOUR);
    });
  });

  describe('parseRetryAfter', () => {
    const now = Date.UTC(2025, 0, 15, 12, 0, 0);

    it.each([
      ['5', 5],
      ['0', 0],
      [' 120 ', 120],
    ])('delta-seconds %j → %i', (header, seconds) => {
      expect(parseRetryAfter(header, now)).toBe(seconds);
    });

    it('an HTTP date is read as the seconds until it', () => {
      expect(parseRetryAfter(new Date(now + 10_000).toUTCString(), now)).toBe(10);
      expect(parseRetryAfter('Wed, 15 Jan 2025 12:01:30 GMT', now)).toBe(90);
      const inTen = parseRetryAfter(new Date(Date.now() + 10_000).toUTCString());
      expect(inTen).toBeGreaterThanOrEqual(9);
      expect(inTen).toBeLessThanOrEqual(10);
    });

    it('an HTTP date in the past is 0', () => {
      expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBe(0);
    });

    it.each([['soon'], ['later please'], [''], [undefined]])('%j → null', (header) => {
      expect(parseRetryAfter(header, now)).toBeNull();
    });
  });

  describe('isRetryable', () => {
    it.each([[null], [500], [502], [503], [504], [408], [429]])('%s is retried', (status) => {
      expect(isRetryable(status)).toBe(true);
    });

    it.each([[400], [401], [403], [404], [410], [422], [301], [302], [307]])('%s is not retried', (status) => {
      expect(isRetryable(status)).toBe(false);
    });
  });
});

describe('signatures and secrets', () => {
  const SECRET = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
  const TIMESTAMP = 1_700_000_000;
  const BODY = '{"id":"evt_000000000000000000000001","event":"order.created"}';

  describe('signPayload', () => {
    it('is sha256= and the hex HMAC-SHA256 of "{timestamp}.{body}" keyed by the whole secret string', () => {
      const expected = `sha256=${createHmac('sha256', SECRET).update(`${TIMESTAMP}.${BODY}`).digest('hex')}`;
      expect(signPayload(SECRET, TIMESTAMP, BODY)).toBe(expected);
      // The same vector computed outside Node (openssl dgst -sha256 -hmac <secret>).
      expect(signPayload(SECRET, TIMESTAMP, BODY)).toBe('sha256=e24678fd03b3432d0f9fb694d35eec9465db665a0e5f4aca15e0fa11def71df5');
    });

    it('is not keyed by the hex part alone, and changes with the timestamp, the body and the secret', () => {
      const signature = signPayload(SECRET, TIMESTAMP, BODY);
      expect(signature).not.toBe(`sha256=${createHmac('sha256', Buffer.from(SECRET.slice(6), 'hex')).update(`${TIMESTAMP}.${BODY}`).digest('hex')}`);
      expect(signPayload(SECRET, TIMESTAMP + 1, BODY)).not.toBe(signature);
      expect(signPayload(SECRET, TIMESTAMP, `${BODY} `)).not.toBe(signature);
      expect(signPayload(`${SECRET.slice(0, -1)}0`, TIMESTAMP, BODY)).not.toBe(signature);
    });
  });

  it('newWebhookSecret is whsec_ and 64 hex characters, new every time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });

  describe('SecretBox', () => {
    const key = randomBytes(32);
    const box = new SecretBox(key);

    /** Applies `change` to one byte of part `index` (0 iv, 1 tag, 2 ciphertext) of a sealed value. */
    const tamper = (sealed: string, index: number, change: (byte: number) => number = (b) => b ^ 0x01) => {
      const parts = sealed.split('.');
      const bytes = Buffer.from(parts[index], 'base64url');
      bytes[0] = change(bytes[0]);
      parts[index] = bytes.toString('base64url');
      return parts.join('.');
    };

    it('opens what it sealed', () => {
      const secret = newWebhookSecret();
      expect(box.open(box.seal(secret))).toBe(secret);
      expect(box.open(box.seal('ünïcødé ✓'))).toBe('ünïcødé ✓');
    });

    it('is AES-GCM: iv (12 bytes), tag (16 bytes) and ciphertext, base64url, without the secret in clear', () => {
      const sealed = box.seal(SECRET);
      const parts = sealed.split('.');
      expect(parts).toHaveLength(3);
      parts.forEach((part) => expect(part).toMatch(/^[A-Za-z0-9_-]+$/));
      expect(Buffer.from(parts[0], 'base64url')).toHaveLength(12);
      expect(Buffer.from(parts[1], 'base64url')).toHaveLength(16);
      expect(Buffer.from(parts[2], 'base64url')).toHaveLength(SECRET.length);
      expect(sealed).not.toContain(SECRET.slice(6, 20));
    });

    it('seals the same secret differently every time', () => {
      const sealed = new Set(Array.from({ length: 20 }, () => box.seal(SECRET)));
      expect(sealed.size).toBe(20);
      for (const s of sealed) expect(box.open(s)).toBe(SECRET);
    });

    it.each([
      [2, 'the ciphertext'],
      [1, 'the tag'],
      [0, 'the iv'],
    ])('refuses a value whose %s was changed (part %i)', (index) => {
      const sealed = box.seal(SECRET);
      expect(() => box.open(tamper(sealed, index))).toThrow();
    });

    it('refuses a value sealed under another key', () => {
      const sealed = new SecretBox(randomBytes(32)).seal(SECRET);
      expect(() => box.open(sealed)).toThrow();
    });
  });
});

describe('delivery bookkeeping', () => {
  it('envelope is exactly {id, event, timestamp, organization_id, data}, in that order', () => {
    const body = envelope('evt_0123456789abcdef01234567', 'order.created', new Date('2025-01-02T03:04:05.678Z'), 42, {
      id: 7,
      order_code: 'ORD-7',
      nested: { b: 1, a: [1, 2] },
    });
    expect(body).toBe(
      '{"id":"evt_0123456789abcdef01234567","event":"order.created","timestamp":"2025-01-02T03:04:05.678Z","organization_id":42,' +
        '"data":{"id":7,"order_code":"ORD-7","nested":{"b":1,"a":[1,2]}}}',
    );
    expect(Object.keys(JSON.parse(body))).toEqual(['id', 'event', 'timestamp', 'organization_id', 'data']);
  });

  it('newEventId is evt_ and 24 hex characters, new every time', () => {
    const id = newEventId();
    expect(id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(newEventId()).not.toBe(id);
  });

  it('one job key per delivery; the lease is twice the timeout and 5 s', () => {
    expect(deliveryJobKey(17)).toBe('webhook-delivery-17');
    expect(leaseMs(1_500)).toBe(8_000);
    expect(leaseMs(10_000)).toBe(25_000);
  });
});

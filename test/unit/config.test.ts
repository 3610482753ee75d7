import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  it('applies the defaults of operations.md', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: path.resolve('.data'),
      redisUrl: undefined,
      challengeProvider: 'altcha',
      outboxDir: path.resolve('.data/outbox'),
      mailTransport: 'file',
      smsTransport: 'file',
      webhook: { allowedPrivateHosts: [], timeoutMs: 10000, retryBaseMs: 30000, retryCapMs: 21600000, maxAttempts: 12 },
      rateLimit: { perMinute: 120, perHour: 2000 },
      graphqlCost: { maximum: 150_000, restoreRate: 10_000 },
      logLevel: 'info',
    });
    expect(c.publicAppUrl.href).toBe('http://localhost:3000/');
  });

  it('takes an SMS gateway URL and the public app URL (the WebAuthn relying party)', () => {
    const c = loadConfig({ SMS_TRANSPORT: 'https://sms.example.com/send', PUBLIC_APP_URL: 'https://app.example.com', PORT: '8080' });
    expect(c.smsTransport).toBe('https://sms.example.com/send');
    expect(c.publicAppUrl.hostname).toBe('app.example.com');
    expect(c.publicAppUrl.origin).toBe('https://app.example.com');
    expect(loadConfig({ PORT: '8080' }).publicAppUrl.origin).toBe('http://localhost:8080');
  });

  it('takes the public API URL, the base of absolute links the API hands out (path kept, trailing slash dropped)', () => {
    expect(loadConfig({}).publicApiUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_API_URL: '' }).publicApiUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_API_URL: 'https://API.example.com' }).publicApiUrl).toBe('https://api.example.com');
    expect(loadConfig({ PUBLIC_API_URL: 'https://example.com:8443/sales/' }).publicApiUrl).toBe('https://example.com:8443/sales');
    expect(loadConfig({ PUBLIC_API_URL: 'http://127.0.0.1:3000' }).publicApiUrl).toBe('http://127.0.0.1:3000');
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@db/x',
      DATA_DIR: '/tmp/sd',
      REDIS_URL: 'redis://r:6379',
      TRUST_PROXY: '2',
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'Localhost, 127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '10',
      GRAPHQL_COST_MAXIMUM: '200000',
      GRAPHQL_COST_RESTORE_RATE: '500',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@db/x',
      dataDir: '/tmp/sd',
      outboxDir: '/tmp/sd/outbox',
      redisUrl: 'redis://r:6379',
      trustProxy: 2,
      rateLimit: { perMinute: 10, perHour: 2000 },
      graphqlCost: { maximum: 200_000, restoreRate: 500 },
      logLevel: 'warn',
    });
    expect(c.webhook.allowedPrivateHosts).toEqual(['localhost', '127.0.0.1']);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ CHALLENGE_PROVIDER: 'captcha' }, /CHALLENGE_PROVIDER/],
    [{ CHALLENGE_PROVIDER: 'turnstile' }, /TURNSTILE_SECRET/],
    [{ NODE_ENV: 'production' }, /JWT_SECRET/],
    [{ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), PUBLIC_APP_URL: 'https://app.example.com', CHALLENGE_PROVIDER: 'off' }, /CHALLENGE_PROVIDER/],
    [{ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }, /PUBLIC_APP_URL/],
    [{ SMS_TRANSPORT: 'https://user:secret@sms.example.com/send' }, /SMS_TRANSPORT/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET/],
    [{ WEBHOOK_MAX_ATTEMPTS: '0' }, /WEBHOOK_MAX_ATTEMPTS/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    // Below the highest cost of one query, such a query could never run.
    [{ GRAPHQL_COST_MAXIMUM: '49999' }, /GRAPHQL_COST_MAXIMUM/],
    [{ GRAPHQL_COST_RESTORE_RATE: '0' }, /GRAPHQL_COST_RESTORE_RATE/],
    [{ MAIL_TRANSPORT: 'smtp' }, /SMTP_URL/],
    [{ SMS_TRANSPORT: 'carrier-pigeon' }, /SMS_TRANSPORT/],
    [{ PUBLIC_APP_URL: 'app.example.com' }, /PUBLIC_APP_URL/],
    [{ PUBLIC_APP_URL: 'ftp://app.example.com' }, /PUBLIC_APP_URL/],
    [{ PUBLIC_API_URL: 'api.example.com' }, /PUBLIC_API_URL: must be an http\(s\) URL/],
    [{ PUBLIC_API_URL: 'ftp://api.example.com' }, /PUBLIC_API_URL: must be an http\(s\) URL/],
    [{ PUBLIC_API_URL: 'https://user:secret@api.example.com' }, /PUBLIC_API_URL: must not carry credentials/],
    [{ PUBLIC_API_URL: 'https://api.example.com/?v=1' }, /PUBLIC_API_URL: must not have a query/],
    [{ PUBLIC_API_URL: 'https://api.example.com/?' }, /PUBLIC_API_URL: must not have a query/],
    [{ PUBLIC_API_URL: 'https://api.example.com/#top' }, /PUBLIC_API_URL: must not have a query/],
  ])('refuses %o naming the variable', (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(pattern);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import type { Runner } from 'graphile-worker';
import { startWorker, taskDepsOf } from '../../jobs/worker';
import { buildApp } from '../../src/app';
import type { HostResolver } from '../../src/domains/webhooks/target-guard';
import { loadConfig, type Config } from '../../src/config';
import { openOrm } from '../../src/db/orm';
import { secretsFrom } from '../../src/secrets';
import { createTestDatabase, type TestDatabase } from './database';

/** A browser-like agent that passes the User-Agent rule. */
export const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) sales-distribution-tests';

/** Counts the SQL statements the ORM sends. */
export class QueryCounter {
  count = 0;
  statements: string[] = [];

  reset(): void {
    this.count = 0;
    this.statements = [];
  }

  record(message: string): void {
    this.count += 1;
    this.statements.push(message);
  }
}

/** A message the file outbox wrote (operations.md: OUTBOX_DIR). */
export interface OutboxMessage {
  channel: 'email' | 'sms' | 'push';
  to: string;
  subject: string | null;
  text: string;
  /** A push's data. */
  data?: Record<string, string>;
  created_at: string;
}

/** An app over its own database, with helpers to call it. */
export interface TestApp {
  app: FastifyInstance;
  orm: MikroORM;
  config: Config;
  db: TestDatabase;
  queries: QueryCounter;
  /** Every message in this app's own outbox directory, oldest first, once deliveries in flight have finished. */
  outbox(): Promise<OutboxMessage[]>;
  /**
   * Starts a graphile-worker runner in this process over the app's database, with the app's
   * configuration and resolver (stopped by close()).
   */
  startWorker(): Promise<Runner>;
  /** Waits for background work (code and link deliveries) started so far. */
  settled(): Promise<void>;
  /**
   * Sends a request as a browser would, with the session token when given; with `apiKey`, as an
   * integration would: X-API-Key and no User-Agent.
   */
  request(options: InjectOptions & { token?: string; apiKey?: string }): Promise<LightMyRequestResponse>;
  /** Sends a GraphQL operation with a session token or an API key; returns the parsed body and status. */
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    credential?: string | { apiKey: string },
  ): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }>; statusCode: number }>;
  close(): Promise<void>;
}

/**
 * Builds the real app (buildApp) over a fresh database cloned from the migrated template, with its
 * own outbox directory. The bot-check is `off` unless `env` says otherwise; `fetch` replaces
 * outbound calls to third parties (Turnstile, an SMS gateway).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: {
    fetch?: typeof fetch;
    logStream?: { write(line: string): void };
    /** Rate-limit key prefix; apps given the same one (and one Redis) share every budget. */
    rateLimitNamespace?: string;
    /** How long a looked-up API key is trusted (the app's default when absent). */
    apiKeyCacheTtlMs?: number;
    /** Another app's database, to run a second instance over the same data (it is not dropped here). */
    sharedDatabase?: TestDatabase;
    /** In-process rate-limit counters even when REDIS_URL is set (tests that move the clock). */
    inProcessLimits?: boolean;
    /** Resolves webhook target host names (the system resolver when absent). */
    resolveHost?: HostResolver;
  } = {},
): Promise<TestApp> {
  const db = options.sharedDatabase ?? (await createTestDatabase());
  const queries = new QueryCounter();
  const orm = await openOrm(db.url, {
    debug: ['query'],
    logger: (message: string) => queries.record(message),
    pool: { min: 0, max: 5 },
  });
  const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'sd-test-outbox-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(os.tmpdir(), 'sd-test-data'),
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    CHALLENGE_PROVIDER: 'off',
    OUTBOX_DIR: outboxDir,
    // Suites send hundreds of requests as one caller; the rate-limit suites set the real values.
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_PER_HOUR: '1000000',
    // Likewise the GraphQL cost budget refills at once; the cost-budget suite sets real values.
    GRAPHQL_COST_RESTORE_RATE: '1000000000',
    ...env,
  });
  const redis = process.env.REDIS_URL && !options.inProcessLimits ? new Redis(process.env.REDIS_URL) : undefined;
  const app = await buildApp({
    config,
    orm,
    secrets: secretsFrom(config.jwtSecret!),
    redis,
    rateLimitNamespace: options.rateLimitNamespace ?? `test-${randomBytes(6).toString('hex')}`,
    apiKeyCacheTtlMs: options.apiKeyCacheTtlMs,
    resolveHost: options.resolveHost,
    silent: !options.logStream,
    logStream: options.logStream,
    fetch: options.fetch,
  });
  await app.ready();

  const workers: Runner[] = [];
  const request: TestApp['request'] = ({ token, apiKey, headers, ...options }) =>
    app.inject({
      ...options,
      headers: {
        ...(apiKey === undefined ? { 'user-agent': BROWSER_AGENT } : { 'x-api-key': apiKey }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
    });

  return {
    app,
    orm,
    config,
    db,
    queries,
    request,
    settled: () => app.services.background.settled(),
    async startWorker() {
      const deps = taskDepsOf({ config, secrets: secretsFrom(config.jwtSecret!), orm, resolveHost: options.resolveHost });
      const runner = await startWorker({ connectionString: db.url, concurrency: 4, deps });
      workers.push(runner);
      return runner;
    },
    async outbox() {
      await app.services.background.settled();
      return readdirSync(config.outboxDir)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => JSON.parse(readFileSync(path.join(config.outboxDir, name), 'utf8')) as OutboxMessage);
    },
    async graphql(query, variables, credential) {
      const auth = typeof credential === 'object' ? { apiKey: credential.apiKey } : { token: credential };
      const res = await request({ method: 'POST', url: '/graphql', ...auth, payload: { query, variables } });
      return { ...res.json(), statusCode: res.statusCode };
    },
    async close() {
      for (const runner of workers) await runner.stop();
      await app.close();
      await orm.close();
      redis?.disconnect();
      if (!options.sharedDatabase) await db.drop();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

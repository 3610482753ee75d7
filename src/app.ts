import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import { admission, contextPlugin } from './context/context.plugin';
import { answerMalformedUrl, type Charge } from './context/malformed-url';
import { registerLimits } from './context/rate-limits';
import { requestLogSerializer } from './context/request-log';
import { isDatabaseReady } from './db/orm';
import { AppError } from './errors/app-error';
import { answerFor } from './errors/error-response';
import { inProcessCostBudget, redisCostBudget } from './graphql/cost-budget';
import { graphqlPlugin } from './graphql/graphql.plugin';
import { serializersBuiltOnFirstCall } from './http/serializer-compiler';
import { createValidatorCompiler } from './http/validator-compiler';
import { acceptEmptyBodiesWhereNoneIsTaken } from './http/json-body';
import type { Secrets } from './secrets';
import type { HostResolver } from './domains/webhooks/target-guard';
import { domainLoaders } from './domains';
import { createServices, type AppServices } from './services';
import { restShim } from '../rest-shim';
import { errorBody } from '../rest-shim/envelope';
import { apiDocsPlugin } from '../rest-shim/api-docs';

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

/** What the application needs from its runtime. */
export interface AppDependencies {
  config: Config;
  orm: MikroORM;
  secrets: Secrets;
  /** Shared rate-limit store; in-process counters when absent. */
  redis?: Redis;
  /** Prefix of rate-limit keys, so test apps sharing one Redis do not share budgets. */
  rateLimitNamespace?: string;
  /** Outbound HTTP to third parties (bot-check verification, SMS gateway); tests substitute it. */
  fetch?: typeof fetch;
  /** Log destination (tests capture lines here); standard output when absent. */
  logStream?: { write(line: string): void };
  /** Resolves webhook target host names (the system resolver when absent); tests substitute it. */
  resolveHost?: HostResolver;
  /** How long a looked-up API key is trusted (default KEY_CACHE_TTL_MS); tests shorten it. */
  apiKeyCacheTtlMs?: number;
  /** No logging at all (tests that do not look at logs). */
  silent?: boolean;
}

/** Builds the Fastify instance with the REST shim, GraphQL, docs and probes. Does not listen. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  let chargeMalformed: Charge | undefined;
  const app = Fastify({
    logger: deps.silent
      ? false
      : { level: deps.config.logLevel, serializers: { req: requestLogSerializer }, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    // One access line per request, written when it is answered (below), instead of Fastify's two:
    // each line is a write to stdout, and on a busy list endpoint a second one costs throughput.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: deps.config.trustProxy as boolean | string | undefined,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: () => `req_${randomUUID().replace(/-/g, '')}`,
    // A URL Fastify cannot decode never reaches a route or hook: answer it in the envelope too,
    // charged to the caller's budgets (set below, once they exist). (The only framework errors
    // this app can meet: no route has an async constraint.)
    frameworkErrors: (_err, request, reply) => void answerMalformedUrl(request as FastifyRequest, reply as FastifyReply, chargeMalformed),
    schemaController: { compilersFactory: { buildSerializer: serializersBuiltOnFirstCall } },
  });
  app.setValidatorCompiler(createValidatorCompiler());
  app.decorate('services', createServices({ ...deps, log: app.log }));
  app.addHook('onClose', () => app.services.background.settled());
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = await isDatabaseReady(deps.orm);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable' });
  });

  await app.register(apiDocsPlugin);
  await app.register(async (api) => {
    // A JSON API: every body that is not JSON is refused with 415.
    api.removeContentTypeParser('text/plain');
    acceptEmptyBodiesWhereNoneIsTaken(api);
    api.setErrorHandler((err, request, reply) => {
      const answer = answerFor(err);
      if (answer.status >= 500) request.log.error({ err }, 'request failed');
      if (request.routeOptions.url === '/graphql') {
        return reply.code(answer.status).send({ errors: [{ message: answer.message, extensions: { code: answer.code } }] });
      }
      return reply.code(answer.status).send(errorBody(answer.status, answer.message, answer.errors));
    });
    const limits = await registerLimits(api, { config: deps.config, redis: deps.redis, namespace: deps.rateLimitNamespace ?? 'sd' });
    const contextOptions = { orm: deps.orm, sessions: app.services.sessions, apiKeys: app.services.apiKeyAuthenticator, limits };
    await api.register(contextPlugin, contextOptions);
    const admit = admission(contextOptions);
    chargeMalformed = (request, reply) => admit(request, reply, deps.orm.em.fork());
    // Unknown paths outside /api/v1 (PUT /graphql, /api/v2/...) pass the same hook and answer 404 in the envelope.
    api.setNotFoundHandler(async (request) => {
      throw new AppError('NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
    });
    await api.register(restShim, { prefix: '/api/v1' });
    // As many GraphQL operations at a time as the pool has connections (knex's default is 10).
    const concurrentOperations = deps.orm.config.get('pool')?.max ?? 10;
    const namespace = deps.rateLimitNamespace ?? 'sd';
    // The cost budgets live where the rate limits' counters do: Redis (every instance) or this process.
    const costBudget = deps.redis ? redisCostBudget(deps.redis, namespace, deps.config.graphqlCost) : inProcessCostBudget(deps.config.graphqlCost);
    await api.register(graphqlPlugin, { services: app.services, loaders: domainLoaders(), limits, costBudget, concurrentOperations });
  });
  return app;
}

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../errors/app-error';

/** Spends one unit of a budget for this request; throws RateLimitedError (429, Retry-After) when spent. */
export type Limiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Budgets shared by the REST and GraphQL doors to the same operation. */
export interface Limits {
  /** Self-service signup: 5 per hour per client address. */
  signup: Limiter;
}

/** Sign-ups allowed per client address per hour. */
export const SIGNUP_LIMIT = { max: 5, timeWindow: 60 * 60 * 1000 };

/**
 * Registers @fastify/rate-limit on the API scope (Redis-backed when a client is given, else in
 * process) and returns the named budgets. One limiter per operation, called from both adapters,
 * so REST and GraphQL draw on the same counter.
 */
export async function registerLimits(app: FastifyInstance, opts: { redis?: Redis; namespace: string }): Promise<Limits> {
  await app.register(rateLimit, {
    global: false,
    redis: opts.redis,
    nameSpace: `${opts.namespace}:rl:`,
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.ceil(context.ttl / 1000)),
  });
  const limiter = (name: string, budget: { max: number; timeWindow: number }): Limiter => {
    const check = app.createRateLimit({ ...budget, keyGenerator: (request) => `${name}:${request.ip}` });
    return async (request, reply) => {
      const result = await check(request);
      if (result.isAllowed) return; // an allow-listed key
      reply.header('x-ratelimit-limit', result.max);
      reply.header('x-ratelimit-remaining', result.remaining);
      if (!result.isExceeded) return;
      reply.header('retry-after', result.ttlInSeconds);
      throw new RateLimitedError(result.ttlInSeconds);
    };
  };
  return { signup: limiter('signup', SIGNUP_LIMIT) };
}

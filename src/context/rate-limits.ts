import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../errors/app-error';
import { compactPhone } from '../shared/rules';

/** Spends one unit of a budget for this request; throws RateLimitedError (429, Retry-After) when spent. */
export type Limiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Like Limiter, for budgets keyed on something the request names (the account signing in). */
export type KeyedLimiter = (request: FastifyRequest, reply: FastifyReply, key: string) => Promise<void>;

/** Budgets shared by the REST and GraphQL doors to the same operation. */
export interface Limits {
  /** Self-service signup: 5 per hour per client address. */
  signup: Limiter;
  /**
   * Sign-in attempts: 20 per 15 minutes per target account, whatever the address, so spreading
   * guesses over many addresses does not help. Key with `accountKey`.
   */
  signIn: KeyedLimiter;
}

/** Sign-ups allowed per client address per hour. */
export const SIGNUP_LIMIT = { max: 5, timeWindow: 60 * 60 * 1000 };
/** Sign-in attempts (password, OTP request and verification, magic-link request) per account per 15 minutes. */
export const SIGN_IN_LIMIT = { max: 20, timeWindow: 15 * 60 * 1000 };

/**
 * The budget key of the account a sign-in request targets: the e-mail address (case-folded) or
 * the phone number (spacing removed), so every spelling of one account shares one budget.
 */
export function accountKey(target: { email: string } | { phone: string } | { userId: number }): string {
  if ('email' in target) return `email:${target.email.trim().toLowerCase()}`;
  if ('phone' in target) return `phone:${compactPhone(target.phone)}`;
  return `user:${target.userId}`;
}

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
    // Without Redis the in-process store keeps this many keys (least recently used go first);
    // the default 5,000 would let a flood of made-up accounts evict a real account's count.
    cache: 100_000,
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.ceil(context.ttl / 1000)),
  });
  // The key of a keyed budget travels with the request into @fastify/rate-limit's keyGenerator.
  const requestKeys = new WeakMap<FastifyRequest, string>();
  const limiter = (budget: { max: number; timeWindow: number }, keyOf: (request: FastifyRequest) => string): Limiter => {
    const check = app.createRateLimit({ ...budget, keyGenerator: keyOf });
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
  const signIn = limiter(SIGN_IN_LIMIT, (request) => `sign-in:${requestKeys.get(request)}`);
  return {
    signup: limiter(SIGNUP_LIMIT, (request) => `signup:${request.ip}`),
    signIn: async (request, reply, key) => {
      requestKeys.set(request, key);
      await signIn(request, reply);
    },
  };
}

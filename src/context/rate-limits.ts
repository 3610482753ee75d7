import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { RateLimitedError } from '../errors/app-error';
import { compactPhone } from '../validation/rules';
import type { Principal } from './request-context';

/** One counting window of a budget. */
export interface Window {
  max: number;
  /** Milliseconds. */
  timeWindow: number;
}

const MINUTE = 60_000;
/** Keys each in-process limiter remembers (without Redis). */
export const IN_PROCESS_KEYS = 100_000;
const HOUR = 60 * MINUTE;

/** The budgets of the interface's Limits table; each is spent in every one of its windows. */
export function budgetsOf(config: Pick<Config, 'rateLimit'>) {
  return {
    /** Every request under /api/v1 and /graphql, per caller (see `callerKey`). */
    general: [
      { max: config.rateLimit.perMinute, timeWindow: MINUTE },
      { max: config.rateLimit.perHour, timeWindow: HOUR },
    ],
    /** /exports/*, per caller, on top of the general budget. */
    exports: [
      { max: 5, timeWindow: MINUTE },
      { max: 50, timeWindow: HOUR },
    ],
    /** /reports/*, per caller, on top of the general budget. */
    reports: [
      { max: 20, timeWindow: MINUTE },
      { max: 200, timeWindow: HOUR },
    ],
    /** Self-service signup, per client address. */
    signup: [{ max: 5, timeWindow: HOUR }],
    /**
     * Sign-in attempts (password, OTP request and verification, magic-link request, password
     * change) per target account, whatever the address: key with `accountKey`.
     */
    signIn: [{ max: 20, timeWindow: 15 * MINUTE }],
    /** Unknown, revoked or expired API keys per client address; when spent, every key request from it is 429. */
    badKey: [{ max: 30, timeWindow: 15 * MINUTE }],
  } satisfies Record<string, Window[]>;
}

export type BudgetName = keyof ReturnType<typeof budgetsOf>;

/** What a 429 says, where the generic words would not explain it. */
const SPENT_MESSAGES: Partial<Record<BudgetName, string>> = {
  badKey: 'Too many invalid API keys from this address; try again later',
};

/**
 * Budgets shared by the REST and GraphQL doors (and by every instance when Redis is used).
 * Each call reports the tightest window in X-RateLimit-Limit / -Remaining / -Reset (keeping
 * an earlier budget's figures when they are tighter) and answers 429 with Retry-After when spent.
 */
export interface Limits {
  /** Spends one request of `budget` under `key`. */
  spend(request: FastifyRequest, reply: FastifyReply, budget: BudgetName, key: string): Promise<void>;
  /** 429 when `budget` under `key` is used up; spends nothing. */
  assertNotSpent(request: FastifyRequest, reply: FastifyReply, budget: BudgetName, key: string): Promise<void>;
}

/** The general budget's key: the API key, else the signed-in user, else the client address. */
export function callerKey(principal: Principal | null, clientIp: string): string {
  if (principal?.kind === 'apiKey') return `key:${principal.apiKeyId}`;
  if (principal?.kind === 'session') return `user:${principal.userId}`;
  return `ip:${clientIp}`;
}

/**
 * The key a budget counts under when nothing of the input names it: the client address for signup
 * and bad keys, the caller for the rest. (Sign-in budgets are keyed on the target account: `accountKey`.)
 */
export function budgetKey(budget: BudgetName, caller: { principal: Principal | null; clientIp: string }): string {
  if (budget === 'signIn') throw new Error('The sign-in budget is keyed on the target account: declare its key');
  if (budget === 'signup' || budget === 'badKey') return `ip:${caller.clientIp}`;
  return callerKey(caller.principal, caller.clientIp);
}

/**
 * The budget key of the account a sign-in request targets: the e-mail address (case-folded) or
 * the phone number (spacing removed), so every spelling of one account shares one budget.
 */
export function accountKey(target: { email: string } | { phone: string } | { userId: number }): string {
  if ('email' in target) return `email:${target.email.trim().toLowerCase()}`;
  if ('phone' in target) return `phone:${compactPhone(target.phone)}`;
  return `user:${target.userId}`;
}

interface WindowState {
  max: number;
  remaining: number;
  /** Seconds until the window starts over (rounded up). */
  resetSeconds: number;
  retryAfterSeconds: number;
  exceeded: boolean;
}

/**
 * Writes the rate-limit headers of one window (its limit, what remains, and the seconds until it
 * starts over, as integrators expect beside the other two) unless the reply already reports a
 * tighter window.
 */
function report(reply: FastifyReply, state: WindowState): void {
  const shown = reply.getHeader('x-ratelimit-remaining');
  if (shown !== undefined && Number(shown) < state.remaining) return;
  reply.header('x-ratelimit-limit', state.max);
  reply.header('x-ratelimit-remaining', state.remaining);
  reply.header('x-ratelimit-reset', state.resetSeconds);
}

/**
 * Registers @fastify/rate-limit on the API scope (Redis-backed when a client is given, else in
 * process) and returns the budgets of `budgetsOf(config)`.
 */
export async function registerLimits(
  app: FastifyInstance,
  opts: { config: Pick<Config, 'rateLimit'>; redis?: Redis; namespace: string },
): Promise<Limits> {
  await app.register(rateLimit, { global: false, redis: opts.redis, nameSpace: `${opts.namespace}:rl:` });
  // @fastify/rate-limit derives keys from the request alone: the key of each call travels
  // beside the request, read synchronously when the check starts.
  const callKeys = new WeakMap<FastifyRequest, string>();
  const checkersOf = (name: string, windows: Window[]) =>
    windows.map((window, i) => {
      // `cache` is honoured by createRateLimit though its typings omit it.
      const options: Parameters<typeof app.createRateLimit>[0] & { cache: number } = {
        ...window,
        keyGenerator: (request) => `${name}:${i}:${callKeys.get(request)}`,
        // Each limiter has its own in-process store (without Redis) holding this many keys, least
        // recently used first out: the default 5,000 would let a flood of made-up accounts or
        // addresses evict a real one's count.
        cache: IN_PROCESS_KEYS,
      };
      const check = app.createRateLimit(options);
      return async (request: FastifyRequest, key: string, increment: boolean): Promise<WindowState> => {
        callKeys.set(request, key);
        const result = await check(request, { increment });
        if (result.isAllowed) return { max: Infinity, remaining: Infinity, resetSeconds: 0, retryAfterSeconds: 0, exceeded: false };
        const exceeded = increment ? result.isExceeded : result.remaining === 0;
        const resetSeconds = result.ttlInSeconds;
        return { max: result.max, remaining: result.remaining, resetSeconds, retryAfterSeconds: Math.max(1, resetSeconds), exceeded };
      };
    });
  const checkers = Object.fromEntries(
    Object.entries(budgetsOf(opts.config)).map(([name, windows]) => [name, checkersOf(name, windows)]),
  ) as Record<BudgetName, ReturnType<typeof checkersOf>>;

  const apply = async (request: FastifyRequest, reply: FastifyReply, budget: BudgetName, key: string, increment: boolean) => {
    const states = await Promise.all(checkers[budget].map((check) => check(request, key, increment)));
    const exceeded = states.filter((s) => s.exceeded);
    // A look that spends nothing is only reported when it refuses.
    if (increment || exceeded.length > 0) {
      report(reply, states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.max < a.max) ? b : a)));
    }
    if (exceeded.length === 0) return;
    const retryAfter = Math.max(...exceeded.map((s) => s.retryAfterSeconds));
    reply.header('retry-after', retryAfter);
    throw new RateLimitedError(retryAfter, SPENT_MESSAGES[budget]);
  };
  return {
    spend: (request, reply, budget, key) => apply(request, reply, budget, key, true),
    assertNotSpent: (request, reply, budget, key) => apply(request, reply, budget, key, false),
  };
}

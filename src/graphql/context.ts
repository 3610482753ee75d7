import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context/request-context';
import type { Limits } from '../context/rate-limits';
import type { Services } from '../services';
import { createLoaders, type Loaders } from './loaders';

/** What every resolver receives: the shared request context, the services and per-request loaders. */
export interface GraphqlContext {
  ctx: RequestContext;
  services: Services;
  loaders: Loaders;
  /** The request's logger (carries the request id). */
  log: FastifyBaseLogger;
  /** Spends one unit of a budget for this request (429 when spent); sign-in budgets are keyed on the account. */
  spend(limit: 'signup'): Promise<void>;
  spend(limit: 'signIn', key: string): Promise<void>;
}

/** Builds the GraphQL context from the request context the Fastify hook made. */
export function graphqlContext(request: FastifyRequest, reply: FastifyReply, services: Services, limits: Limits): GraphqlContext {
  return {
    ctx: request.ctx,
    services,
    loaders: createLoaders(request.ctx.em),
    log: request.log,
    spend: (limit: keyof Limits, key?: string) => (limit === 'signIn' ? limits.signIn(request, reply, key!) : limits.signup(request, reply)),
  };
}

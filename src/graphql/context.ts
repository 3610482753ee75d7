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
  /** Spends one unit of a named budget for this request (429 when spent). */
  spend(limit: keyof Limits): Promise<void>;
}

/** Builds the GraphQL context from the request context the Fastify hook made. */
export function graphqlContext(request: FastifyRequest, reply: FastifyReply, services: Services, limits: Limits): GraphqlContext {
  return {
    ctx: request.ctx,
    services,
    loaders: createLoaders(request.ctx.em),
    log: request.log,
    spend: (limit) => limits[limit](request, reply),
  };
}

import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context/request-context';
import type { RecordSelection } from '../db/entity-records';
import { spendBudget, type BudgetDeclaration } from '../context/budgets';
import type { Limits } from '../context/rate-limits';
import { requestBaseUrl } from '../context/request-base-url';
import type { Services } from '../services';
import { createLoaders, type Loaders } from './loaders';

/** What every resolver receives: the shared request context, the services and per-request loaders. */
export interface GraphqlContext {
  ctx: RequestContext;
  services: Services;
  loaders: Loaders;
  /**
   * What the operation asks for, once Apollo has resolved it: `selection`, the fields it selects of
   * each type, which the records it reads need (set by fieldSelectionPlugin before any resolver
   * runs; records hold every property without it). An object of its own: Apollo runs each
   * operation on a shallow copy of this context, and the loaders made with it must see the same.
   */
  operation: { selection?: RecordSelection };
  /** The request's logger (carries the request id). */
  log: FastifyBaseLogger;
  /** The base URL the request reached the service at (absolute links when PUBLIC_API_URL is unset); 400 for a host that is none. */
  requestBaseUrl(): string;
  /** Spends one request of the budget an operation declares (`@Budget`), keyed on its arguments; 429 when spent. */
  spendBudget(declaration: BudgetDeclaration, args: unknown): Promise<void>;
}

/** Builds the GraphQL context from the request context the Fastify hook made. */
export function graphqlContext(request: FastifyRequest, reply: FastifyReply, services: Services, limits: Limits): GraphqlContext {
  const operation: GraphqlContext['operation'] = {};
  return {
    ctx: request.ctx,
    services,
    loaders: createLoaders(request.ctx, services, () => operation.selection),
    operation,
    log: request.log,
    requestBaseUrl: () => requestBaseUrl(request),
    spendBudget: (declaration, args) => spendBudget(limits, request, reply, declaration, request.ctx, args),
  };
}

import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context/request-context';
import type { RowColumns } from '../db/entity-rows';
import { spendBudget, type BudgetDeclaration } from '../context/budgets';
import type { Limits } from '../context/rate-limits';
import { requestBaseUrl } from '../context/request-base-url';
import type { LoaderFactory, Loaders, Services } from '../domains/domain-module';
import { createLoaders, type FieldSelection } from './loaders';

/** What every resolver receives: the shared request context, the services and per-request loaders. */
export interface GraphqlContext {
  ctx: RequestContext;
  services: Services;
  loaders: Loaders;
  /**
   * What the operation asks for, once Apollo has resolved it: `fields`, the fields it selects of
   * each type, and `columns`, the columns the rows it reads need for them (set by
   * fieldSelectionPlugin before any resolver runs; rows hold every column without it). An object
   * of its own: Apollo runs each operation on a shallow copy of this context, and the loaders made
   * with it must see the same.
   */
  operation: { fields?: FieldSelection; columns?: RowColumns };
  /** The request's logger (carries the request id). */
  log: FastifyBaseLogger;
  /** The base URL the request reached the service at (absolute links when PUBLIC_API_URL is unset); 400 for a host that is none. */
  requestBaseUrl(): string;
  /** Spends one request of the budget an operation declares (`@Budget`), keyed on its arguments; 429 when spent. */
  spendBudget(declaration: BudgetDeclaration, args: unknown): Promise<void>;
}

/** Builds the GraphQL context from the request context the Fastify hook made. */
export function graphqlContext(request: FastifyRequest, reply: FastifyReply, services: Services, limits: Limits, loaders: readonly LoaderFactory[]): GraphqlContext {
  const operation: GraphqlContext['operation'] = {};
  return {
    ctx: request.ctx,
    services,
    loaders: createLoaders({ ctx: request.ctx, services, columns: () => operation.columns }, loaders),
    operation,
    log: request.log,
    requestBaseUrl: () => requestBaseUrl(request),
    spendBudget: (declaration, args) => spendBudget(limits, request, reply, declaration, request.ctx, args),
  };
}

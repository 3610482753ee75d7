import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { callerKey } from '../context/rate-limits';
import { actualCostOf } from './actual-cost';
import type { GraphqlContext } from './context';
import type { CostBudget, ThrottleStatus } from './cost-budget';
import type { Slots } from '../concurrency/slots';
import { estimatorOf, HEAVY_OPERATION_COST, MAX_QUERY_COMPLEXITY } from './limits';
import { tooComplex } from './operation-shape';
import { workspaceShareOf } from './workspace-share';

/** `extensions.cost` of every GraphQL response, in Shopify's shape. */
export interface CostReport {
  requestedQueryCost: number;
  actualQueryCost: number;
  throttleStatus: ThrottleStatus;
}

/**
 * Prices each operation before it runs and charges its caller's cost budget:
 * - an estimate above MAX_QUERY_COMPLEXITY is refused (400, QUERY_TOO_COMPLEX);
 * - the estimate is taken from the caller's bucket (the API key, else the signed-in user, else the
 *   client address, as the rate limits key them); a bucket holding less answers 429 RATE_LIMITED
 *   with Retry-After, before any resolver runs;
 * - once it ran, the actual cost (what the answer holds: list lengths, not limits) replaces the
 *   estimate: the difference goes back to the bucket, or is taken from it;
 * - every response reports `extensions.cost`. A request refused before it was priced (a parse or
 *   validation error) costs 0 and reports the bucket as it stands;
 * - an operation estimated at HEAVY_OPERATION_COST or more waits for a slot of `heavyOperations`
 *   in its workspace's share before it executes, and frees it once executed.
 */
export function costPlugin(schema: GraphQLSchema, budget: CostBudget, heavyOperations: Slots): ApolloServerPlugin<GraphqlContext> {
  const estimate = estimatorOf(schema);
  const actualCost = actualCostOf(schema);
  return {
    async requestDidStart({ contextValue }) {
      const key = callerKey(contextValue.ctx.principal, contextValue.ctx.clientIp);
      let requested = 0;
      let charged = false;
      let status: ThrottleStatus | undefined;
      // Another plugin may refuse the operation while the bucket is being charged (the hooks run
      // together): the answer waits for the charge, so what was taken is given back.
      let charging: Promise<unknown> | undefined;
      return {
        async didResolveOperation({ request, document, operation }) {
          // No operation to run (an unknown name, or several and none named): execution refuses it.
          if (!operation) return;
          try {
            requested = estimate(document, request.operationName, request.variables);
          } catch (err) {
            // Badly typed or missing variables: execution refuses them before any resolver runs,
            // as BAD_USER_INPUT with status 400; thrown from here they would become a 500.
            if (err instanceof GraphQLError && err.message.startsWith('Variable "$')) return;
            throw err;
          }
          if (requested > MAX_QUERY_COMPLEXITY) {
            throw tooComplex(`Query is too complex: ${requested}, the maximum is ${MAX_QUERY_COMPLEXITY}`);
          }
          const take = budget.take(key, requested);
          charging = take;
          const taken = await take;
          status = taken.status;
          charged = taken.taken;
          if (!taken.taken) {
            throw new GraphQLError(
              `Query cost ${requested} exceeds the ${taken.status.currentlyAvailable} available of the caller's cost budget (restores ${taken.status.restoreRate} a second); try again in ${taken.retryAfterSeconds} s`,
              { extensions: { code: 'RATE_LIMITED', http: { status: 429, headers: new HeaderMap([['retry-after', String(taken.retryAfterSeconds)]]) } } },
            );
          }
        },
        // Called once every check has passed and the cost is charged, just before the executor: a
        // request waiting here holds its context and parsed document, but no resolver has run and
        // no row is read yet. The slot is freed as soon as execution ends, before the answer is sent.
        async executionDidStart({ contextValue }) {
          if (requested < HEAVY_OPERATION_COST) return;
          const release = await heavyOperations.acquire(workspaceShareOf(contextValue.ctx));
          return {
            async executionDidEnd() {
              release();
            },
          };
        },
        async willSendResponse({ response, operation, document, request }) {
          await charging?.catch(() => undefined);
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          let actual = 0;
          if (charged && operation && document) {
            const failed = new Set((result.errors ?? []).flatMap((e) => (e.path?.length === 1 ? [String(e.path[0])] : [])));
            actual = actualCost(document, operation, request.variables ?? {}, result.data, failed);
            if (actual !== requested) status = await budget.adjust(key, requested - actual);
          } else if (!charged) {
            // Refused by the budget (its status is known), or before it was priced.
            status ??= await budget.status(key);
          }
          const cost: CostReport = { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: status! };
          result.extensions = { ...result.extensions, cost };
        },
      };
    },
  };
}

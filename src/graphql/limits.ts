import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from '../shared/pagination';
import { perDocument } from './per-document';

export { MAX_QUERY_DEPTH, MAX_QUERY_FIELDS, MAX_QUERY_TOKENS } from './operation-shape';
/** Highest estimated cost a query may have (each field 1, lists by their limit argument). */
export const MAX_QUERY_COMPLEXITY = 5000;

/** Estimates kept per parsed query (one per operation and variables). */
const MAX_ESTIMATES_PER_DOCUMENT = 64;
/** Longer variables (large inputs) are estimated each time rather than kept as a key. */
const MAX_ESTIMATE_KEY_LENGTH = 512;

/**
 * The estimated cost of an operation with its variables. It depends on nothing else (the schema
 * is fixed), so the estimate of a query a client sends again and again (a dashboard's page) is
 * worked out once; about 2.5% of a nested order page's CPU.
 */
function estimatorOf(schema: GraphQLSchema) {
  const estimates = perDocument<string, number>(MAX_ESTIMATES_PER_DOCUMENT);
  return (document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined): number => {
    const estimate = () =>
      getComplexity({
        schema,
        operationName,
        query: document,
        variables,
        estimators: [
          fieldExtensionsEstimator(),
          ({ field, args, childComplexity }) => {
            // A paginated list (it takes `limit`) costs a full page even when no limit is sent.
            if (!field.args.some((arg) => arg.name === 'limit')) return undefined;
            const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_PAGE_SIZE;
            return limit * Math.max(childComplexity, 1);
          },
          simpleEstimator({ defaultComplexity: 1 }),
        ],
      });
    const key = JSON.stringify([operationName ?? null, variables ?? null]);
    return key.length <= MAX_ESTIMATE_KEY_LENGTH ? estimates(document, key, estimate) : estimate();
  };
}

/**
 * Refuses an operation whose estimated cost is above MAX_QUERY_COMPLEXITY. A list field costs
 * its children times its `limit` argument (default 20), so wide pages of deep trees are bounded.
 */
export function complexityPlugin(schema: GraphQLSchema): ApolloServerPlugin {
  const estimate = estimatorOf(schema);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation }) {
          // No operation to run (an unknown name, or several and none named): execution refuses it.
          if (!operation) return;
          let complexity: number;
          try {
            complexity = estimate(document, request.operationName, request.variables);
          } catch (err) {
            // Badly typed or missing variables: execution refuses them before any resolver runs,
            // as BAD_USER_INPUT with status 400; thrown from here they would become a 500.
            if (err instanceof GraphQLError && err.message.startsWith('Variable "$')) return;
            throw err;
          }
          if (complexity > MAX_QUERY_COMPLEXITY) {
            throw new GraphQLError(`Query is too complex: ${complexity}, the maximum is ${MAX_QUERY_COMPLEXITY}`, {
              // A refused request is the client's fault: 400, not the 500 Apollo gives plugin errors.
              extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import depthLimit from 'graphql-depth-limit';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';

/** Deepest selection a query may have. */
export const MAX_QUERY_DEPTH = 8;
/** Highest estimated cost a query may have (each field 1, lists by their limit argument). */
export const MAX_QUERY_COMPLEXITY = 5000;

/** Validation rule refusing queries nested deeper than MAX_QUERY_DEPTH. */
export const depthRule = depthLimit(MAX_QUERY_DEPTH);

/**
 * Refuses an operation whose estimated cost is above MAX_QUERY_COMPLEXITY. A list field costs
 * its children times its `limit` argument (default 20), so wide pages of deep trees are bounded.
 */
export function complexityPlugin(schema: GraphQLSchema): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const complexity = getComplexity({
            schema,
            operationName: request.operationName,
            query: document,
            variables: request.variables,
            estimators: [
              fieldExtensionsEstimator(),
              ({ args, childComplexity }) =>
                typeof args.limit === 'number' ? args.limit * Math.max(childComplexity, 1) : undefined,
              simpleEstimator({ defaultComplexity: 1 }),
            ],
          });
          if (complexity > MAX_QUERY_COMPLEXITY) {
            throw new GraphQLError(`Query is too complex: ${complexity}, the maximum is ${MAX_QUERY_COMPLEXITY}`, {
              extensions: { code: 'QUERY_TOO_COMPLEX' },
            });
          }
        },
      };
    },
  };
}

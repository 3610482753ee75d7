import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import depthLimit from 'graphql-depth-limit';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from '../shared/pagination';

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
          let complexity: number;
          try {
            complexity = getComplexity({
              schema,
              operationName: request.operationName,
              query: document,
              variables: request.variables,
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

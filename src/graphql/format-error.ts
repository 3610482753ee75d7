import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { AppError } from '../errors/app-error';
import { answerFor, type ErrorAnswer } from '../errors/error-response';
import type { GraphqlContext } from './context';

/** GraphQL spells fields in camelCase, as the services do: field paths are shown as they are. */
const asIs = (field: string) => field;

/**
 * What the client is told about one GraphQL error, or null for a parse or validation error of the
 * query itself (safe to show as Apollo made it).
 */
function answerForGraphqlError(error: unknown, code: unknown): ErrorAnswer | null {
  const original = unwrapResolverError(error);
  const hasOriginal = original !== error && original !== undefined && original !== null;
  if (!(original instanceof AppError) && !hasOriginal && code !== 'INTERNAL_SERVER_ERROR') return null;
  return answerFor(original, asIs);
}

/**
 * Every error leaves with a stable `extensions.code`: AppErrors carry their own, GraphQL's
 * validation errors keep Apollo's, and anything unexpected becomes a bare INTERNAL_SERVER_ERROR
 * with no stack trace or SQL.
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const code = formatted.extensions?.code ?? 'GRAPHQL_VALIDATION_FAILED';
  const answer = answerForGraphqlError(error, code);
  return {
    message: answer?.message ?? formatted.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: answer?.code ?? code },
  };
}

/** Logs the unexpected errors of an operation with the request id, as the REST error handler does. */
export const errorLoggingPlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ contextValue, errors }) {
        for (const error of errors) {
          const answer = answerForGraphqlError(error, error.extensions?.code);
          if (answer && answer.status >= 500) contextValue.log.error({ err: unwrapResolverError(error) }, 'GraphQL operation failed');
        }
      },
    };
  },
};

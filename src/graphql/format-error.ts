import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError } from '../errors/app-error';
import { answerFor, type ErrorAnswer } from '../errors/error-response';
import type { GraphqlContext } from './context';
import { MAX_QUERY_TOKENS } from './operation-shape';

/** graphql-js's words when parsing stops at `maxTokens` (16.x spells "more that"). */
const TOKEN_LIMIT_MESSAGE = /^Syntax Error: Document contains more tha[nt] \d+ tokens\. Parsing aborted\.$/;

/**
 * The code and words of a request Apollo refused before running it, where Apollo's own would
 * mislead: a document too large to parse or validate is QUERY_TOO_COMPLEX (Apollo would say
 * GRAPHQL_PARSE_FAILED, or GRAPHQL_VALIDATION_FAILED over our rule's code); a refusal Apollo made
 * with a 4xx status but no code (a persisted query whose hash does not match its text, an unknown
 * persisted-query version) is BAD_REQUEST, Apollo's code for a malformed request, where Apollo
 * would send its default INTERNAL_SERVER_ERROR.
 */
function refusalOf(error: unknown): { code: string; message?: string } | null {
  if (!(error instanceof GraphQLError)) return null;
  const original = error.originalError;
  if (original instanceof GraphQLError && original.extensions.code === 'QUERY_TOO_COMPLEX') return { code: 'QUERY_TOO_COMPLEX' };
  if (error.extensions.code === 'GRAPHQL_PARSE_FAILED' && TOKEN_LIMIT_MESSAGE.test(error.message)) {
    return { code: 'QUERY_TOO_COMPLEX', message: `Query is too complex: more than ${MAX_QUERY_TOKENS} tokens` };
  }
  const status = (error.extensions.http as { status?: number } | undefined)?.status;
  if (error.extensions.code === undefined && original === undefined && status !== undefined && status >= 400 && status < 500) {
    return { code: 'BAD_REQUEST' };
  }
  return null;
}

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
  const refusal = refusalOf(error);
  if (refusal) {
    return { message: refusal.message ?? formatted.message, locations: formatted.locations, extensions: { code: refusal.code } };
  }
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
          if (refusalOf(error)) continue;
          const answer = answerForGraphqlError(error, error.extensions?.code);
          if (answer && answer.status >= 500) contextValue.log.error({ err: unwrapResolverError(error) }, 'GraphQL operation failed');
        }
      },
    };
  },
};

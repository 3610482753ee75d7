import type { GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors/app-error';
import { answerFor } from '../errors/error-response';

/** GraphQL spells fields in camelCase, as the services do. */
const camelCase = (field: string) => field;

/**
 * Every error leaves with a stable `extensions.code`: AppErrors carry their own, GraphQL's
 * validation errors keep Apollo's, and anything unexpected is logged and becomes a bare
 * INTERNAL_SERVER_ERROR with no stack trace or SQL.
 */
export function formatGraphqlError(log: FastifyBaseLogger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const isOwn = original instanceof AppError;
    const hasOriginal = original !== error && original !== undefined && original !== null;
    const code = formatted.extensions?.code ?? 'GRAPHQL_VALIDATION_FAILED';
    if (!isOwn && !hasOriginal && code !== 'INTERNAL_SERVER_ERROR') {
      // A parse or validation error of the query itself: safe to show as Apollo made it.
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
    }
    const answer = answerFor(original, log, camelCase);
    return {
      message: answer.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: answer.code },
    };
  };
}

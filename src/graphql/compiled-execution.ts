import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, getVariableValues, GraphQLError, printSchema, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { perDocument } from './per-document';

/** Compiled operations kept per parsed query (a query names one or a few). */
const MAX_OPERATIONS_PER_DOCUMENT = 16;

/**
 * graphql-jit's errors lack what Apollo and our error formatting read on graphql-js's (an
 * `extensions` object, first of all); the same error as graphql-js would have made it.
 */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  // graphql-js gives every field error an original error, its own checks (a null in a non-null
  // field) a plain Error; graphql-jit leaves those without one.
  const original = error.originalError ?? new Error(error.message);
  const converted = new GraphQLError(error.message, {
    path: error.path,
    originalError: original,
    extensions: (original as { extensions?: Record<string, unknown> } | undefined)?.extensions,
  });
  (converted as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return converted;
}

/**
 * Executes operations with graphql-jit: each operation of a document is compiled once into plain
 * JavaScript, then run for every request that sends it again. Apollo still parses, validates and
 * runs every plugin; only execution changes. Apollo takes a custom executor only through its
 * gateway interface, so the schema is handed over that way (loaded once, never updated).
 */
export function compiledExecution(schema: GraphQLSchema): GatewayInterface {
  const compiled = perDocument<string | null, CompiledQuery | ExecutionResult>(MAX_OPERATIONS_PER_DOCUMENT);
  const executor: GatewayExecutor = async ({ document, operation, operationName, request, context }) => {
    // No operation of that name, or several and no name: graphql-js refuses it in its own words
    // before running anything, and Apollo answers those 400 (OPERATION_RESOLUTION_FAILURE).
    if (!operation) return execute({ schema, document, operationName: request.operationName, variableValues: request.variables }) as ExecutionResult;
    // Variables are checked by graphql-js itself first, so a bad one is refused in its words, which
    // Apollo recognises (400, BAD_USER_INPUT). The compiled query still gets them as sent: it
    // coerces them itself, and coerced values (an enum's internal value) are not input it accepts.
    const variables = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
    if (variables.errors) return { errors: variables.errors };
    const query = compiled(document, operationName, () => compileQuery(schema, document, operationName ?? undefined));
    if (!isCompiledQuery(query)) return query;
    const result = await query.query(undefined, context, request.variables ?? {});
    return result.errors ? { ...result, errors: result.errors.map(asGraphqlJsError) } : result;
  };
  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async stop() {},
  };
}

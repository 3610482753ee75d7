import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type GraphQLObjectType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { KeyScopePolicy } from '../domains/api-keys/api-key-scopes';
import { AppError, ForbiddenError } from '../errors/app-error';
import type { GraphqlContext } from './context';
import { KEY_READS_EXTENSION, ROUTE_GROUP_EXTENSION } from './route-group';

/** The root fields an operation selects, through fragments too (introspection fields left out). */
function rootFields(selectionSet: SelectionSetNode, fragments: Record<string, SelectionSetNode>, seen = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__') ? [] : [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, fragments, seen);
    const name = selection.name.value;
    if (seen.has(name) || !fragments[name]) return [];
    seen.add(name);
    return rootFields(fragments[name], fragments, seen);
  });
}

/**
 * Applies an API key's scopes to each GraphQL operation as the REST shim applies them to each
 * request: a query needs read, a mutation write (unless it is marked `readsOnly`, like
 * startExport, which reads as GET /exports does), and every root field's route group must be
 * open to the key. A refused operation answers 403 with no field resolved.
 */
export function keyScopesPlugin(schema: GraphQLSchema, policy: KeyScopePolicy): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation, document }) {
          const principal = contextValue.ctx.principal;
          if (principal?.kind !== 'apiKey' || !operation) return;
          const fragments = Object.fromEntries(
            document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet]] : [])),
          );
          const rootType = rootTypeOf(schema, operation);
          try {
            for (const field of rootFields(operation.selectionSet, fragments)) {
              // The operation is validated by now: every field exists. One without a group is closed to keys.
              const extensions = rootType?.getFields()[field]?.extensions ?? {};
              const group = extensions[ROUTE_GROUP_EXTENSION];
              if (typeof group !== 'string') throw new ForbiddenError(`API keys cannot use ${field}`);
              const reads = operation.operation === 'query' || extensions[KEY_READS_EXTENSION] === true;
              policy.assertMayReach(principal.scopes, group, reads ? 'read' : 'write');
            }
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            throw new GraphQLError(err.message, { extensions: { code: err.graphqlCode, http: { status: err.status } } });
          }
        },
      };
    },
  };
}

function rootTypeOf(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLObjectType | null | undefined {
  if (operation.operation === 'query') return schema.getQueryType();
  if (operation.operation === 'mutation') return schema.getMutationType();
  return schema.getSubscriptionType();
}

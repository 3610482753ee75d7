import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

/** Deepest selection a query may have (top-level fields are depth 0). */
export const MAX_QUERY_DEPTH = 8;
/** Most selections (fields and fragments) an operation may make, counted through every fragment spread. */
export const MAX_QUERY_FIELDS = 2000;
/** Most lexical tokens a document may have; parsing stops past it (graphql-js `maxTokens`). */
export const MAX_QUERY_TOKENS = 10_000;

/** What a refusal for size says and carries (QUERY_TOO_COMPLEX, HTTP 400). */
export function tooComplex(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
}

/**
 * Validation rule refusing operations nested deeper than MAX_QUERY_DEPTH (graphql-depth-limit's
 * rule and message) or making more than MAX_QUERY_FIELDS selections. Each operation is walked with
 * its fragments expanded, and the walk stops at the first selection past the limit, so its time is
 * bounded whatever the document: graphql-depth-limit walked every path, and a chain of 30 fragments
 * each spreading the next twice (a 2^30-field document of 200 tokens) held the event loop for minutes;
 * an unknown or cyclic fragment made it throw (a 500). Those are left to graphql-js's own rules here.
 */
export function operationShapeRule(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of context.getDocument().definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return {
    OperationDefinition(operation) {
      const name = operation.name?.value ?? '';
      let selections = 0;
      let tooDeep = false;
      const onPath = new Set<string>();
      // Returns false once the operation is refused, to stop the walk.
      const walk = (set: SelectionSetNode, depth: number): boolean => {
        for (const selection of set.selections) {
          if (++selections > MAX_QUERY_FIELDS) {
            context.reportError(tooComplex(`Query is too complex: more than ${MAX_QUERY_FIELDS} fields`));
            return false;
          }
          if (selection.kind === Kind.FIELD) {
            if (!selection.selectionSet) continue;
            // Introspection fields do not count for depth, as graphql-depth-limit had it (their
            // types nest deeply), but their selections count.
            if (selection.name.value.startsWith('__')) {
              if (!walk(selection.selectionSet, -Infinity)) return false;
              continue;
            }
            if (depth + 1 > MAX_QUERY_DEPTH) {
              if (!tooDeep) context.reportError(new GraphQLError(`'${name}' exceeds maximum operation depth of ${MAX_QUERY_DEPTH}`, { nodes: [selection] }));
              tooDeep = true;
              continue;
            }
            if (!walk(selection.selectionSet, depth + 1)) return false;
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            if (!walk(selection.selectionSet, depth)) return false;
          } else {
            const fragment = fragments.get(selection.name.value);
            if (!fragment || onPath.has(fragment.name.value)) continue;
            onPath.add(fragment.name.value);
            const going = walk(fragment.selectionSet, depth);
            onPath.delete(fragment.name.value);
            if (!going) return false;
          }
        }
        return true;
      };
      walk(operation.selectionSet, 0);
      return false;
    },
  };
}

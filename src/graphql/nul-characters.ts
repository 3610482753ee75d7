import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, visit, type ArgumentNode, type DocumentNode, type ValueNode } from 'graphql';
import { holdsNulCharacter, NUL_PROBLEM, nulCharacterPaths } from '../validation/nul-characters';
import type { GraphqlContext } from './context';

type Path = Array<string | number>;

/** `['input', 'items', 0, 'name']` → `input.items[0].name`, as GraphQL messages name fields. */
function fieldName(path: Path): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

/** The paths of the NUL-holding strings written in a literal value. */
function literalNulPaths(value: ValueNode, path: Path, found: Path[]): void {
  if (value.kind === Kind.STRING) {
    if (value.value.includes('\u0000')) found.push(path);
  } else if (value.kind === Kind.LIST) {
    value.values.forEach((item, i) => literalNulPaths(item, [...path, i], found));
  } else if (value.kind === Kind.OBJECT) {
    for (const field of value.fields) literalNulPaths(field.value, [...path, field.name.value], found);
  }
}

/**
 * Documents already looked at: Apollo hands the same parsed document to every request that sends
 * it, and a walk of a page's query is a measurable share of the page (BENCHMARKS.md, "Figures behind the code").
 */
const checkedDocuments = new WeakMap<DocumentNode, Path[]>();

/** Every string argument written in the document (field and directive arguments, variable defaults). */
function documentNulPaths(document: DocumentNode): Path[] {
  const known = checkedDocuments.get(document);
  if (known) return known;
  const found: Path[] = [];
  const checkArguments = (args: readonly ArgumentNode[] | undefined) => {
    for (const arg of args ?? []) literalNulPaths(arg.value, [arg.name.value], found);
  };
  visit(document, {
    Field: (node) => checkArguments(node.arguments),
    Directive: (node) => checkArguments(node.arguments),
    VariableDefinition: (node) => {
      if (node.defaultValue) literalNulPaths(node.defaultValue, [node.variable.name.value], found);
    },
  });
  checkedDocuments.set(document, found);
  return found;
}

/**
 * Refuses NUL characters (which PostgreSQL text cannot hold) in every string an operation brings,
 * written in the document or sent as a variable, before any resolver runs: BAD_USER_INPUT naming
 * the argument (or variable) path, HTTP 400. The REST door refuses them in its validator
 * (shared/validator-compiler.ts); this is the same rule at the GraphQL door.
 */
export const nulCharactersPlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ document, request }) {
        const variables = request.variables ?? {};
        const paths = [...documentNulPaths(document), ...(holdsNulCharacter(variables) ? nulCharacterPaths(variables) : [])];
        if (paths.length === 0) return;
        throw new GraphQLError(`${fieldName(paths[0])} ${NUL_PROBLEM}`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
      },
    };
  },
};

import {
  getNamedType,
  isCompositeType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { COST, ownCost } from './costs';

/**
 * What an operation really cost, by the same table as its estimate but counting what it returned:
 * each field in the answer costs its own cost once, and a list's elements each cost what they
 * select (the estimate took a page's `limit`, or an assumed length, instead). A field merged from
 * several selections (same response key) counts once, as it ran once; a field left out by
 * `@skip`/`@include` or under a null parent costs nothing.
 */
export function actualCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  data: unknown,
  /** The response keys of root fields that failed: they ran, so they are charged, though the answer lacks them. */
  failedRootKeys: ReadonlySet<string> = new Set(),
): number {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return 0;
  // The variables were checked before anything ran; arguments that still do not read are priced as absent.
  const argsOf = (field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> => {
    try {
      return getArgumentValues(field, node, variables);
    } catch {
      return {};
    }
  };

  /** The fields of `sets` by response key (a type condition never excludes here: every type is an object type). */
  const byResponseKey = (sets: SelectionSetNode[]): Map<string, FieldNode[]> => {
    const fields = new Map<string, FieldNode[]>();
    const add = (set: SelectionSetNode, onPath: Set<string>) => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          fields.set(key, [...(fields.get(key) ?? []), selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          add(selection.selectionSet, onPath);
        } else if (!onPath.has(selection.name.value) && fragments[selection.name.value]) {
          add(fragments[selection.name.value].selectionSet, new Set(onPath).add(selection.name.value));
        }
      }
    };
    for (const set of sets) add(set, new Set());
    return fields;
  };

  const costOf = (type: GraphQLObjectType, sets: SelectionSetNode[], value: unknown, isRoot = false): number => {
    if (!isRoot && (value === null || value === undefined)) return 0;
    if (Array.isArray(value)) return value.reduce((sum: number, element) => sum + costOf(type, sets, element), 0);
    const object = (value ?? {}) as Record<string, unknown>;
    let cost = 0;
    for (const [key, nodes] of byResponseKey(sets)) {
      if (!(key in object)) {
        const field = isRoot && failedRootKeys.has(key) ? type.getFields()[nodes[0].name.value] : undefined;
        if (field) cost += ownCost(field.extensions.complexity, argsOf(field, nodes[0]));
        continue;
      }
      const name = nodes[0].name.value;
      if (name === '__typename') {
        cost += 1;
        continue;
      }
      if (name === '__schema') {
        cost += COST.schemaIntrospection;
        continue;
      }
      const field = type.getFields()[name];
      if (!field) {
        cost += 1;
        continue;
      }
      cost += ownCost(field.extensions.complexity, argsOf(field, nodes[0]));
      const named = getNamedType(field.type);
      if (isCompositeType(named) && isObjectType(named)) {
        const childSets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
        cost += costOf(named, childSets, object[key]);
      }
    }
    return cost;
  };
  return costOf(root, [operation.selectionSet], data, true);
}

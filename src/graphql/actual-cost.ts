import {
  getNamedType,
  isCompositeType,
  isObjectType,
  Kind,
  type DocumentNode,
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
import { perDocument } from './per-document';

/** One response key of a selection: what it costs itself, and what each of its values selects. */
interface PlannedField {
  key: string;
  own: number;
  /** Whether a root field that failed (absent from the answer) is still charged: it ran. */
  chargedWhenFailed: boolean;
  children?: CostPlan;
}

/** The priced fields of one selection, by response key. */
type CostPlan = PlannedField[];

/** Plans kept per parsed query (one per operation and variables), as the estimates are. */
const MAX_PLANS_PER_DOCUMENT = 64;
/** Longer variables (large inputs) are planned each time rather than kept as a key. */
const MAX_PLAN_KEY_LENGTH = 512;

/**
 * What an operation's selections cost, worked out once per query and variables: the walk of each
 * answer then only adds up numbers (walking the selections for every row of a page cost more than
 * the page's own field resolvers).
 */
function planOf(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>, variables: Record<string, unknown>): CostPlan {
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

  const plan = (type: GraphQLObjectType, sets: SelectionSetNode[]): CostPlan =>
    [...byResponseKey(sets)].map(([key, nodes]): PlannedField => {
      const name = nodes[0].name.value;
      if (name === '__typename') return { key, own: 1, chargedWhenFailed: false };
      if (name === '__schema') return { key, own: COST.schemaIntrospection, chargedWhenFailed: false };
      const field = type.getFields()[name];
      if (!field) return { key, own: 1, chargedWhenFailed: false };
      const own = ownCost(field.extensions.complexity, argsOf(field, nodes[0]));
      const named = getNamedType(field.type);
      if (!isCompositeType(named) || !isObjectType(named)) return { key, own, chargedWhenFailed: true };
      const childSets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
      return { key, own, chargedWhenFailed: true, children: plan(named, childSets) };
    });

  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  return root ? plan(root, [operation.selectionSet]) : [];
}

/** What the answer's values cost by `plan`: lists by their elements, null values nothing. */
function costOf(plan: CostPlan, value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) {
    let sum = 0;
    for (const element of value) sum += costOf(plan, element);
    return sum;
  }
  const object = value as Record<string, unknown>;
  let cost = 0;
  for (const field of plan) {
    if (!(field.key in object)) continue;
    cost += field.own;
    if (field.children) cost += costOf(field.children, object[field.key]);
  }
  return cost;
}

/**
 * What an operation really cost, by the same table as its estimate but counting what it returned:
 * each field in the answer costs its own cost once, and a list's elements each cost what they
 * select (the estimate took a page's `limit`, or an assumed length, instead). A field merged from
 * several selections (same response key) counts once, as it ran once; a field left out by
 * `@skip`/`@include` or under a null parent costs nothing; a root field that failed ran, so it
 * costs its own cost though the answer lacks it.
 */
export function actualCostOf(schema: GraphQLSchema) {
  const plans = perDocument<string, CostPlan>(MAX_PLANS_PER_DOCUMENT);
  return (
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
    data: unknown,
    /** The response keys of root fields that failed. */
    failedRootKeys: ReadonlySet<string>,
  ): number => {
    const make = () => {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
      return planOf(schema, operation, fragments, variables);
    };
    const key = JSON.stringify([operation.name?.value ?? null, variables]);
    const plan = key.length <= MAX_PLAN_KEY_LENGTH ? plans(document, key, make) : make();
    let cost = costOf(plan, data ?? {});
    for (const field of plan) {
      if (field.chargedWhenFailed && failedRootKeys.has(field.key) && !(data !== null && typeof data === 'object' && field.key in data)) cost += field.own;
    }
    return cost;
  };
}

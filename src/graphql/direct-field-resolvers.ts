import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type ParamMetadata = NonNullable<ReturnType<typeof getMetadataStorage>['fieldResolvers'][number]['params']>[number];
type ParamValue = (source: unknown, context: unknown, info: unknown) => unknown;

/** Reads what a parameter takes from a resolver's arguments, for the kinds passed as they come. */
function valueOf(param: ParamMetadata): ParamValue | null {
  if (param.kind === 'root' && param.propertyName === undefined && param.getType === undefined) return (source) => source;
  if (param.kind === 'context' && param.propertyName === undefined) return (_source, context) => context;
  if (param.kind === 'info') return (_source, _context, info) => info;
  return null;
}

/**
 * The resolver that calls `method` of `instance` with `values`, one argument each. Two (the parent
 * and the context) is what field resolvers take here, so that case builds no array per call.
 */
function direct(instance: object, method: (...args: unknown[]) => unknown, values: ParamValue[]): GraphQLFieldResolver<unknown, unknown> {
  if (values.length === 2) {
    const [first, second] = values;
    return (source, _args, context, info) => method.call(instance, first(source, context, info), second(source, context, info));
  }
  return (source, _args, context, info) => method.apply(instance, values.map((value) => value(source, context, info)));
}

/** Resolvers set by callFieldResolversDirectly, to tell them from TypeGraphQL's. */
export const directResolvers = new WeakSet<GraphQLFieldResolver<unknown, unknown>>();

/**
 * Calls field resolvers (`@FieldResolver` methods of resolver classes) straight from `schema`,
 * without TypeGraphQL's handler, where that handler has nothing to do: no middleware, no
 * `@Authorized` (on the method or its class), and parameters that take the parent (`@Root()`),
 * the context (`@Ctx()`) or the info as they come. The handler sorts the parameter list and builds
 * arrays, closures and promises on every call (type-graphql issues #254 and #487); on the bench's
 * order page, whose 20 orders and 91 lines make 222 such calls, it allocated half of the request's
 * bytes (949 KB a request with it, 455 KB without). Others keep TypeGraphQL's handler.
 * TypeGraphQL's metadata is global: field resolvers of types not in `schema` are left alone.
 */
export function callFieldResolversDirectly(schema: GraphQLSchema): void {
  const storage = getMetadataStorage();
  const typeNames = new Map(storage.objectTypes.map((type) => [type.target, type.name]));
  const instances = new Map<Function, object>();
  for (const resolver of storage.fieldResolvers) {
    if (resolver.kind !== 'external' || (resolver.middlewares?.length ?? 0) > 0 || resolver.roles !== undefined) continue;
    const params = [...(resolver.params ?? [])].sort((a, b) => a.index - b.index);
    const values = params.map(valueOf);
    if (values.some((value) => value === null)) continue;
    const type = schema.getType(typeNames.get(resolver.getObjectType!()) ?? '');
    const field = isObjectType(type) ? type.getFields()[resolver.schemaName] : undefined;
    if (!field) continue;
    // TypeGraphQL's default container makes one instance of each resolver class; so does this.
    const target = resolver.target as new () => object;
    const instance = instances.get(target) ?? new target();
    instances.set(target, instance);
    const method = (instance as Record<string, (...args: unknown[]) => unknown>)[resolver.methodName];
    field.resolve = direct(instance, method, values as ParamValue[]);
    directResolvers.add(field.resolve);
  }
}

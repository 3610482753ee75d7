import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { FIXTURE_PASSWORD, hostileJson, hostileNumber, hostileString } from './hostile-values';
import { ID_NAME, type ValueSources } from './json-schema-values';
import type { FuzzRequest } from './rest-requests';

/** One root field: `query` or `mutation`, and the field. */
export interface GraphqlTarget {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
}

/** Every root field of Query and Mutation (a schema without subscriptions here). */
export function graphqlTargets(schema: GraphQLSchema): GraphqlTarget[] {
  const targets: GraphqlTarget[] = [];
  for (const [operation, type] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) targets.push({ operation, field });
  }
  return targets;
}

const INT_MAX = 2 ** 31 - 1;
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A value of the input type's shape (a scalar within its range, an enum value, an input object). */
function validInput(type: GraphQLInputType, name: string, sources: ValueSources, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return validInput(type.ofType, name, sources, depth);
  if (isListType(type)) return depth > 3 ? fc.constant([]) : fc.array(validInput(type.ofType, name, sources, depth + 1), { maxLength: 3 });
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
  if (isInputObjectType(type)) {
    if (depth > 3) return fc.constant({});
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      model[field.name] = validInput(field.type, field.name, sources, depth + 1);
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return fc.record(model, { requiredKeys: required });
  }
  switch (type.name) {
    case 'Int':
      return ID_NAME.test(name) && sources.existingIds.length > 0
        ? fc.oneof(fc.constantFrom(...sources.existingIds), fc.integer({ min: -INT_MAX - 1, max: INT_MAX }))
        : fc.oneof(fc.integer({ min: -INT_MAX - 1, max: INT_MAX }), fc.constantFrom(0, -1, 1, INT_MAX, -INT_MAX - 1, 100, 101));
    case 'Float':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, -1, 1e20, 1e308, -1e308, 91, -181));
    case 'Boolean':
      return fc.boolean();
    case 'DateTimeISO':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case 'JSONObject':
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    default:
      if (/date/i.test(name)) return fc.oneof(fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), hostileString);
      if (/password/i.test(name)) return fc.oneof(fc.constant(FIXTURE_PASSWORD), fc.string({ minLength: 8, maxLength: 20 }), hostileString);
      if (/email/i.test(name)) return fc.oneof(fc.emailAddress(), hostileString);
      if (/url/i.test(name)) return fc.constantFrom('https://hooks.fuzz.test/hook', 'https://nowhere.fuzz.test/', 'http://x', 'https://[::1]/');
      return fc.oneof(fc.string({ maxLength: 30 }), hostileString);
  }
}

/** A value that breaks the input type: another type, out of range, null where required, unknown fields. */
function brokenInput(type: GraphQLInputType, name: string, sources: ValueSources, depth = 0): fc.Arbitrary<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  const named = getNamedType(type);
  const options: fc.Arbitrary<unknown>[] = [hostileJson];
  if (isNonNullType(type)) options.push(fc.constant(null));
  if (isScalarType(named) && (named.name === 'Int' || named.name === 'Float')) options.push(hostileNumber);
  if (isScalarType(named) && (named.name === 'String' || named.name === 'ID')) options.push(hostileString);
  if (isInputObjectType(inner) && depth < 3) {
    const fields = Object.values(inner.getFields());
    // The valid shape with one field broken, with a required one missing, or with an unknown one added.
    options.push(
      fc
        .tuple(validInput(inner, name, sources, depth) as fc.Arbitrary<Record<string, unknown>>, fc.constantFrom(...fields))
        .chain(([value, field]) =>
          fc.oneof(
            brokenInput(field.type, field.name, sources, depth + 1).map((bad) => ({ ...value, [field.name]: bad })),
            fc.constant(Object.fromEntries(Object.entries(value).filter(([key]) => key !== field.name))),
            hostileJson.map((bad) => ({ ...value, unknownField: bad })),
          ),
        ),
    );
  }
  if (isListType(inner)) options.push(fc.array(brokenInput(inner.ofType, name, sources, depth + 1), { minLength: 1, maxLength: 3 }));
  return fc.oneof(...options);
}

/** The GraphQL literal of a JSON value, enum values bare where the type is an enum. */
function literal(value: unknown, type: GraphQLInputType): string {
  const named = getNamedType(type);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return isEnumType(named) && GRAPHQL_NAME.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(Object.is(value, -0) ? 0 : value) : '0';
  if (typeof value === 'boolean') return String(value);
  const itemType = isListType(isNonNullType(type) ? type.ofType : type) ? ((isNonNullType(type) ? type.ofType : type) as { ofType: GraphQLInputType }).ofType : type;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, itemType)).join(', ')}]`;
  const fields = isInputObjectType(named) ? named.getFields() : {};
  const entries = Object.entries(value as object).filter(([key]) => GRAPHQL_NAME.test(key));
  return `{${entries.map(([key, v]) => `${key}: ${literal(v, fields[key]?.type ?? type)}`).join(', ')}}`;
}

/** A selection set for the output type: every leaf field, and some object fields with theirs (depth at most 3). */
function selection(type: GraphQLOutputType, depth = 0): fc.Arbitrary<string> {
  const named = getNamedType(type);
  if (isLeafType(named)) return fc.constant('');
  if (!isObjectType(named)) return fc.constant('{ __typename }');
  const fields = Object.values(named.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined));
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type))).map((f) => f.name);
  const objects = depth >= 2 ? [] : fields.filter((f) => !isLeafType(getNamedType(f.type)));
  return fc
    .subarray(objects, { maxLength: Math.min(3, objects.length) })
    .chain((picked) => fc.tuple(...picked.map((f) => selection(f.type, depth + 1).map((sub) => `${f.name} ${sub}`))))
    .map((nested) => `{ __typename ${[...leaves, ...nested].join(' ')} }`);
}

/** A JSON body of a GraphQL POST, or a GET's query string. */
interface GraphqlPayload {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  extensions?: unknown;
}

/** A document of 12,000 aliases (built once): it must be refused in bounded time, never answered 500. */
const MANY_ALIASES = Object.fromEntries(
  (['query', 'mutation'] as const).map((op) => [op, `${op} { ${Array.from({ length: 12_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`]),
) as Record<'query' | 'mutation', string>;

const variableTypeOf = (arg: GraphQLArgument) => String(arg.type);

/**
 * Requests for one root field: its arguments as variables (valid-shaped or broken, required ones
 * sometimes missing, unknown ones added), or inline as literals, with generated selections; and a
 * few broken documents around the field (names of missing operations, two operations, syntax
 * errors, a persisted-query hash that does not match, many aliases).
 */
export function graphqlRequests(target: GraphqlTarget, sources: ValueSources): fc.Arbitrary<FuzzRequest> {
  const { field, operation } = target;
  const args = field.args;
  const varDefs = args.length > 0 ? `(${args.map((a) => `$${a.name}: ${variableTypeOf(a)}`).join(', ')})` : '';
  const argRefs = args.length > 0 ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const variableValues = (broken: boolean) =>
    fc.tuple(
      ...args.map((a) =>
        fc.option(broken ? fc.oneof(validInput(a.type, a.name, sources), brokenInput(a.type, a.name, sources)) : validInput(a.type, a.name, sources), {
          freq: isNonNullType(a.type) && !broken ? 1000 : 5,
          nil: undefined,
        }),
      ),
    );
  const toVariables = (values: unknown[]) => Object.fromEntries(args.map((a, i) => [a.name, values[i]]).filter(([, v]) => v !== undefined));

  const withVariables = fc
    .tuple(variableValues(false), variableValues(true), fc.boolean(), selection(field.type), fc.option(fc.tuple(fc.constantFrom('extra', 'limit', 'id'), hostileJson), { freq: 4 }))
    .map(([good, bad, useBad, sel, extra]): GraphqlPayload => ({
      query: `${operation} Fuzz${varDefs} { ${field.name}${argRefs} ${sel} }`,
      variables: { ...toVariables(useBad ? bad : good), ...(extra ? { [extra[0]]: extra[1] } : {}) },
      operationName: 'Fuzz',
    }));

  const inline = fc
    .tuple(fc.tuple(...args.map((a) => fc.option(fc.oneof(validInput(a.type, a.name, sources), brokenInput(a.type, a.name, sources)), { freq: 6, nil: undefined }))), selection(field.type))
    .map(([values, sel]): GraphqlPayload => {
      const given = args.map((a, i) => [a, values[i]] as const).filter(([, v]) => v !== undefined);
      const argText = given.length > 0 ? `(${given.map(([a, v]) => `${a.name}: ${literal(v, a.type)}`).join(', ')})` : '';
      return { query: `${operation} { ${field.name}${argText} ${sel} }` };
    });

  const leafReturn = isLeafType(getNamedType(field.type));
  const plain = `${operation} Fuzz${varDefs} { ${field.name}${argRefs}${leafReturn ? '' : ' { __typename }'} }`;
  const brokenDocuments = fc.oneof(
    fc.constantFrom<GraphqlPayload>(
      { query: plain, operationName: 'NoSuchOperation' },
      { query: `${plain}\n${plain.replace('Fuzz', 'Other')}` },
      { query: plain, extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } },
      { extensions: { persistedQuery: { version: 1, sha256Hash: 'not-a-hash' } } },
      { query: `${operation} { ${field.name}(unknownArgument: 1) }` },
      { query: `${operation} { ${field.name} { ` },
      { query: `${operation} { ${field.name} { noSuchField } }` },
      { query: 42 },
      { query: [plain] },
      { query: null },
      {},
      { query: plain, variables: 'not an object' },
      { query: plain, variables: [] },
      { query: plain, operationName: 42 },
      { query: `${plain}\u0000` },
      { query: MANY_ALIASES[operation] },
    ),
    fc.integer({ min: 2, max: 20 }).map((n): GraphqlPayload => ({
      query: `${operation} { ${Array.from({ length: n }, (_, i) => `a${i}: ${field.name}${argRefs.replace(/\$\w+/g, 'null')}${leafReturn ? '' : ' { __typename }'}`).join(' ')} }`,
    })),
  );

  const asPost = (payload: GraphqlPayload): FuzzRequest => ({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  const asGet = (payload: GraphqlPayload): FuzzRequest => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(payload)) if (value !== undefined) params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    return { method: 'GET', url: `/graphql?${params}`, headers: { 'apollo-require-preflight': 'true' } };
  };
  return fc.oneof(
    { weight: 8, arbitrary: withVariables.map(asPost) },
    { weight: 3, arbitrary: inline.map(asPost) },
    { weight: 1, arbitrary: withVariables.filter((p) => (p.query as string).length < 4000 && JSON.stringify(p.variables).length < 4000).map(asGet) },
    { weight: 2, arbitrary: brokenDocuments.map(asPost) },
  );
}

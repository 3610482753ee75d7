import { unwrapResolverError } from '@apollo/server/errors';
import type { GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import {
  execute,
  getOperationAST,
  GraphQLError,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionResult,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/errors/app-error';
import { compiledExecution } from '../../src/graphql/compiled-execution';

/** A small schema shaped as TypeGraphQL builds ours: resolvers on some fields, plain reads on the rest. */
const Line = new GraphQLObjectType({
  name: 'Line',
  fields: { quantity: { type: new GraphQLNonNull(GraphQLInt) }, note: { type: GraphQLString } },
});
const Order = new GraphQLObjectType({
  name: 'Order',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    code: { type: GraphQLString },
    lines: { type: new GraphQLList(new GraphQLNonNull(Line)), resolve: async (order) => order.lines },
    secret: {
      type: GraphQLString,
      resolve: () => {
        throw new ForbiddenError('Only admins see this');
      },
    },
    required: { type: new GraphQLNonNull(GraphQLString), resolve: () => null },
  },
});
const orders = [
  { id: 1, code: 'A-1', lines: [{ quantity: 2, note: null }, { quantity: 5, note: 'fragile' }] },
  { id: 2, code: 'A-2', lines: [] },
];
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      order: {
        type: Order,
        args: { id: { type: new GraphQLNonNull(GraphQLInt) } },
        resolve: (_root, { id }) => {
          const order = orders.find((o) => o.id === id);
          if (!order) throw new NotFoundError('Order not found');
          return order;
        },
      },
      orders: { type: new GraphQLList(Order), args: { limit: { type: GraphQLInt } }, resolve: (_root, { limit }) => orders.slice(0, limit ?? 20) },
      echo: { type: GraphQLString, args: { text: { type: new GraphQLNonNull(GraphQLString) } }, resolve: (_root, { text }) => text },
    },
  }),
});

/** Runs a query through the compiled executor as Apollo calls it. */
async function compiled(query: string, variables: Record<string, unknown> = {}): Promise<ExecutionResult> {
  const { executor } = await compiledExecution(schema).load({ apollo: { keyHash: '', graphRef: '' } as never });
  const document = parse(query);
  const operation = getOperationAST(document)!;
  return executor!({ document, operation, operationName: null, request: { query, variables }, context: {} } as unknown as GatewayGraphQLRequestContext);
}

/** What a client and our error formatting see of a result. */
function seen(result: ExecutionResult) {
  return {
    data: result.data,
    errors: result.errors?.map((error) => ({
      message: error.message,
      locations: error.locations,
      path: error.path,
      extensions: error.extensions,
      isGraphqlJsError: error instanceof GraphQLError,
      original: unwrapResolverError(error)?.constructor.name,
    })),
  };
}

const QUERIES: Array<[string, string, Record<string, unknown>?]> = [
  ['fields, aliases, fragments and directives', `query($n: Int, $skip: Boolean!) { orders(limit: $n) { ...F first: code lines @skip(if: $skip) { quantity note } } } fragment F on Order { id __typename }`, { n: 2, skip: false }],
  ['an error of ours in a nullable field, beside data', `{ order(id: 1) { id secret } }`],
  ['an error of ours in a root field', `{ order(id: 99) { id } }`],
  ['null in a non-null field, nulling its parent', `{ orders { id required } }`],
  ['a missing required variable', `query($id: Int!) { order(id: $id) { id } }`, {}],
  ['a variable of the wrong type', `query($id: Int!) { order(id: $id) { id } }`, { id: 'one' }],
  // graphql-jit generates code from the query: literals that look like code stay data.
  ['string literals that look like code', '{ a: echo(text: "\\"); process.exit(1); (\\"") b: echo(text: "\\\\ ` ${x} */ // \\n") }'],
  ['introspection', `{ __schema { queryType { name } } __type(name: "Order") { fields { name type { kind name } } } }`],
];

describe('compiled execution (graphql-jit behind Apollo)', () => {
  for (const [what, query, variables] of QUERIES) {
    it(`answers as graphql-js does: ${what}`, async () => {
      const expected = await execute({ schema, document: parse(query), variableValues: variables ?? {} });
      expect(seen(await compiled(query, variables))).toEqual(seen(expected));
    });
  }

  it('hands string literals to resolvers as they were written, whatever they hold', async () => {
    const query = QUERIES.find(([what]) => what === 'string literals that look like code')![1];
    expect((await compiled(query)).data).toEqual({ a: '"); process.exit(1); ("', b: '\\ ` ${x} */ // \n' });
  });

  it("keeps our errors reachable for formatting: code and class of the resolver's error", async () => {
    const [error] = (await compiled(`{ order(id: 99) { id } }`)).errors!;
    const original = unwrapResolverError(error);
    expect(original).toBeInstanceOf(NotFoundError);
    expect(error.extensions).toEqual({});
  });
});

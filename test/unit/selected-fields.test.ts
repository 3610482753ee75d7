import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { graphqlSchema } from '../../src/graphql/schema';
import { selectedFields } from '../../src/graphql/selected-fields';

const schema = buildSchema(`
  interface Named { id: Int! name: String! }
  type Product implements Named { id: Int! name: String! hsn: String! variants: [Variant!]! }
  type Variant implements Named { id: Int! name: String! sp: Float! product: Product! }
  type Order { id: Int! orderCode: String! status: String! items: [Line!]! }
  type Line { id: Int! quantity: Int! variant: Variant! }
  union Found = Product | Order
  type Query { orders: [Order!]! order(id: Int!): Order named: [Named!]! search: [Found!]! }
  type Mutation { placeOrder: Order! }
`);

/** The selection as plain sorted arrays, to compare. */
function selected(query: string): Record<string, string[]> {
  const selection = selectedFields(schema, parse(query));
  return Object.fromEntries([...selection].map(([type, fields]) => [type, [...fields].sort()]));
}

describe('selectedFields', () => {
  it('names each type with the fields selected of it, by field name whatever the alias', () => {
    expect(selected('{ orders { code: orderCode items { n: quantity variant { sp } } } }')).toEqual({
      Query: ['orders'],
      Order: ['items', 'orderCode'],
      Line: ['quantity', 'variant'],
      Variant: ['sp'],
    });
  });

  it('joins every place a type is selected: other branches, named and inline fragments, other operations', () => {
    const query = `
      query A { orders { ...OrderFields items { variant { product { name } } } } order(id: 1) { ... on Order { status } } }
      fragment OrderFields on Order { orderCode }
      query B { named { ... on Product { hsn variants { id } } } }
      mutation C { placeOrder { id } }`;
    expect(selected(query)).toEqual({
      Query: ['named', 'order', 'orders'],
      Mutation: ['placeOrder'],
      Order: ['id', 'items', 'orderCode', 'status'],
      Line: ['variant'],
      Variant: ['id', 'product'],
      Product: ['hsn', 'name', 'variants'],
    });
  });

  it('counts fields selected on an interface or a union for each of its object types', () => {
    expect(selected('{ named { id name } search { __typename ... on Order { orderCode } } }')).toEqual({
      Query: ['named', 'search'],
      Product: ['__typename', 'id', 'name'],
      Variant: ['id', 'name'],
      Order: ['__typename', 'orderCode'],
    });
  });

  it("names a type declared on a class by the class's name, which records of its entity are read for", async () => {
    const selection = selectedFields(await graphqlSchema(), parse('{ workspace { name } orders { nodes { orderCode } } }'));
    expect(selection.has('Workspace')).toBe(false);
    expect(selection.get('Organization')).toEqual(new Set(['name']));
    expect(selection.get('Order')).toEqual(new Set(['orderCode']));
  });
});

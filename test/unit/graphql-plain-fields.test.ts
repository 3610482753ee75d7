import { getMetadataStorage } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { graphqlSchema } from '../../src/graphql/schema';

/**
 * Plain fields (a property read) are resolved by graphql-js's default resolver: every object type
 * is declared with `simpleResolvers: true`, which spares TypeGraphQL's wrapper on each of them
 * (about 8% of a nested order page's CPU). That option also skips a field's own `@Authorized` and
 * middlewares, so no plain field may carry either: access rules live in resolvers and services.
 * Nor may one be renamed (`@Field({ name })`): the default resolver reads the schema's name.
 */
describe('GraphQL object types', () => {
  it('resolve plain fields without wrappers; none of those fields has its own auth rule or middleware, or another name', async () => {
    const schema = await graphqlSchema();
    const storage = getMetadataStorage();
    const notSimple = storage.objectTypes.filter((type) => type.simpleResolvers !== true).map((type) => type.name);
    expect(notSimple).toEqual([]);
    const guarded = storage.fields
      .filter((field) => field.roles !== undefined || (field.middlewares?.length ?? 0) > 0)
      .map((field) => `${field.target.name}.${field.name}`);
    expect(guarded).toEqual([]);
    // graphql-js's default resolver reads the property named as the field in the schema.
    const renamed = storage.fields.filter((field) => field.schemaName !== field.name).map((field) => `${field.target.name}.${field.name}`);
    expect(renamed).toEqual([]);
    // And the built schema indeed leaves their resolution to graphql-js.
    const order = schema.getType('Order') as import('graphql').GraphQLObjectType;
    expect(order.getFields().orderCode.resolve).toBeUndefined();
    expect(order.getFields().customer.resolve).toBeTypeOf('function');
  });
});

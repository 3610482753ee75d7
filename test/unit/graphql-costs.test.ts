import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { COST } from '../../src/graphql/costs';
import { MAX_QUERY_COMPLEXITY } from '../../src/graphql/limits';
import { graphqlSchema } from '../../src/graphql/schema';

/**
 * Every field with a resolver of its own (root fields, relations) may read the database, so each
 * must carry its cost beside it (`complexity`); plain fields (a property read, graphql-js's default
 * resolver) cost 1. A field added without a cost fails here rather than being priced as a property.
 */
describe('GraphQL field costs', () => {
  it('are declared on every field that has a resolver of its own', async () => {
    const schema = await graphqlSchema();
    const unpriced: string[] = [];
    let priced = 0;
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.resolve === undefined) continue;
        if (field.extensions.complexity === undefined) unpriced.push(`${type.name}.${field.name}`);
        else priced += 1;
      }
    }
    expect(unpriced).toEqual([]);
    // Every root field and relation: about 60 queries and mutations and 16 relations.
    expect(priced).toBeGreaterThan(70);
  });

  it('price aggregates and password hashing far above a plain read, and relations above a plain field', async () => {
    const query = (await graphqlSchema()).getQueryType()!.getFields();
    expect(query.dashboardStats.extensions.complexity).toBe(COST.dashboardStats);
    expect(query.me.extensions.complexity).toBe(COST.me);
    expect(COST.dashboardStats).toBeGreaterThanOrEqual(10 * COST.record);
    expect(COST.monthlySales).toBeGreaterThanOrEqual(3 * COST.dashboardStats);
    expect(COST.password).toBeGreaterThanOrEqual(10 * COST.record);
    expect(COST.relation).toBeGreaterThan(1);
  });

  it('let the budget hold at least one query of the highest cost', () => {
    expect(loadConfig({ GRAPHQL_COST_MAXIMUM: String(MAX_QUERY_COMPLEXITY) }).graphqlCost.maximum).toBe(MAX_QUERY_COMPLEXITY);
    expect(() => loadConfig({ GRAPHQL_COST_MAXIMUM: String(MAX_QUERY_COMPLEXITY - 1) })).toThrow(ConfigError);
    expect(loadConfig({}).graphqlCost.maximum).toBeGreaterThanOrEqual(MAX_QUERY_COMPLEXITY);
  });
});

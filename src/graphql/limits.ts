import type { DocumentNode, GraphQLSchema } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { COST } from './costs';
import { MAX_QUERY_FIELDS } from './operation-shape';
import { perDocument } from './per-document';

export { MAX_QUERY_DEPTH, MAX_QUERY_FIELDS, MAX_QUERY_TOKENS } from './operation-shape';

/**
 * Highest estimated cost a query may have (costs.ts: about 50 ms of work). It admits the nested
 * order page of 100 (about 34,000) or one `monthlySales`, and refuses 1,000 × `me`. The cost
 * budget's maximum is at least this, so every query allowed can run from a full bucket.
 */
export const MAX_QUERY_COMPLEXITY = 50_000;

/**
 * Operations estimated at this or more are heavy: an aggregate (`dashboardStats` 15,000,
 * `monthlySales` 45,000), a searched page, a password hash, the schema's introspection. They run
 * at most HEAVY_OPERATIONS_PER_WORKSPACE at a time for one workspace (see costPlugin).
 */
export const HEAVY_OPERATION_COST = 10_000;
/**
 * One: several of one workspace's aggregates at once (up to its half of the execution slots) took
 * the cores from every other workspace's light requests; one at a time keeps them near idle
 * (BENCHMARKS.md, "Figures behind the code").
 */
export const HEAVY_OPERATIONS_PER_WORKSPACE = 1;

/** Estimates kept per parsed query (one per operation and variables). */
const MAX_ESTIMATES_PER_DOCUMENT = 64;
/** Longer variables (large inputs) are estimated each time rather than kept as a key. */
const MAX_ESTIMATE_KEY_LENGTH = 512;

/** `__schema` walks the whole schema; graphql-js's meta field carries no extension to say so. */
const introspectionEstimator: ComplexityEstimator = ({ field, childComplexity }) =>
  field.name === '__schema' ? COST.schemaIntrospection + childComplexity : undefined;

/**
 * The estimated cost of an operation with its variables: each field's `complexity` extension
 * (costs.ts), else 1 plus what it selects. It depends on nothing else (the schema is fixed), so the
 * estimate of a query a client sends again and again (a dashboard's page) is worked out once; about
 * 2.5% of a nested order page's CPU.
 */
export function estimatorOf(schema: GraphQLSchema) {
  const estimates = perDocument<string, number>(MAX_ESTIMATES_PER_DOCUMENT);
  return (document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined): number => {
    const estimate = () =>
      getComplexity({
        schema,
        operationName,
        query: document,
        variables,
        // The operation-shape rule has already refused more selections than this.
        maxQueryNodes: MAX_QUERY_FIELDS + 1,
        estimators: [introspectionEstimator, fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
      });
    const key = JSON.stringify([operationName ?? null, variables ?? null]);
    return key.length <= MAX_ESTIMATE_KEY_LENGTH ? estimates(document, key, estimate) : estimate();
  };
}

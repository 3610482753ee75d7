import type { ComplexityEstimator, ComplexityEstimatorArgs } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from '../lists/page-request';

/**
 * What GraphQL fields cost, in microseconds of the service's and PostgreSQL's work (median of
 * in-process requests on the seeded data, 10,000 orders a workspace, on the 2-core development
 * machine; README, "GraphQL cost"). Every field costs 1 unless it says otherwise, which is about
 * what a plain field of a list row costs (0.1–1 µs measured): a field whose resolver reads the
 * database costs what that read took. Each is set beside its field as graphql-query-complexity's
 * `complexity` extension (TypeGraphQL's `complexity` option).
 */
export const COST = {
  /** A root field that reads one record or a few (an order, a product, the workspace): 0.4–1 ms. */
  record: 1_000,
  /** `me`: the session's user, its role and workspace (2.4 ms). */
  me: 2_500,
  /** A list page's statement and its count, besides its rows (1.5–2 ms). */
  page: 2_000,
  /** A page filtered by `search` (word matches over the whole list: +10 ms on 10,000 orders). */
  search: 10_000,
  /** A relation of a row (customer, variant, role…): its share of the DataLoader's batched statement (5–15 µs). */
  relation: 10,
  /** A field resolver that reads its row's property under another name: a plain field's cost. */
  property: 1,
  /** `dashboardStats`: one statement of aggregates over every order and payment (14 ms). */
  dashboardStats: 15_000,
  /** `monthlySales`: aggregates of every order line over two years, per class (45 ms). */
  monthlySales: 45_000,
  /** `salesReport`: one statement over a range's order lines (10,000 orders: a month 8 ms, a year 85–160 ms; README, Reports). */
  salesReport: 30_000,
  /** `beatProductivity`: one day's plans, visits, leave, orders and reasons (six indexed statements). */
  beatProductivity: 15_000,
  /** `ledgerStatement`: one statement over a customer's rows up to its end (a window and the FIFO ageing; README, Ledger). */
  ledgerStatement: 10_000,
  /** A mutation: its checks, writes and the answer's reads in one transaction. */
  write: 5_000,
  /** A mutation that hashes a password (Argon2id, about 25 ms of CPU). */
  password: 30_000,
  /** `__schema`: the whole schema's introspection (3–12 ms for a client's full introspection query). */
  schemaIntrospection: 10_000,
} as const;

/** Lengths assumed for lists that take no `limit`; what a query really returned is charged after it ran. */
export const ASSUMED_LENGTH = {
  /** Order lines: 1–200 an order; 1–8 (4.5 on average) in the seeded data. */
  orderLines: 8,
  /** Status moves of an order: at most three after the first status. */
  statusSteps: 4,
  /** A product's variants: 1–4 (2.8 on average) in the seeded data. */
  productVariants: 5,
  /** A workspace's product classes (one monthly-sales entry each). */
  productClasses: 20,
  /** At most 50 live keys a workspace (revoked ones are listed too). */
  apiKeys: 50,
  /** At most 20 endpoints a workspace. */
  webhooks: 20,
  passkeys: 10,
} as const;

/** The cost of a field itself, without what it selects, given its arguments. */
const OWN_COST = Symbol('own cost');

type FieldCost = ComplexityEstimator & { [OWN_COST]: (args: Record<string, unknown>) => number };

function fieldCost(own: (args: Record<string, unknown>) => number, estimate: ComplexityEstimator): FieldCost {
  return Object.assign(estimate, { [OWN_COST]: own });
}

/**
 * A list page (it takes `limit`): its statement, `search` when given, and `limit` rows of what it
 * selects, a full page (`defaultLimit`) when no limit is sent. A limit below 1 is priced as 1 (the
 * resolver refuses it), so no estimate is ever negative.
 */
export function pageCost(defaultLimit: number = DEFAULT_PAGE_SIZE): FieldCost {
  const own = (args: Record<string, unknown>) => COST.page + (typeof args.search === 'string' && args.search.trim() !== '' ? COST.search : 0);
  return fieldCost(own, ({ args, childComplexity }: ComplexityEstimatorArgs) => {
    const limit = typeof args.limit === 'number' ? Math.max(1, args.limit) : defaultLimit;
    return own(args) + limit * Math.max(childComplexity, 1);
  });
}

/** A list without `limit`: `own` once and `assumedLength` times what each element selects. */
export function listCost(own: number, assumedLength: number): FieldCost {
  return fieldCost(() => own, ({ childComplexity }: ComplexityEstimatorArgs) => own + assumedLength * Math.max(childComplexity, 1));
}

/** The cost of a field itself (its `complexity` extension) for its arguments: 1 for a plain field. */
export function ownCost(complexity: unknown, args: Record<string, unknown>): number {
  if (typeof complexity === 'number') return complexity;
  if (typeof complexity === 'function' && OWN_COST in complexity) return (complexity as FieldCost)[OWN_COST](args);
  return 1;
}

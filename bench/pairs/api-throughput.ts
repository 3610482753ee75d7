import type { BenchContext } from '../lib/bench-context';
import { capturedRequest } from '../lib/captured-request';
import { httpLoad, type HttpRequest } from '../lib/http-load';
import { seededRandom, pick } from '../lib/random';
import { atMost, figure, ratioAtLeast, type Figure } from '../lib/report';
import type { Statement } from '../lib/sql-capture';
import { sqlLoad } from '../lib/sql-load';
import { interleaved } from './interleaved';

const CONNECTIONS = 50;
const SINGLE_ORDER_SAMPLES = 200;

/** The nested page of the issue: orders with their customer, lines, variants and products. */
export const ORDERS_PAGE_QUERY = `query Orders($limit: Int!) {
  orders(limit: $limit) {
    pageInfo { total }
    nodes {
      id orderCode orderDate status totalAmount itemsCount
      customer { id firstName lastName storeName }
      items { id quantity unitPrice amount variant { id variantName sp product { id name } } }
    }
  }
}`;

interface Target {
  request: HttpRequest;
  statements: Statement[];
}

/** The statements of one request (sent twice, the first to fill the API-key cache). */
async function captured(ctx: BenchContext, request: HttpRequest): Promise<Statement[]> {
  return (await capturedRequest(ctx.app, ctx.capture, request)).statements;
}

function keyOf(ctx: BenchContext, organizationId: number): Record<string, string> {
  return { 'x-api-key': ctx.main.keys.get(organizationId)![0] };
}

function graphqlRequest(ctx: BenchContext, organizationId: number, limit: number): HttpRequest {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { ...keyOf(ctx, organizationId), 'content-type': 'application/json' },
    body: JSON.stringify({ query: ORDERS_PAGE_QUERY, variables: { limit } }),
  };
}

/** Load of `targets` at random, through HTTP (ours) or their captured SQL (the raw baseline). */
function loads(ctx: BenchContext, targets: Target[], seed: number) {
  const random = seededRandom(seed);
  const seconds = (warmUp: boolean) => (warmUp ? 3 : ctx.seconds);
  return {
    raw: (warmUp: boolean) => sqlLoad({ pool: ctx.pool, concurrency: CONNECTIONS, seconds: seconds(warmUp), next: () => pick(targets, random).statements }),
    http: (warmUp: boolean) => httpLoad({ baseUrl: ctx.service.baseUrl, connections: CONNECTIONS, seconds: seconds(warmUp), next: () => pick(targets, random).request }),
  };
}

/** Pairs 1–3: REST list and single order against raw SQL; the GraphQL nested page against the REST list, with its statement count. */
export async function measureApiThroughput(ctx: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  const workspaces = ctx.main.organizationIds;

  ctx.log('REST list: capturing the SQL of GET /orders per workspace…');
  const listTargets: Target[] = [];
  for (const id of workspaces) {
    const request = { path: '/api/v1/orders?limit=20', headers: keyOf(ctx, id) };
    listTargets.push({ request, statements: await captured(ctx, request) });
  }
  const list = loads(ctx, listTargets, 1);
  const restList = await interleaved(ctx.rounds, ctx.log, 'REST list', list.raw, list.http);
  figures.push(
    figure('REST list throughput, 50 connections', 'req/s', restList.ours.rps, restList.baseline.rps, ratioAtLeast(0.6, 'raw pg')),
    figure('REST list p99 latency, 50 connections', 'ms', restList.ours.p99, restList.baseline.p99, atMost(50, 'ms')),
  );

  ctx.log('REST single order: capturing the SQL of GET /orders/{id}…');
  const random = seededRandom(2);
  const { rows: orders } = await ctx.pool.query<{ id: number; organization_id: number }>(
    `select id, organization_id from sales_order where organization_id = any($1) and id % 97 = $2 order by id limit $3`,
    [workspaces, Math.floor(random() * 97), SINGLE_ORDER_SAMPLES],
  );
  const singleTargets: Target[] = [];
  for (const order of orders) {
    const request = { path: `/api/v1/orders/${order.id}`, headers: keyOf(ctx, order.organization_id) };
    singleTargets.push({ request, statements: await captured(ctx, request) });
  }
  const single = loads(ctx, singleTargets, 3);
  const restSingle = await interleaved(ctx.rounds, ctx.log, 'REST single order', single.raw, single.http);
  figures.push(figure('REST single order throughput, 50 connections', 'req/s', restSingle.ours.rps, restSingle.baseline.rps, ratioAtLeast(0.6, 'raw pg')));

  ctx.log('GraphQL page: capturing its SQL per workspace…');
  const graphqlTargets: Target[] = [];
  for (const id of workspaces) {
    const request = graphqlRequest(ctx, id, 20);
    graphqlTargets.push({ request, statements: await captured(ctx, request) });
  }
  const gq = loads(ctx, graphqlTargets, 4);
  const graphql = await interleaved(ctx.rounds, ctx.log, 'GraphQL page vs REST list', list.http, gq.http);
  figures.push(figure('GraphQL nested page (20) throughput', 'req/s', graphql.ours.rps, graphql.baseline.rps, ratioAtLeast(0.7, 'the REST list')));
  // The same comparison with no HTTP, ORM or GraphQL: how far the two requests' SQL alone goes.
  const sqlAlone = await interleaved(ctx.rounds, ctx.log, 'GraphQL page SQL vs REST list SQL, raw pg', list.raw, gq.raw);
  figures.push(
    figure("GraphQL page's SQL vs the REST list's, both raw pg", 'req/s', sqlAlone.ours.rps, sqlAlone.baseline.rps, {
      text: 'reported (the ceiling of the row above)',
      met: () => true,
    }),
  );

  const counts: number[] = [];
  for (const limit of [10, 50, 100]) counts.push((await captured(ctx, graphqlRequest(ctx, workspaces[0], limit))).length);
  const restCount = listTargets[0].statements.length;
  const constant = counts.every((c) => c === counts[0]);
  for (const [i, limit] of [10, 50, 100].entries()) {
    figures.push(
      figure(`SQL statements per GraphQL page of ${limit}`, 'statements', counts[i], restCount, {
        text: '≤ 5, the same at 10, 50 and 100',
        met: ({ ours }) => constant && ours <= 5,
      }),
    );
  }
  return figures;
}

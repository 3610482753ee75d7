import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { Limits } from '../context/rate-limits';
import type { LoaderFactory, Services } from '../domains/domain-module';
import { Slots } from '../concurrency/slots';
import { compiledExecution } from './compiled-execution';
import { explorerPage, registerExplorerAssets, wantsExplorer } from './explorer-page';
import { graphqlContext, type GraphqlContext } from './context';
import { errorLoggingPlugin, formatGraphqlError } from './format-error';
import { keyScopesPlugin } from './key-scopes';
import { nulCharactersPlugin } from './nul-characters';
import { costPlugin } from './cost.plugin';
import type { CostBudget } from './cost-budget';
import { MAX_QUERY_TOKENS, operationShapeRule } from './operation-shape';
import { HEAVY_OPERATIONS_PER_WORKSPACE } from './limits';
import { graphqlSchema } from './schema';
import { fieldSelectionPlugin } from './selected-fields';
import { workspaceShareOf } from './workspace-share';

/** Whose share of the execution slots a request takes (see workspaceShareOf). */
function slotGroupOf(request: FastifyRequest): string {
  return workspaceShareOf(request.ctx ?? { principal: null, clientIp: request.ip });
}

/** Every GraphQL answer is the caller's own data: `cache-control: no-store`. */
const noStorePlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};

/**
 * Serves the GraphQL gateway at /graphql on the shared request context. Introspection stays on,
 * and a browser's page load of /graphql gets GraphiQL (explorer-page.ts) instead of Apollo's
 * landing page, which loads from a CDN and stays disabled.
 *
 * At most `concurrentOperations` requests (the database pool's size) are executed at a time, at
 * most half of them for one workspace; the others wait their turn before Apollo builds anything
 * for them. A request that instead waited
 * inside, for a connection, kept its whole state (Apollo's request context, the loaders, the
 * promises of every resolver awaiting the statement) alive longer than V8's young-generation
 * collections are apart: that state was moved to the old generation, and the page's rows,
 * records and answer, attached to it once the statement returned, stayed there with it until a
 * full collection (BENCHMARKS.md, "Figures behind the code").
 */
export async function graphqlPlugin(
  app: FastifyInstance,
  opts: { services: Services; loaders: readonly LoaderFactory[]; limits: Limits; costBudget: CostBudget; concurrentOperations: number },
): Promise<void> {
  const schema = await graphqlSchema();
  // No workspace holds more than half of the slots: a workspace sending heavy operations from many
  // clients waits for its own, and another workspace's requests still find a slot (tested).
  const half = Math.max(1, Math.floor(opts.concurrentOperations / 2));
  const operations = new Slots(opts.concurrentOperations, half);
  // Heavy operations (aggregates, searches: costPlugin) also take one of these, inside their
  // execution slot: at most half of the slots run heavy work, and a workspace one at a time, so
  // its aggregates run one after another rather than all on the cores at once.
  const heavyOperations = new Slots(half, HEAVY_OPERATIONS_PER_WORKSPACE);
  const apollo = new ApolloServer<GraphqlContext>({
    gateway: compiledExecution(schema),
    introspection: true,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    // Parsing stops past MAX_QUERY_TOKENS and validation past MAX_QUERY_FIELDS, so a huge document
    // is refused (QUERY_TOO_COMPLEX, see format-error.ts) in bounded time, before any resolver runs.
    parseOptions: { maxTokens: MAX_QUERY_TOKENS },
    validationRules: [operationShapeRule],
    formatError: formatGraphqlError,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // Apollo's cache-control plugin wraps every field's resolver to collect cache hints; there are
      // none (every answer is the caller's own), so it is off and noStorePlugin says so instead.
      ApolloServerPluginCacheControlDisabled(),
      noStorePlugin,
      keyScopesPlugin(schema, opts.services.keyScopes),
      nulCharactersPlugin,
      costPlugin(schema, opts.costBudget, heavyOperations),
      fieldSelectionPlugin(schema),
      errorLoggingPlugin,
    ],
  });
  await apollo.start();
  // Stopping in onClose (not the drain plugin, which deadlocks app.close()).
  app.addHook('onClose', async () => apollo.stop());
  const execute = fastifyApolloHandler(apollo, {
    context: async (request, reply) => graphqlContext(request, reply, opts.services, opts.limits, opts.loaders),
  });
  app.route<{ Reply: string }, unknown, FastifySchema>({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    config: { auth: 'public' },
    schema: { hide: true },
    handler: (request, reply) => {
      if (wantsExplorer(request)) {
        const page = explorerPage();
        reply.type(page.contentType).headers(page.headers);
        return page.body;
      }
      return operations.run(async () => execute.call(app, request, reply), slotGroupOf(request));
    },
  });
  registerExplorerAssets(app);
}

import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { Limits } from '../context/rate-limits';
import type { Services } from '../services';
import { compiledExecution } from './compiled-execution';
import { graphqlContext, type GraphqlContext } from './context';
import { errorLoggingPlugin, formatGraphqlError } from './format-error';
import { keyScopesPlugin } from './key-scopes';
import { complexityPlugin, depthRule } from './limits';
import { graphqlSchema } from './schema';
import { fieldSelectionPlugin } from './selected-fields';

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

/** Serves the GraphQL gateway at /graphql on the shared request context. Introspection stays on. */
export async function graphqlPlugin(app: FastifyInstance, opts: { services: Services; limits: Limits }): Promise<void> {
  const schema = await graphqlSchema();
  const apollo = new ApolloServer<GraphqlContext>({
    gateway: compiledExecution(schema),
    introspection: true,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    validationRules: [depthRule],
    formatError: formatGraphqlError,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // Apollo's cache-control plugin wraps every field's resolver to collect cache hints; there are
      // none (every answer is the caller's own), so it is off and noStorePlugin says so instead.
      ApolloServerPluginCacheControlDisabled(),
      noStorePlugin,
      keyScopesPlugin(schema),
      complexityPlugin(schema),
      fieldSelectionPlugin(schema),
      errorLoggingPlugin,
    ],
  });
  await apollo.start();
  // Stopping in onClose (not the drain plugin, which deadlocks app.close()).
  app.addHook('onClose', async () => apollo.stop());
  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    config: { auth: 'public' },
    schema: { hide: true },
    handler: fastifyApolloHandler(apollo, {
      context: async (request, reply) => graphqlContext(request, reply, opts.services, opts.limits),
    }),
  });
}

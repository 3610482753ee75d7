import type { GraphQLSchema } from 'graphql';
import { buildSchema, type AuthChecker } from 'type-graphql';
import { domainResolvers } from '../domains';
import type { GraphqlContext } from './context';

/** `@Authorized()` fields need a credential; finer rules (admin, staff) live in the services. */
const authChecker: AuthChecker<GraphqlContext> = ({ context }) => {
  context.ctx.requirePrincipal();
  return true;
};

let cached: Promise<GraphQLSchema> | undefined;

/**
 * Builds the TypeGraphQL schema of the domains' resolvers (src/domains/index.ts) once per process:
 * TypeGraphQL's metadata is global, so every app of the process serves the same schema.
 */
export function graphqlSchema(): Promise<GraphQLSchema> {
  cached ??= buildSchema({
    resolvers: domainResolvers() as [Function, ...Function[]],
    authChecker,
    validate: false,
    emitSchemaFile: false,
  });
  return cached;
}

import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openOrm } from '../src/db/orm';
import { graphqlSchema } from '../src/graphql/schema';
import { secretsFrom } from '../src/secrets';

/** Where the generated interface descriptions are committed. */
export const SCHEMA_FILES = { graphql: 'schema/schema.graphql', openapi: 'schema/openapi.json' } as const;

/**
 * Renders the machine-readable descriptions from the code: the GraphQL SDL built by TypeGraphQL
 * and the OpenAPI 3.1 document built from the REST route schemas. No database is contacted.
 */
export async function renderSchemas(): Promise<{ graphql: string; openapi: string }> {
  const graphql = printSchema(lexicographicSortSchema(await graphqlSchema())) + '\n';
  const orm = await openOrm('postgres://render@127.0.0.1:1/render', { connect: false });
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    orm,
    secrets: secretsFrom('schema-rendering-needs-no-real-secret'),
    silent: true,
  });
  try {
    await app.ready();
    return { graphql, openapi: JSON.stringify(app.swagger(), null, 2) + '\n' };
  } finally {
    await app.close();
    await orm.close();
  }
}

import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Runner } from 'graphile-worker';
import { prepareJobQueue, startWorker, taskDepsOf } from '../jobs/worker';
import { buildApp } from './app';
import type { Config } from './config';
import { embeddedDatabaseOf, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres';
import { migrate, openOrm } from './db/orm';
import { loadSecrets } from './secrets';

/** Which parts of the service this process runs. */
export interface Roles {
  api: boolean;
  worker: boolean;
}

/** A running service; `stop()` shuts every part down in order. */
export interface Runtime {
  app?: FastifyInstance;
  stop(): Promise<void>;
}

/** DATABASE_URL, or an embedded PostgreSQL under DATA_DIR/pg when it is unset. */
async function openDatabase(config: Config, say: (line: string) => void): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  say('DATABASE_URL is not set: starting the embedded PostgreSQL…');
  const embedded = await startEmbeddedPostgres({ ...embeddedDatabaseOf(config), notice: say });
  say(`Embedded PostgreSQL on ${new URL(embedded.url).host} (data in ${path.join(config.dataDir, 'pg')})`);
  return { url: embedded.url, embedded };
}

/** The shared rate-limit store; ioredis is loaded only when REDIS_URL asks for it (about 0.1 s of start-up). */
async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
}

/** Opens the database, applies migrations, then starts the API and/or the job worker. */
export async function startRuntime(config: Config, roles: Roles, say: (line: string) => void = console.log): Promise<Runtime> {
  const database = await openDatabase(config, say);
  let orm: MikroORM | undefined;
  let redis: Redis | undefined;
  let app: FastifyInstance | undefined;
  let worker: Runner | undefined;
  const stop = async () => {
    await app?.close();
    await worker?.stop();
    await orm?.close();
    redis?.disconnect();
    await database.embedded?.stop();
  };
  try {
    orm = await openOrm(database.url);
    const applied = await migrate(orm);
    if (applied.length > 0) say(`Applied migrations: ${applied.join(', ')}`);
    await prepareJobQueue(database.url);
    if (config.webhook.allowedPrivateHosts.length > 0) {
      say(`WARNING: WEBHOOK_ALLOWED_PRIVATE_HOSTS exempts ${config.webhook.allowedPrivateHosts.join(', ')} from the public-address rule`);
    }
    if (roles.api) {
      redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
      app = await buildApp({ config, orm, secrets: loadSecrets(config), redis });
      const address = await app.listen({ port: config.port, host: config.host });
      say(`REST API:   ${address}/api/v1`);
      say(`GraphQL:    ${address}/graphql`);
      say(`API docs:   ${address}/docs (OpenAPI at ${address}/api/v1/openapi.json)`);
    }
    if (roles.worker) {
      worker = await startWorker({ connectionString: database.url, deps: taskDepsOf({ config, secrets: loadSecrets(config), orm }) });
      say('Job worker: running');
    }
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  return { app, stop };
}

import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { Dataset } from './bench-database';
import type { ServiceProcess } from './service-process';
import type { SqlCapture } from './sql-capture';

/** A seeded dataset with an API key per workspace. */
export interface KeyedDataset extends Dataset {
  /** Keys by organization id. */
  keys: Map<number, string[]>;
}

/** What every benchmark pair gets: the running service, the database, the seeded data. */
export interface BenchContext {
  databaseUrl: string;
  /** Raw connections for baselines, as many as the service's own pool. */
  pool: Pool;
  service: ServiceProcess;
  /** The same app in this process (not listening): to capture the SQL a request sends, and to start sessions. */
  app: FastifyInstance;
  capture: SqlCapture;
  orm: MikroORM;
  /** The service's environment, for processes that must match it. */
  serviceEnv: Record<string, string>;
  main: KeyedDataset;
  rounds: number;
  /** Seconds of each throughput run. */
  seconds: number;
  log(line: string): void;
}

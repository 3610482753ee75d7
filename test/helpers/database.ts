import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A database of its own for one test file, cloned from the migrated template. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Clones the template into a fresh database (milliseconds, not a migration run). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `sd_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database "${name}" template "${inject('pgTemplate')}"`));
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

/** An empty database with no migrations applied. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const name = `sd_empty_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database "${name}"`));
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { prepareJobQueue } from '../../jobs/worker';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres';
import { migrate, openOrm } from '../../src/db/orm';
import { throwawayCa } from './throwaway-ca';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the maintenance database of the test server. */
    pgAdminUrl: string;
    /** Name of the migrated template each test file clones its database from. */
    pgTemplate: string;
    /** PEM key and certificate (signed by the throwaway CA in NODE_EXTRA_CA_CERTS) for HTTPS receivers. */
    receiverTls: { key: string; cert: string };
  }
}

let embedded: EmbeddedDatabase | undefined;
let caDir: string | undefined;

/**
 * The tests' certificate authority, trusted through NODE_EXTRA_CA_CERTS (the test processes start
 * after this and inherit it); the receivers serve the certificate it signs.
 */
async function trustedTestCa(): Promise<{ key: string; cert: string }> {
  const { caCert, key, cert } = await throwawayCa();
  caDir = mkdtempSync(path.join(os.tmpdir(), 'sd-test-ca-'));
  const caFile = path.join(caDir, 'ca.pem');
  writeFileSync(caFile, caCert);
  process.env.NODE_EXTRA_CA_CERTS = caFile;
  return { key, cert };
}
let dataDir: string | undefined;
let adminUrl = '';
let template = '';

/**
 * Starts the test PostgreSQL (DATABASE_URL's server, or an embedded one in a temporary folder),
 * and migrates one template database that every test file clones.
 */
export async function setup(project: TestProject): Promise<void> {
  // Worker threads (the PDF renderer) load compiled JavaScript: build it from the sources under test.
  execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '/postgres';
    adminUrl = url.toString();
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-test-pg-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root
    // Throwaway data: no fsync (start-up and every commit are faster; durability is tested on its own).
    embedded = await startEmbeddedPostgres({ directory: path.join(dataDir, 'pg'), password: 'test', database: 'postgres', durable: false });
    adminUrl = embedded.adminUrl;
  }
  template = `sd_template_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  await admin.end();
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  const orm = await openOrm(templateUrl.toString());
  await migrate(orm);
  await orm.close();
  await prepareJobQueue(templateUrl.toString());
  project.provide('receiverTls', await trustedTestCa());
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);
}

export async function teardown(): Promise<void> {
  if (caDir) rmSync(caDir, { recursive: true, force: true });
  if (embedded) {
    await embedded.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${template}" with (force)`);
  await admin.end();
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, tenantSql } from '../../db/tenant-sql';
import { executeBound } from './bound-sql';

/** Bytes per stored piece of an upload. */
const CHUNK_BYTES = 1024 * 1024;

/** Stores an upload for its job, in pieces of CHUNK_BYTES (as exports store their files). */
export async function storeUpload(em: EntityManager, organizationId: number, importJobId: number, data: Buffer): Promise<void> {
  for (let seq = 0, at = 0; at < data.length || seq === 0; seq++, at += CHUNK_BYTES) {
    await executeBound(em, sql`insert into import_chunk (organization_id, import_job_id, seq, data) values (${organizationId}, ${importJobId}, ${seq}, ${data.subarray(at, at + CHUNK_BYTES)})`);
  }
}

/** An upload stored for its job, whole. */
export async function readUpload(em: EntityManager, organizationId: number, importJobId: number): Promise<Buffer> {
  const t = tenantSql(organizationId, 'ch');
  const rows = await executeBound<{ data: Buffer }>(em, sql`select ch.data from import_chunk ch where ${t.owns()} and ch.import_job_id = ${importJobId} order by ch.seq`);
  return Buffer.concat(rows.map((r) => r.data));
}

/** Deletes an upload once its job has run. */
export async function deleteUpload(em: EntityManager, organizationId: number, importJobId: number): Promise<void> {
  await em.execute('delete from import_chunk where organization_id = ? and import_job_id = ?', [organizationId, importJobId]);
}

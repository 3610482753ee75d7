import { Readable, Writable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';

/** Bytes per stored chunk. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * A Writable that stores an export job's file in `export_chunk` rows of CHUNK_BYTES, in order,
 * each inserted before more is accepted (so memory holds about one chunk). `bytes` counts what
 * was stored.
 */
export class ChunkWriter extends Writable {
  bytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly organizationId: number,
    private readonly exportJobId: number,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < CHUNK_BYTES) return callback();
    this.flushWhole().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flushWhole()
      .then(() => (this.pendingBytes > 0 ? this.store(this.take(this.pendingBytes)) : undefined))
      .then(() => callback(), callback);
  }

  private async flushWhole(): Promise<void> {
    while (this.pendingBytes >= CHUNK_BYTES) await this.store(this.take(CHUNK_BYTES));
  }

  private take(size: number): Buffer {
    const all = Buffer.concat(this.pending);
    this.pending = all.length > size ? [all.subarray(size)] : [];
    this.pendingBytes = all.length - size;
    return all.subarray(0, size);
  }

  private async store(data: Buffer): Promise<void> {
    await this.em.execute('insert into export_chunk (organization_id, export_job_id, seq, data) values (?, ?, ?, ?)', [
      this.organizationId,
      this.exportJobId,
      this.seq++,
      data,
    ]);
    this.bytes += data.length;
  }
}

/**
 * An export job's stored file as a stream, one chunk read at a time. A file found shorter than
 * `byteSize` (deleted meanwhile) ends the stream with an error, so the download fails rather than
 * ending early as if complete.
 */
export function readChunks(em: EntityManager, organizationId: number, exportJobId: number, byteSize: number): Readable {
  const t = tenantSql(organizationId, 'ch');
  async function* chunks() {
    let read = 0;
    for (let seq = 0; ; seq++) {
      const [row] = await executeSql<{ data: Buffer }>(em, sql`select ch.data from export_chunk ch where ${t.owns()} and ch.export_job_id = ${exportJobId} and ch.seq = ${seq}`);
      if (!row) {
        if (read < byteSize) throw new Error(`Export ${exportJobId}: ${read} of ${byteSize} bytes found`);
        return;
      }
      read += row.data.length;
      yield row.data;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Removes an export job's stored chunks (before a run starts over). */
export async function deleteChunks(em: EntityManager, organizationId: number, exportJobId: number): Promise<void> {
  await em.execute('delete from export_chunk where organization_id = ? and export_job_id = ?', [organizationId, exportJobId]);
}

import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Largest photo: 5 MB. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** Most photos on one grievance. */
export const MAX_PHOTOS = 10;
/** How long a photo link works after it is handed out. */
export const PHOTO_LINK_TTL_MS = 15 * 60_000;

/**
 * Where photo bytes live: in PostgreSQL (bytea, the default) or, when UPLOAD_DIR is set, as files
 * under `<UPLOAD_DIR>/grievances/<organization id>/` named by a random UUID (the row keeps the
 * relative path).
 */
export class PhotoStore {
  constructor(private readonly uploadDir?: string) {}

  /** Where to keep new bytes: `{ data }` for the database, `{ storagePath }` once written to disk. */
  async put(organizationId: number, data: Buffer, extension: string): Promise<{ data: Buffer | null; storagePath: string | null }> {
    if (!this.uploadDir) return { data, storagePath: null };
    const relative = path.join('grievances', String(organizationId), `${randomUUID()}.${extension}`);
    const full = path.join(this.uploadDir, relative);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, data, { flag: 'wx' });
    return { data: null, storagePath: relative };
  }

  /** Deletes a file written by `put` whose row was not saved (nothing for bytes kept in the database). */
  async remove(storagePath: string | null): Promise<void> {
    if (storagePath && this.uploadDir) await rm(path.join(this.uploadDir, storagePath), { force: true });
  }

  /** The bytes of a stored photo. */
  async get(stored: { data: Buffer | null; storagePath: string | null }): Promise<Buffer> {
    if (stored.data) return stored.data;
    if (!stored.storagePath || !this.uploadDir) throw new Error('grievance photo has neither bytes nor a readable file (UPLOAD_DIR unset?)');
    return readFile(path.join(this.uploadDir, stored.storagePath));
  }
}

/** A signed photo URL and when it stops working. */
export interface PhotoLink {
  url: string;
  expiresAt: Date;
}

/**
 * Pre-signed photo URLs, like export downloads: HMAC-SHA256 over the workspace, the photo and the
 * expiry; absolute under PUBLIC_API_URL when set, else the asking request's base URL.
 */
export class PhotoLinks {
  constructor(
    private readonly key: Buffer,
    private readonly publicApiUrl?: string,
  ) {}

  issue(organizationId: number, photoId: number, requestBaseUrl: () => string, now = new Date()): PhotoLink {
    const expires = Math.floor((now.getTime() + PHOTO_LINK_TTL_MS) / 1000);
    const base = this.publicApiUrl ?? requestBaseUrl();
    return { url: `${base}/api/v1/grievances/photo-files/${photoId}?expires=${expires}&signature=${this.sign(organizationId, photoId, expires)}`, expiresAt: new Date(expires * 1000) };
  }

  verify(organizationId: number, photoId: number, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(organizationId, photoId, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(organizationId: number, photoId: number, expires: number): string {
    return createHmac('sha256', this.key).update(`grievance-photo:${organizationId}:${photoId}:${expires}`).digest('base64url');
  }
}

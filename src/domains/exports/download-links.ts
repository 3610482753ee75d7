import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a download URL works after it is handed out. */
export const DOWNLOAD_LINK_TTL_MS = 15 * 60_000;

/** A signed download URL and when it stops working. */
export interface DownloadLink {
  url: string;
  expiresAt: Date;
}

/**
 * Pre-signed download URLs of export files, like a storage service's: the URL itself is the
 * credential, bound to one export of one workspace (HMAC-SHA256 over both and the expiry) and
 * valid for DOWNLOAD_LINK_TTL_MS, never past the file's own expiry. The URL is absolute, so any
 * client can open it as given: under `publicApiUrl` (PUBLIC_API_URL) when set, else under the base
 * URL the asking request reached the service at.
 */
export class DownloadLinks {
  constructor(
    private readonly key: Buffer,
    private readonly publicApiUrl?: string,
  ) {}

  /** `requestBaseUrl` is asked only when PUBLIC_API_URL is unset. */
  issue(organizationId: number, exportId: number, fileExpiresAt: Date, requestBaseUrl: () => string, now = new Date()): DownloadLink {
    const expiresAt = new Date(Math.min(now.getTime() + DOWNLOAD_LINK_TTL_MS, fileExpiresAt.getTime()));
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const signature = this.sign(organizationId, exportId, expires);
    const base = this.publicApiUrl ?? requestBaseUrl();
    return { url: `${base}/api/v1/exports/files/${exportId}?expires=${expires}&signature=${signature}`, expiresAt: new Date(expires * 1000) };
  }

  /** Whether `signature` is this service's for that export, workspace and expiry (compared in constant time). */
  verify(organizationId: number, exportId: number, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(organizationId, exportId, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(organizationId: number, exportId: number, expires: number): string {
    return createHmac('sha256', this.key).update(`export-file:${organizationId}:${exportId}:${expires}`).digest('base64url');
  }
}

import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, vetTarget, type HostResolver } from '../../webhooks/target-guard';

/** Logos larger than this are not printed. */
export const LOGO_MAX_BYTES = 512 * 1024;
const LOGO_TIMEOUT_MS = 3_000;
const CACHE_TTL_MS = 10 * 60_000;
const CACHE_ENTRIES = 200;

const IMAGE_TYPES = [
  { type: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
  { type: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
];

/** GETs a URL from the vetted address only, without redirects, within the time and size limits. */
function download(url: URL, pinned: Awaited<ReturnType<typeof vetTarget>>): Promise<Buffer | null> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.get(url, { lookup: pinnedLookup(pinned), agent: false, timeout: LOGO_TIMEOUT_MS }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return resolve(null);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > LOGO_MAX_BYTES) {
          request.destroy();
          return resolve(null);
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', () => resolve(null));
    });
    const deadline = setTimeout(() => request.destroy(), LOGO_TIMEOUT_MS);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
  });
}

/**
 * Fetches workspace logos for PDFs under the webhooks' SSRF guard (public addresses only, unless
 * the host is in WEBHOOK_ALLOWED_PRIVATE_HOSTS), PNG or JPEG by their first bytes, cached for ten
 * minutes. A logo that cannot be fetched is left out of the PDF, never an error.
 */
export class LogoFetcher {
  private readonly cache = new Map<string, { dataUrl: string | null; until: number }>();

  constructor(
    private readonly resolve: HostResolver,
    private readonly allowedPrivateHosts: readonly string[],
  ) {}

  async dataUrl(logo: string | null): Promise<string | null> {
    if (!logo) return null;
    const cached = this.cache.get(logo);
    if (cached && cached.until > Date.now()) return cached.dataUrl;
    const dataUrl = await this.fetch(logo);
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(logo, { dataUrl, until: Date.now() + CACHE_TTL_MS });
    return dataUrl;
  }

  private async fetch(logo: string): Promise<string | null> {
    try {
      const url = new URL(logo);
      const bytes = await download(url, await vetTarget(url, this.resolve, this.allowedPrivateHosts));
      const image = bytes && IMAGE_TYPES.find((t) => bytes.subarray(0, t.magic.length).equals(t.magic));
      return image ? `data:${image.type};base64,${bytes.toString('base64')}` : null;
    } catch {
      return null;
    }
  }
}

import fc from 'fast-check';
import type { FuzzRequest } from './rest-requests';

/** Who sends a case: the admin's session (with a browser User-Agent) or the `*` API key. */
export type Credential = 'session' | 'apiKey';

const shown = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** One generated request and its credential; fast-check prints it short (bodies reach 1 MB). */
export class FuzzCase {
  constructor(
    readonly request: FuzzRequest,
    readonly credential: Credential,
  ) {}

  [fc.toStringMethod](): string {
    const { method, url, payload } = this.request;
    return `${this.credential} ${method} ${shown(url, 300)} ${payload === undefined ? '' : shown(JSON.stringify(payload), 400)}`;
  }
}

import type { ClientRequest } from 'node:http';
import https from 'node:https';
import { pinnedLookup, type ResolvedAddress } from './target-guard';

/** Bytes of a response body kept in the delivery record. */
export const RESPONSE_BODY_LIMIT = 4096;

/** The service's User-Agent on every delivery. */
export const WEBHOOK_USER_AGENT = 'SalesDistribution-Webhooks/1.0 (+https://github.com/sales-distribution)';

/** What one HTTP attempt came to. */
export interface AttemptOutcome {
  /** The HTTP status, or null when no answer came (timeout, connection or TLS failure). */
  status: number | null;
  /** The first RESPONSE_BODY_LIMIT bytes of the answer, as text. */
  body: string | null;
  durationMs: number;
  /** Why the attempt failed without an answer, or why an answer counts as a failure. */
  error: string | null;
  retryAfter: string | undefined;
}

/** Errors of a reused keep-alive socket the receiver closed just as the request went out. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * POSTs `body` to `url`, connecting only to the vetted address (TLS still checks the URL's host
 * name). Never follows redirects. Gives up after `timeoutMs` for the whole exchange. With an
 * `agent` (keep-alive, see KeepAliveAgents) a socket may be reused; a reused socket that fails
 * with ECONNRESET or EPIPE before any answer is the keep-alive race (the receiver closed it as the
 * request left), so the request is sent once more on a fresh connection, within the same timeout.
 */
export function sendAttempt(
  url: URL,
  pinned: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agent?: https.Agent,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let current: ClientRequest;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const failed = (err: Error) => finish({ status: null, body: null, error: describeFailure(err), retryAfter: undefined });
    const send = (via: https.Agent | false) => {
      const request = https.request(url, {
        method: 'POST',
        lookup: pinnedLookup(pinned),
        agent: via,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      });
      current = request;
      let answered = false;
      request.on('error', (err: Error & { code?: string }) => {
        if (!settled && !answered && via !== false && request.reusedSocket && STALE_SOCKET_CODES.has(err.code ?? '')) send(false);
        else failed(err);
      });
      request.on('response', (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - kept));
          kept += chunk.length;
        });
        response.on('error', failed);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const text = storableText(Buffer.concat(chunks));
          const retryAfter = response.headers['retry-after'];
          const error = status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`;
          finish({ status, body: text, error, retryAfter });
        });
      });
      request.end(body);
    };
    const timer = setTimeout(() => {
      finish({ status: null, body: null, error: `no answer within ${timeoutMs} ms`, retryAfter: undefined });
      // Destroying the socket (not returning it to the pool): its answer may still be on the way.
      current.destroy();
    }, timeoutMs);
    send(agent ?? false);
  });
}

function describeFailure(err: Error & { code?: string }): string {
  return (err.code ? `${err.code}: ${err.message}` : err.message).replaceAll('\u0000', '\uFFFD');
}

/**
 * The kept bytes as text a PostgreSQL column takes: a character cut by the byte limit is dropped
 * (streaming decode holds it back), invalid bytes become U+FFFD, and NUL (which text columns
 * refuse) too.
 */
function storableText(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: true }).replaceAll('\u0000', '\uFFFD');
}

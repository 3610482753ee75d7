import type { FastifyInstance } from 'fastify';
import type { HttpRequest } from './http-load';
import type { SqlCapture, Statement } from './sql-capture';

/** What one request sent to PostgreSQL, and how long the in-process request took. */
export interface CapturedRequest {
  statements: Statement[];
  /** The answer's body (to report, e.g., how many rows a search matched). */
  body: string;
  ms: number;
}

/**
 * Sends `request` to the in-process app and keeps the statements it sent; fails unless it answers
 * 200. With `warmUp` (the default) it is sent once before, unrecorded, so the API-key cache is
 * filled as a steady stream of requests would have it; a request too slow to send twice can warm
 * the cache with a cheap request of the same key instead, and pass `warmUp: false`.
 */
export async function capturedRequest(
  app: FastifyInstance,
  capture: SqlCapture,
  request: HttpRequest,
  options: { warmUp?: boolean } = {},
): Promise<CapturedRequest> {
  const send = () => app.inject({ method: request.method ?? 'GET', url: request.path, headers: request.headers, payload: request.body });
  if (options.warmUp ?? true) await send();
  let status = 0;
  let body = '';
  const started = performance.now();
  const statements = await capture.record(async () => {
    const res = await send();
    status = res.statusCode;
    body = res.body;
  });
  const ms = performance.now() - started;
  if (status !== 200 || body.includes('"errors"')) throw new Error(`${request.path} answered ${status}: ${body.slice(0, 300)}`);
  return { statements, body, ms };
}

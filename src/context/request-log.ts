import type { FastifyRequest } from 'fastify';

/** Path segments that are secrets: the token of an invite or reset link (the spec puts it in the path). */
const SECRET_PATH = /(\/auth\/magic-link\/set-password\/)[^/?#]+/;

/** The URL with secret path segments replaced, fit for a log line. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]');
}

/** Fastify's request log fields, with the URL redacted: logs never hold a usable link token. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

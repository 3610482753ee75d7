import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../errors/app-error';

/** A host name (labels of letters, digits, `-` and `_`), an IPv4 address or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The base URL the caller reached this service at, for absolute links when PUBLIC_API_URL is
 * unset: the request's protocol and Host, or with TRUST_PROXY the X-Forwarded-Proto and
 * X-Forwarded-Host of a trusted proxy (Fastify's `request.protocol` and `request.host` decide,
 * as they do for `request.ip`). A host that is not a host name or address would turn the link
 * into one to somewhere else, so it is refused (400) rather than echoed.
 */
export function requestBaseUrl(request: FastifyRequest): string {
  const protocol = (request.protocol ?? '').trim().toLowerCase();
  const host = request.host.trim();
  if ((protocol !== 'http' && protocol !== 'https') || !HOST.test(host)) {
    throw new ValidationError(
      null,
      'The request names no valid protocol and host (Host, or X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy) to build a link with; send them, or set PUBLIC_API_URL',
    );
  }
  return `${protocol}://${host}`;
}

import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { scopeToOrganization } from '../db/tenant-filter';
import type { SessionService } from '../domains/auth/session.service';
import { ForbiddenError, UnauthenticatedError } from '../errors/app-error';
import { RequestContext, type Principal } from './request-context';
import { userAgentProblem } from './user-agent-rule';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request context; present on every API and GraphQL request. */
    ctx: RequestContext;
  }
  interface FastifyContextConfig {
    /** `public` routes accept requests without a credential (signup, login). */
    auth?: 'public';
  }
}

/** Reads the bearer token from the Authorization header, if any. */
function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthenticatedError('Authorization header must be "Bearer <token>"');
  return match[1];
}

/**
 * The one hook that builds the request context for REST and GraphQL alike: the User-Agent rule,
 * the credential, and an EntityManager fork scoped to the caller's organization. Routes not marked
 * public are refused here (401), before their input is even validated.
 */
export const contextPlugin = fp(
  async (app: FastifyInstance, opts: { orm: MikroORM; sessions: SessionService }) => {
    app.decorateRequest('ctx', null as unknown as RequestContext);
    app.addHook('onRequest', async (request) => {
      if (request.headers['x-api-key'] !== undefined) {
        // Key-authenticated requests skip the User-Agent rule, but no key is valid before keys
        // are issued: the header must never let a request pass unchecked.
        throw new UnauthenticatedError('Invalid API key');
      }
      const problem = userAgentProblem(request.headers['user-agent']);
      if (problem) throw new ForbiddenError(problem);
      const em = opts.orm.em.fork();
      let principal: Principal | null = null;
      const token = bearerToken(request);
      if (token) principal = await opts.sessions.authenticate(em, token);
      if (principal) scopeToOrganization(em, principal.organizationId);
      request.ctx = new RequestContext(request.id, em, principal, request.ip);
      const routeMatched = request.routeOptions.url !== undefined;
      if (!principal && routeMatched && request.routeOptions.config.auth !== 'public') {
        throw new UnauthenticatedError('Authentication required: send a session token or an API key');
      }
    });
  },
  { name: 'request-context' },
);

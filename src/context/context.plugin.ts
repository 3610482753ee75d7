import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { scopeToOrganization } from '../db/tenant-filter';
import type { ApiKeyAuthenticator } from '../domains/api-keys/api-key-authenticator';
import { isReadMethod } from '../domains/api-keys/api-key-scopes';
import { routeGroupOf } from '../domains/api-keys/route-groups';
import type { SessionService } from '../domains/auth/session.service';
import { ForbiddenError, UnauthenticatedError, ValidationError } from '../errors/app-error';
import { declaredBudgetOf, spendBudget, spentOnArrival, type BudgetDeclaration } from './budgets';
import { budgetKey, callerKey, type Limits } from './rate-limits';
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
    /**
     * The budget the route spends beyond the general one (see `BudgetDeclaration`); by default its
     * group's (exports, reports), `null` for none (export file downloads).
     */
    budget?: BudgetDeclaration | null;
    /**
     * The route's URL carries its own credential, a signature (pre-signed export downloads): the
     * User-Agent rule, which keeps scripts to API keys, does not apply, so curl can fetch it.
     */
    signedUrl?: true;
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

export interface ContextOptions {
  orm: MikroORM;
  sessions: SessionService;
  apiKeys: ApiKeyAuthenticator;
  limits: Limits;
}

/** A request's caller as the first step found it: the credential, or the refusal it met. */
interface Admission {
  principal: Principal | null;
  refusal: unknown;
  /** The route group (`routeGroupOf`), null outside /api/v1. */
  group: string | null;
}

/**
 * The first step of every request: the credential (session token or X-API-Key; a blocked
 * address's keys are not even looked up), then the caller's general budget and the budget the
 * route declares when its key needs nothing of the input (`declaredBudgetOf`: exports, reports,
 * signup), so every answer, refusals and invalid input included, carries the rate-limit headers.
 * A spent budget throws (429); a bad credential is handed back, to be refused after the charge.
 */
export function admission(opts: ContextOptions) {
  const authenticate = async (request: FastifyRequest, reply: FastifyReply, em: RequestContext['em']): Promise<Principal | null> => {
    const presentedKey = request.headers['x-api-key'];
    if (presentedKey === undefined) {
      const token = bearerToken(request);
      return token ? opts.sessions.authenticate(em, token) : null;
    }
    if (request.headers.authorization !== undefined) {
      throw new ValidationError(null, 'Send one credential: either X-API-Key or Authorization, not both');
    }
    const address = budgetKey('badKey', { principal: null, clientIp: request.ip });
    await opts.limits.assertNotSpent(request, reply, 'badKey', address);
    try {
      return await opts.apiKeys.authenticate(em, Array.isArray(presentedKey) ? '' : presentedKey);
    } catch (err) {
      if (err instanceof UnauthenticatedError) await opts.limits.spend(request, reply, 'badKey', address);
      throw err;
    }
  };

  return async (request: FastifyRequest, reply: FastifyReply, em: RequestContext['em']): Promise<Admission> => {
    let principal: Principal | null = null;
    let refusal: unknown = null;
    try {
      principal = await authenticate(request, reply, em);
    } catch (err) {
      refusal = err;
    }
    await opts.limits.spend(request, reply, 'general', callerKey(principal, request.ip));
    const declared = declaredBudgetOf(request);
    if (declared && spentOnArrival(declared)) await spendBudget(opts.limits, request, reply, declared, { principal, clientIp: request.ip });
    return { principal, refusal, group: routeGroupOf(request) };
  };
}

/**
 * The one hook that builds the request context for REST and GraphQL alike, in this order:
 * 1. the credential and the caller's budgets (`admission`);
 * 2. refusals: a bad credential, the User-Agent rule (requests without a key, on routes without a
 *    signed URL), a key's scopes;
 * 3. an EntityManager fork scoped to the caller's organization.
 * Routes not marked public are refused (401) before their input is even validated. Once the input
 * is valid, the route's budget keyed on it (sign-in: the target account) is spent, before the handler.
 */
export const contextPlugin = fp(
  async (app: FastifyInstance, opts: ContextOptions) => {
    app.decorateRequest('ctx', null as unknown as RequestContext);
    const admit = admission(opts);

    app.addHook('onRequest', async (request, reply) => {
      const em = opts.orm.em.fork();
      const { principal, refusal, group } = await admit(request, reply, em);
      if (refusal) throw refusal;

      if (principal?.kind !== 'apiKey' && request.routeOptions.config?.signedUrl !== true) {
        const problem = userAgentProblem(request.headers['user-agent']);
        if (problem) throw new ForbiddenError(problem);
      }
      // GraphQL operations are checked field by field once parsed (graphql/key-scopes.ts).
      if (principal?.kind === 'apiKey' && group !== null) {
        opts.apiKeys.scopes.assertMayReach(principal.scopes, group, isReadMethod(request.method) ? 'read' : 'write');
      }
      if (principal) scopeToOrganization(em, principal.organizationId);
      request.ctx = new RequestContext(request.id, em, principal, request.ip);
      const routeMatched = request.routeOptions.url !== undefined;
      if (!principal && routeMatched && request.routeOptions.config.auth !== 'public') {
        throw new UnauthenticatedError('Authentication required: send a session token or an API key');
      }
    });

    // A budget keyed on the input is spent by a preHandler that only routes declaring one carry.
    const spendDeclared = async (request: FastifyRequest, reply: FastifyReply) => {
      const declared = declaredBudgetOf(request);
      if (declared && !spentOnArrival(declared)) await spendBudget(opts.limits, request, reply, declared, request.ctx, request.body);
    };
    app.addHook('onRoute', (route) => {
      const declared = route.config?.budget;
      if (!declared || spentOnArrival(declared)) return;
      const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
      route.preHandler = [spendDeclared, ...own];
    });
  },
  { name: 'request-context' },
);

import type { EntityManager } from '@mikro-orm/postgresql';
import { ForbiddenError, UnauthenticatedError } from '../errors/app-error';
import { UserType } from '../domains/users/user.entity';

/** A signed-in user, authenticated by a session token. */
export interface SessionPrincipal {
  kind: 'session';
  organizationId: number;
  userId: number;
  userType: UserType;
  sessionId: string;
}

/** Who is calling. Later credential kinds (API keys) join this union. */
export type Principal = SessionPrincipal;

/**
 * Everything a service needs to know about the request: who calls, for which organization,
 * and the EntityManager fork whose tenant filter is set to that organization.
 * Built once per request and shared by REST and GraphQL.
 */
export class RequestContext {
  constructor(
    readonly requestId: string,
    readonly em: EntityManager,
    readonly principal: Principal | null,
    /** The client's address (the socket peer, or per TRUST_PROXY the forwarded one). */
    readonly clientIp: string,
  ) {}

  /** The caller's organization; fails closed when the request carries no credential. */
  get organizationId(): number {
    return this.requirePrincipal().organizationId;
  }

  /** The signed-in user's id, or null for callers that are not a user. */
  get userId(): number | null {
    return this.principal?.kind === 'session' ? this.principal.userId : null;
  }

  requirePrincipal(): Principal {
    if (!this.principal) throw new UnauthenticatedError();
    return this.principal;
  }

  requireSession(): SessionPrincipal {
    const principal = this.requirePrincipal();
    if (principal.kind !== 'session') throw new ForbiddenError('This operation needs a signed-in user session');
    return principal;
  }

  /** Only workspace administrators signed in with a session pass. */
  requireAdmin(): SessionPrincipal {
    const session = this.requireSession();
    if (session.userType !== UserType.ADMIN) throw new ForbiddenError('Only workspace administrators may do this');
    return session;
  }
}

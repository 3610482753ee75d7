import type { EntityManager } from '@mikro-orm/postgresql';
import { ForbiddenError, UnauthenticatedError } from '../errors/app-error';
import type { KeyScopes } from '../domains/api-keys/api-key-scopes';
import { UserType } from '../domains/users/user.entity';

/** A signed-in user, authenticated by a session token. */
export interface SessionPrincipal {
  kind: 'session';
  organizationId: number;
  userId: number;
  userType: UserType;
  sessionId: string;
}

/** An integration, authenticated by an API key (X-API-Key). */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  organizationId: number;
  apiKeyId: number;
  scopes: KeyScopes;
}

/** Who is calling. */
export type Principal = SessionPrincipal | ApiKeyPrincipal;

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

  /** The calling API key's id, or null for callers that are not a key. */
  get apiKeyId(): number | null {
    return this.principal?.kind === 'apiKey' ? this.principal.apiKeyId : null;
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

  /**
   * Administrators pass, and so do API keys: an administrator issued the key, and its scopes
   * (checked before any service runs) bound what it reaches. Use `requireAdminSession` for what
   * keys must not do.
   */
  requireAdminOrKey(): Principal {
    const principal = this.requirePrincipal();
    if (principal.kind === 'apiKey') return principal;
    return this.requireAdminSession();
  }

  /** Only administrators signed in with a session pass (API keys are refused). */
  requireAdminSession(): SessionPrincipal {
    const session = this.requireSession();
    if (session.userType !== UserType.ADMIN) throw new ForbiddenError('Only workspace administrators may do this');
    return session;
  }
}

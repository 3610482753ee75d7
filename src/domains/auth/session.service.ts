import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import jwt from 'jsonwebtoken';
import type { RequestContext, SessionPrincipal } from '../../context/request-context';
import { UnauthenticatedError } from '../../errors/app-error';
import { User } from '../users/user.entity';
import { ActiveStatus } from '../../shared/active-status';

/** Session tokens live 15 days. */
export const SESSION_TTL_SECONDS = 15 * 24 * 60 * 60;

interface SessionClaims {
  sub: string;
  org: number;
  sid: string;
}

/**
 * Issues and checks session tokens (JWT, HS256). Each user has at most one valid session:
 * the token names its session id and only the id stored on the user is accepted.
 */
export class SessionService {
  constructor(private readonly secret: string) {}

  /** Starts a session for the user, ending any previous one, and returns its token. */
  async start(em: EntityManager, user: User): Promise<string> {
    const sessionId = randomUUID();
    user.currentSessionId = sessionId;
    await em.flush();
    return jwt.sign({ org: user.organizationId, sid: sessionId }, this.secret, {
      algorithm: 'HS256',
      subject: String(user.id),
      expiresIn: SESSION_TTL_SECONDS,
      jwtid: randomUUID(),
    });
  }

  /** Ends the caller's session: its token stops working at once. */
  async end(ctx: RequestContext): Promise<void> {
    const session = ctx.requireSession();
    const user = await ctx.em.findOneOrFail(User, { id: session.userId });
    if (user.currentSessionId === session.sessionId) {
      user.currentSessionId = null;
      await ctx.em.flush();
    }
  }

  /** Checks a bearer token and returns who it belongs to; any failure is a 401. */
  async authenticate(em: EntityManager, token: string): Promise<SessionPrincipal> {
    let claims: SessionClaims;
    try {
      claims = jwt.verify(token, this.secret, { algorithms: ['HS256'] }) as unknown as SessionClaims;
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      throw new UnauthenticatedError(expired ? 'Session token has expired' : 'Invalid session token');
    }
    const userId = Number(claims.sub);
    if (!Number.isInteger(userId) || typeof claims.sid !== 'string') {
      throw new UnauthenticatedError('Invalid session token');
    }
    // The one lookup that cannot be tenant-filtered: the tenant is what it establishes.
    // A separate fork keeps this partial entity out of the request's identity map.
    const user = await em.fork().findOne(
      User,
      { id: userId, organizationId: claims.org },
      { filters: false, fields: ['id', 'organizationId', 'userType', 'status', 'currentSessionId'] },
    );
    if (!user || user.currentSessionId !== claims.sid) {
      throw new UnauthenticatedError('Session has ended; sign in again');
    }
    if (user.status !== ActiveStatus.ACTIVE) throw new UnauthenticatedError('User account is inactive');
    return {
      kind: 'session',
      organizationId: user.organizationId,
      userId: user.id,
      userType: user.userType,
      sessionId: claims.sid,
    };
  }
}

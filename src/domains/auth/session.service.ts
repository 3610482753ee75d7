import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import jwt from 'jsonwebtoken';
import type { RequestContext, SessionPrincipal } from '../../context/request-context';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { UnauthenticatedError } from '../../errors/app-error';
import { User, type UserType } from '../users/user.entity';
import { assertWorkspaceOpen } from '../workspace/workspace-gates';
import type { WorkspaceStatus } from '../workspace/organization.entity';
import { ActiveStatus } from '../../db/active-status';

/** Session tokens live 15 days. */
export const SESSION_TTL_SECONDS = 15 * 24 * 60 * 60;

interface SessionRow {
  user_type: UserType;
  status: ActiveStatus;
  current_session_id: string | null;
  workspace_status: WorkspaceStatus;
}

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
    if (!Number.isInteger(userId) || typeof claims.sid !== 'string' || !Number.isSafeInteger(claims.org) || claims.org <= 0) {
      throw new UnauthenticatedError('Invalid session token');
    }
    // The one lookup that cannot be tenant-filtered: the tenant is what it establishes. One
    // statement reads the user and the workspace status together (no extra round trip).
    const [row] = await executeSql<SessionRow>(
      em,
      sql`select u.user_type, u.status, u.current_session_id, o.status as workspace_status
         from app_user u join organization o on o.id = u.organization_id
        where ${tenantSql(claims.org, 'u').owns()} and u.id = ${userId}`,
    );
    if (!row || row.current_session_id !== claims.sid) {
      throw new UnauthenticatedError('Session has ended; sign in again');
    }
    if (row.status !== ActiveStatus.ACTIVE) throw new UnauthenticatedError('User account is inactive');
    assertWorkspaceOpen(row.workspace_status);
    return {
      kind: 'session',
      organizationId: claims.org,
      userId,
      userType: row.user_type,
      sessionId: claims.sid,
    };
  }
}

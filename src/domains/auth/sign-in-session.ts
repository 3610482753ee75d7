import type { EntityManager } from '@mikro-orm/postgresql';
import { scopeToOrganization } from '../../db/tenant-filter';
import { ForbiddenError, type AppError } from '../../errors/app-error';
import { ActiveStatus } from '../../shared/active-status';
import type { Role } from '../users/role.entity';
import type { User } from '../users/user.entity';
import { Organization } from '../workspace/organization.entity';
import { AccountLockedError, assertNotLocked, clearFailedSignIns, recordFailedSignIn } from './lockout';
import { navigationFor, type NavigationModule } from './navigation';
import type { SessionService } from './session.service';

/** What every sign-in method returns: the login shape of the interface. */
export interface SignInResult {
  token: string;
  user: User;
  role: Role;
  organization: Organization;
  modules: NavigationModule[];
}

/**
 * The steps every sign-in method shares: the lock check, counting a failure against the
 * account, and starting the one session of the user once the credential has proved itself.
 */
export class SignInSessions {
  constructor(private readonly sessions: SessionService) {}

  /** 423 while the account is locked, whatever the credential. */
  assertNotLocked(user: User): void {
    assertNotLocked(user);
  }

  /** Counts a failed sign-in of the user and throws: 423 when this one locked the account, else `error`. */
  async fail(em: EntityManager, user: User, error: AppError): Promise<never> {
    const lockedUntil = await recordFailedSignIn(em, user);
    throw lockedUntil ? new AccountLockedError(lockedUntil) : error;
  }

  /**
   * The credential is good: refuses inactive accounts (403), clears failures, ends any other
   * session and starts a new one. Scopes the EntityManager to the user's workspace.
   */
  async complete(em: EntityManager, user: User): Promise<SignInResult> {
    if (user.status !== ActiveStatus.ACTIVE) {
      throw new ForbiddenError('This account is inactive; ask a workspace administrator to reactivate it');
    }
    scopeToOrganization(em, user.organizationId);
    await clearFailedSignIns(em, user);
    const token = await this.sessions.start(em, user);
    await em.populate(user, ['role']);
    const organization = await em.findOneOrFail(Organization, { id: user.organizationId });
    return { token, user, role: user.role, organization, modules: navigationFor(user.userType) };
  }
}

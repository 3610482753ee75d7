import type { EntityManager } from '@mikro-orm/postgresql';
import { rowOf, type Row } from '../../db/entity-rows';
import { scopeToOrganization } from '../../db/tenant-filter';
import { ForbiddenError, type AppError } from '../../errors/app-error';
import { ActiveStatus } from '../../db/active-status';
import { readUsers, type UserRead } from '../users/user-read';
import { User } from '../users/user.entity';
import type { Organization } from '../workspace/organization.entity';
import { organizationRow } from '../workspace/organization-row';
import { assertWorkspaceOpen } from '../workspace/workspace-gates';
import { AccountLockedError, clearFailedSignIns, lockAccountRow, recordFailedSignIn, type AccountRef } from './lockout';
import { navigationFor, type NavigationModule } from './navigation';
import type { SessionService } from './session.service';

/** What every sign-in method returns: the login shape of the interface, the user as a user read. */
export interface SignInResult extends UserRead {
  token: string;
  organization: Row<Organization>;
  modules: NavigationModule[];
}

/**
 * The steps every sign-in method shares: the lock check, counting a failure against the
 * account, and starting the one session of the user once the credential has proved itself.
 */
export class SignInSessions {
  constructor(private readonly sessions: SessionService) {}

  /**
   * One attempt to prove a credential of `account`, serialized with the account's other
   * attempts by its row lock, so parallel guesses cannot slip past the fifth failure. A locked
   * account answers 423 before `check` runs (nothing is used up). `check` returns the error to
   * answer, or null when the credential is good; its writes (a redeemed code, a spent challenge)
   * are kept either way. A failure is counted and thrown (423 when it locked the account); a
   * success clears the count. Unknown identifiers pass NO_ACCOUNT: the same statements run, so the
   * timing does not tell that the account does not exist.
   */
  async attempt(em: EntityManager, account: AccountRef, check: (tx: EntityManager) => Promise<AppError | null>): Promise<void> {
    const outcome = await em.transactional(async (tx) => {
      const lockedUntil = await lockAccountRow(tx, account);
      if (lockedUntil) return new AccountLockedError(lockedUntil);
      const failure = await check(tx);
      if (!failure) {
        await clearFailedSignIns(tx, account);
        return null;
      }
      const nowLocked = await recordFailedSignIn(tx, account);
      return nowLocked ? new AccountLockedError(nowLocked) : failure;
    });
    if (outcome) throw outcome;
  }

  /**
   * After a successful attempt: refuses inactive accounts and suspended workspaces (403), ends
   * any other session and starts a new one. Scopes the EntityManager to the user's workspace.
   */
  async complete(em: EntityManager, user: User): Promise<SignInResult> {
    if (user.status !== ActiveStatus.ACTIVE) {
      throw new ForbiddenError('This account is inactive; ask a workspace administrator to reactivate it');
    }
    scopeToOrganization(em, user.organizationId);
    const organization = await organizationRow(em, user.organizationId);
    assertWorkspaceOpen(organization.status);
    const token = await this.sessions.start(em, user);
    const [read] = await readUsers(em, [rowOf(em, User, user)]);
    return { token, ...read, organization, modules: navigationFor(user.userType) };
  }
}

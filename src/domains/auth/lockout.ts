import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors/app-error';
import { findUserByEmail } from '../users/user-lookup';
import type { User } from '../users/user.entity';

/** Five failed sign-ins lock an account for 30 minutes (interface: Lockout and throttling). */
export const LOCKOUT = { maxFailures: 5, minutes: 30 } as const;

/** 423: the account is locked; every sign-in method refuses it, even with the right credentials. */
export class AccountLockedError extends AppError {
  constructor(readonly lockedUntil: Date) {
    super('LOCKED', `Account locked after ${LOCKOUT.maxFailures} failed sign-ins; try again after ${lockedUntil.toISOString()}`);
  }
}

/** The account a sign-in attempt is about: a user, or NO_ACCOUNT when the identifier matched nobody. */
export type AccountRef = Pick<User, 'id' | 'organizationId'>;

/** Ids no row has: attempts on unknown identifiers run the same statements, which match nothing. */
export const NO_ACCOUNT: AccountRef = { id: 0, organizationId: 0 };

/**
 * Takes the account's row lock until the caller's transaction ends, so attempts on one account
 * run one after another, and returns the end of its lock when it is locked now, else null.
 */
export async function lockAccountRow(tx: EntityManager, account: AccountRef): Promise<Date | null> {
  const rows = await tx.execute<{ locked_until: Date | null }[]>(
    'select locked_until from app_user where id = ? and organization_id = ? for update',
    [account.id, account.organizationId],
  );
  const lockedUntil = rows[0]?.locked_until ? new Date(rows[0].locked_until) : null;
  return lockedUntil && lockedUntil > new Date() ? lockedUntil : null;
}

/**
 * Counts one failed sign-in of any method and locks the account on the fifth; a lock that has
 * run out starts a fresh count. Returns the lock's end when this failure locked the account.
 */
export async function recordFailedSignIn(em: EntityManager, user: AccountRef): Promise<Date | null> {
  const restart = 'locked_until is not null and locked_until <= now()';
  const next = `case when ${restart} then 1 else failed_sign_ins + 1 end`;
  const rows = await em.execute<{ locked_until: Date | null }[]>(
    `update app_user set
       failed_sign_ins = least(${next}, 32767),
       locked_until = case when ${next} >= ? then now() + make_interval(mins => ?)
                           when ${restart} then null else locked_until end
     where id = ? and organization_id = ?
     returning locked_until`,
    [LOCKOUT.maxFailures, LOCKOUT.minutes, user.id, user.organizationId],
  );
  const lockedUntil = rows[0]?.locked_until;
  return lockedUntil ? new Date(lockedUntil) : null;
}

/** Lifts a lock and clears the count (a successful sign-in, or the operator's user:unlock). */
export async function clearFailedSignIns(em: EntityManager, user: AccountRef): Promise<void> {
  await em.execute('update app_user set failed_sign_ins = 0, locked_until = null where id = ? and organization_id = ?', [user.id, user.organizationId]);
}

/** What unlocking an account found. */
export interface UnlockOutcome {
  email: string;
  wasLocked: boolean;
  failedSignIns: number;
}

/** Operator action (user:unlock): lifts the lock of the account with this e-mail; null when there is none. */
export async function unlockAccount(em: EntityManager, email: string): Promise<UnlockOutcome | null> {
  const user = await findUserByEmail(em, email);
  if (!user) return null;
  const outcome = { email: user.officialEmail!, wasLocked: !!user.lockedUntil && user.lockedUntil > new Date(), failedSignIns: user.failedSignIns };
  await clearFailedSignIns(em, user);
  return outcome;
}

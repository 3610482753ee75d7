import type { RequestContext } from '../../context/request-context';
import { ForbiddenError, UnauthenticatedError, ValidationError } from '../../errors/app-error';
import { hashPassword, spendPasswordCheckTime, verifyPassword } from './passwords';
import * as rules from '../../validation/rules';
import { findUserByEmail } from '../users/user-lookup';
import { isCustomerType, User } from '../users/user.entity';
import type { BotCheck } from './bot-check/bot-check';
import { NO_ACCOUNT } from './lockout';
import type { OneTimeCodes } from './one-time-codes';
import type { SessionService } from './session.service';
import type { SignInResult, SignInSessions } from './sign-in-session';

/** What password sign-in needs. */
export interface PasswordLoginInput {
  email: string;
  password: string;
  /** Proof from the browser bot-check. */
  challengeToken?: string | null;
}

/** Who may sign in through a password sign-in: the customer portal admits distributors and retailers only. */
export interface PasswordLoginOptions {
  customersOnly?: boolean;
}

const WRONG_CREDENTIALS = 'Invalid e-mail or password';

/** Password sign-in behind the bot-check, and password change. */
export class PasswordAuthService {
  constructor(
    private readonly botCheck: BotCheck,
    private readonly signIns: SignInSessions,
    private readonly sessions: SessionService,
    private readonly codes: OneTimeCodes,
  ) {}

  /** A new challenge for the bot-check widget (ALTCHA); null when the provider issues its own. */
  challenge(): Promise<object | null> {
    return this.botCheck.challenge();
  }

  /**
   * E-mail and password, after the bot-check. A wrong e-mail costs the same password check as a
   * wrong password, so the timing does not tell which accounts exist.
   */
  async login(ctx: RequestContext, input: PasswordLoginInput, options: PasswordLoginOptions = {}): Promise<SignInResult> {
    const email = rules.email('email', input.email);
    if (!input.password) throw new ValidationError('password', 'is required');
    if (input.password.length > rules.MAX_PASSWORD_LENGTH) {
      throw new ValidationError('password', `must be at most ${rules.MAX_PASSWORD_LENGTH} characters`);
    }
    const token = (input.challengeToken ?? '').trim();
    if (!token) throw new ValidationError('challengeToken', 'is missing: security verification is required');
    if (!(await this.botCheck.verify({ token, remoteIp: ctx.clientIp, em: ctx.em }))) {
      throw new ValidationError('challengeToken', 'failed security verification; solve a new challenge and retry');
    }
    const user = await findUserByEmail(ctx.em, email);
    const wrong = new UnauthenticatedError(WRONG_CREDENTIALS);
    // An unknown e-mail runs the same attempt against a dummy hash and no row.
    await this.signIns.attempt(ctx.em, user ?? NO_ACCOUNT, async () => {
      const matches = user ? await verifyPassword(user.passwordHash, input.password) : await spendPasswordCheckTime(input.password);
      return matches ? null : wrong;
    });
    // Checked once the password has proved itself (the same attempt, lockout and timing as any
    // sign-in), before a session starts: a staff account's session stays where it was.
    if (options.customersOnly && !isCustomerType(user!.userType)) {
      throw new ForbiddenError('The customer portal is for distributors and retailers; staff sign in at /auth/login');
    }
    return this.signIns.complete(ctx.em, user!);
  }

  /**
   * Checks the current password (a wrong one counts toward the lockout), sets the new one and
   * starts a new session: every earlier token, and every outstanding code or link, stops working.
   */
  async changePassword(ctx: RequestContext, currentPassword: string, newPassword: string): Promise<string> {
    const session = ctx.requireSession();
    const next = rules.newPassword('newPassword', newPassword);
    if (currentPassword === next) throw new ValidationError('newPassword', 'must differ from the current password');
    const user = await ctx.em.findOneOrFail(User, { id: session.userId }, { populate: ['passwordHash'] });
    // A wrong current password counts as a failed sign-in: a stolen session cannot guess freely.
    await this.signIns.attempt(ctx.em, user, async () =>
      (await verifyPassword(user.passwordHash, currentPassword)) ? null : new ValidationError('currentPassword', 'is incorrect'),
    );
    user.passwordHash = await hashPassword(next);
    const token = await this.sessions.start(ctx.em, user);
    await this.codes.revokeAll(ctx.em, user.id);
    return token;
  }
}

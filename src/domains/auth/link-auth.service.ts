import type { RequestContext } from '../../context/request-context';
import { UnauthenticatedError } from '../../errors/app-error';
import { ActiveStatus } from '../../shared/active-status';
import { hashPassword } from '../../shared/passwords';
import * as rules from '../../shared/rules';
import type { Messenger } from '../../messaging/messenger';
import { scopeToOrganization } from '../../db/tenant-filter';
import { findUserByEmail } from '../users/user-lookup';
import type { User } from '../users/user.entity';
import { Organization } from '../workspace/organization.entity';
import { CODE_TTL_MS, OneTimeCodes } from './one-time-codes';
import { SignInCodePurpose } from './sign-in-code.entity';
import type { SignInResult, SignInSessions } from './sign-in-session';

/** What an e-mailed link is for: signing in, or setting a new password. */
export type LinkPurpose = 'sign_in' | 'reset_password';

const INVALID_LINK = 'This link is invalid, used or expired; ask for a new one';

/** Where each kind of link points in the web app (PUBLIC_APP_URL); the token travels in the query. */
const LINK_PAGES: Partial<Record<SignInCodePurpose, string>> = {
  [SignInCodePurpose.MAGIC_LINK]: '/auth/magic-link',
  [SignInCodePurpose.PASSWORD_RESET]: '/auth/set-password',
  [SignInCodePurpose.INVITE]: '/auth/set-password',
};

const humanDuration = (ms: number) => (ms >= 86_400_000 ? `${ms / 86_400_000} days` : ms >= 3_600_000 ? `${ms / 3_600_000} hour(s)` : `${ms / 60_000} minutes`);

/** Magic sign-in links, and invite and reset links that set a password (and never sign in). */
export class LinkAuthService {
  constructor(
    private readonly codes: OneTimeCodes,
    private readonly messenger: Messenger,
    private readonly signIns: SignInSessions,
    private readonly appUrl: URL,
  ) {}

  /** E-mails a single-use link to the address's active user; the caller answers the same whether or not it is known. */
  async request(ctx: RequestContext, email: string, purpose: LinkPurpose = 'sign_in'): Promise<void> {
    const address = rules.email('email', email);
    const user = await findUserByEmail(ctx.em, address);
    if (!user || user.status !== ActiveStatus.ACTIVE) return;
    scopeToOrganization(ctx.em, user.organizationId);
    await this.send(ctx, user, purpose === 'sign_in' ? SignInCodePurpose.MAGIC_LINK : SignInCodePurpose.PASSWORD_RESET);
  }

  /** E-mails an invite link to a user an admin just created (a no-op for users without e-mail). */
  async invite(ctx: RequestContext, user: User): Promise<void> {
    if (user.officialEmail) await this.send(ctx, user, SignInCodePurpose.INVITE);
  }

  /** Redeems a magic link for a session. Invite and reset links are not accepted here. */
  async verify(ctx: RequestContext, token: string): Promise<SignInResult> {
    const code = await this.codes.findBySecret(ctx.em, [SignInCodePurpose.MAGIC_LINK], token);
    if (!code) throw new UnauthenticatedError(INVALID_LINK);
    const user = code.user;
    this.signIns.assertNotLocked(user);
    if (!OneTimeCodes.isLive(code) || !(await this.codes.redeem(ctx.em, code))) {
      return this.signIns.fail(ctx.em, user, new UnauthenticatedError(INVALID_LINK));
    }
    return this.signIns.complete(ctx.em, user);
  }

  /**
   * Sets a password from an invite or reset link and ends the user's session and every other
   * outstanding code or link (a reset often follows a suspected compromise); returns no token.
   * The password is checked first, so a weak one does not use up the link.
   */
  async setPassword(ctx: RequestContext, token: string, password: string): Promise<void> {
    const next = rules.newPassword('password', password);
    const code = await this.codes.findBySecret(ctx.em, [SignInCodePurpose.INVITE, SignInCodePurpose.PASSWORD_RESET], token);
    if (!code || !OneTimeCodes.isLive(code)) throw new UnauthenticatedError(INVALID_LINK);
    const passwordHash = await hashPassword(next);
    if (!(await this.codes.redeem(ctx.em, code))) throw new UnauthenticatedError(INVALID_LINK);
    scopeToOrganization(ctx.em, code.organizationId);
    code.user.passwordHash = passwordHash;
    code.user.currentSessionId = null;
    await ctx.em.flush();
    await this.codes.revokeAll(ctx.em, code.user.id);
  }

  private async send(ctx: RequestContext, user: User, purpose: SignInCodePurpose): Promise<void> {
    const { secret } = await this.codes.issue(ctx.em, user, purpose);
    const workspace = await ctx.em.findOneOrFail(Organization, { id: user.organizationId });
    const link = new URL(LINK_PAGES[purpose]!, this.appUrl);
    link.searchParams.set('token', secret);
    const validity = humanDuration(CODE_TTL_MS[purpose]);
    const [subject, intro] =
      purpose === SignInCodePurpose.MAGIC_LINK
        ? [`Sign in to ${workspace.displayName}`, 'Open this link to sign in:']
        : purpose === SignInCodePurpose.INVITE
          ? [`You are invited to ${workspace.displayName}`, `${user.firstName}, an administrator created your account. Open this link to choose your password:`]
          : [`Reset your ${workspace.displayName} password`, 'Open this link to choose a new password:'];
    const text = `${intro}\n\n${link.toString()}\n\nThe link works once and expires in ${validity}. If you did not expect this e-mail, ignore it.\n`;
    await this.messenger.email(user.officialEmail!, subject, text);
  }
}

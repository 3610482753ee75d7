import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { scopeToOrganization } from '../../db/tenant-filter';
import { UnauthenticatedError } from '../../errors/app-error';
import type { Messenger } from '../../messaging/messenger';
import { ActiveStatus } from '../../db/active-status';
import type { BackgroundTasks } from '../../concurrency/background-tasks';
import { hashPassword } from './passwords';
import * as rules from '../../validation/rules';
import { findUserByEmail } from '../users/user-lookup';
import type { User } from '../users/user.entity';
import { Organization } from '../workspace/organization.entity';
import { LinkPurpose } from './link-purpose';
import { CODE_TTL_MS, OneTimeCodes } from './one-time-codes';
import { SignInCodePurpose } from './sign-in-code.entity';
import type { SignInResult, SignInSessions } from './sign-in-session';

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
    private readonly background: BackgroundTasks,
    private readonly signIns: SignInSessions,
    private readonly appUrl: URL,
  ) {}

  /**
   * E-mails a single-use link to the address's active user, in the background, so the answer
   * takes the same time whether or not the address is known (callers answer the same either way).
   */
  async request(ctx: RequestContext, email: string, purpose: LinkPurpose = LinkPurpose.SIGN_IN): Promise<void> {
    const address = rules.email('email', email);
    const user = await findUserByEmail(ctx.em, address);
    if (!user || user.status !== ActiveStatus.ACTIVE) return;
    this.sendInBackground(ctx, user, purpose === LinkPurpose.SIGN_IN ? SignInCodePurpose.MAGIC_LINK : SignInCodePurpose.PASSWORD_RESET);
  }

  /**
   * E-mails an invite link to a user an admin just created (nothing for users without e-mail).
   * In the background: a slow or failing mail server does not hold or fail the creation.
   */
  invite(ctx: RequestContext, user: User): void {
    if (user.officialEmail) this.sendInBackground(ctx, user, SignInCodePurpose.INVITE);
  }

  /**
   * E-mails a password-reset link to a user an administrator or API key names (the caller checks
   * that the user is active and has an e-mail address). The link only lets the user choose a new
   * password; nobody else learns it. In the background, like the other links.
   */
  sendPasswordReset(ctx: RequestContext, user: User): void {
    this.sendInBackground(ctx, user, SignInCodePurpose.PASSWORD_RESET);
  }

  /** Redeems a magic link for a session. Invite and reset links are not accepted here. */
  async verify(ctx: RequestContext, token: string): Promise<SignInResult> {
    const code = await this.codes.findBySecret(ctx.em, [SignInCodePurpose.MAGIC_LINK], token);
    if (!code) throw new UnauthenticatedError(INVALID_LINK);
    const user = code.user;
    await this.signIns.attempt(ctx.em, user, async (tx) =>
      OneTimeCodes.isLive(code) && (await this.codes.redeem(tx, code)) ? null : new UnauthenticatedError(INVALID_LINK),
    );
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

  private sendInBackground(ctx: RequestContext, user: User, purpose: SignInCodePurpose): void {
    this.background.run(`${purpose} e-mail`, () => this.send(ctx.em.fork(), user, purpose));
  }

  private async send(em: EntityManager, user: User, purpose: SignInCodePurpose): Promise<void> {
    scopeToOrganization(em, user.organizationId);
    const { secret } = await this.codes.issue(em, user, purpose);
    const workspace = await em.findOneOrFail(Organization, { id: user.organizationId });
    // Below the app's own path, if it has one (PUBLIC_APP_URL=https://example.com/app).
    const link = new URL(this.appUrl.pathname.replace(/\/$/, '') + LINK_PAGES[purpose]!, this.appUrl.origin);
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

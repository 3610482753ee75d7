import type { RequestContext } from '../../context/request-context';
import { scopeToOrganization } from '../../db/tenant-filter';
import { UnauthenticatedError, ValidationError } from '../../errors/app-error';
import type { Messenger } from '../../messaging/messenger';
import { ActiveStatus } from '../../db/active-status';
import type { BackgroundTasks } from '../../concurrency/background-tasks';
import * as rules from '../../validation/rules';
import { findUserByPhone } from '../users/user-lookup';
import { Organization } from '../workspace/organization.entity';
import { NO_ACCOUNT } from './lockout';
import { CODE_TTL_MS, OneTimeCodes } from './one-time-codes';
import { SignInCodePurpose } from './sign-in-code.entity';
import type { SignInResult, SignInSessions } from './sign-in-session';

/** The one answer to every failed OTP verification (unknown phone, wrong, expired or used code). */
export const OTP_FAILURE_MESSAGE = 'Invalid or expired code';
const OTP_FORMAT = /^\d{6}$/;

/** Sign-in with a 6-digit code sent by SMS. */
export class OtpAuthService {
  constructor(
    private readonly codes: OneTimeCodes,
    private readonly messenger: Messenger,
    private readonly background: BackgroundTasks,
    private readonly signIns: SignInSessions,
  ) {}

  /**
   * Texts a new code to the phone's active user, replacing any earlier code. Issuing and sending
   * happen in the background, so the answer takes the same time whether or not the phone is known
   * (callers answer the same either way).
   */
  async request(ctx: RequestContext, phone: string): Promise<void> {
    const number = rules.phone('phone', phone);
    const user = await findUserByPhone(ctx.em, number);
    if (!user || user.status !== ActiveStatus.ACTIVE) return;
    this.background.run('sign-in code by SMS', async () => {
      const em = ctx.em.fork();
      scopeToOrganization(em, user.organizationId);
      const { secret } = await this.codes.issue(em, user, SignInCodePurpose.OTP);
      const workspace = await em.findOneOrFail(Organization, { id: user.organizationId });
      const minutes = CODE_TTL_MS[SignInCodePurpose.OTP] / 60_000;
      await this.messenger.textMessage(number, `${secret} is your ${workspace.displayName} sign-in code. It expires in ${minutes} minutes. Never share it.`);
    });
  }

  /** Redeems the code; every failure has the same status and message, and counts against the account. */
  async verify(ctx: RequestContext, phone: string, otp: string): Promise<SignInResult> {
    const failure = new UnauthenticatedError(OTP_FAILURE_MESSAGE);
    let number: string;
    try {
      number = rules.phone('phone', phone);
    } catch (err) {
      if (err instanceof ValidationError) throw failure;
      throw err;
    }
    const user = await findUserByPhone(ctx.em, number);
    // An unknown phone runs the same attempt against no row, so its timing matches a wrong code.
    await this.signIns.attempt(ctx.em, user ?? NO_ACCOUNT, async (tx) => {
      const code = OTP_FORMAT.test(otp) ? await this.codes.matchOtp(tx, user?.id ?? NO_ACCOUNT.id, otp) : null;
      const redeemed = code !== null && OneTimeCodes.isLive(code) && (await this.codes.redeem(tx, code));
      return redeemed ? null : failure;
    });
    return this.signIns.complete(ctx.em, user!);
  }
}

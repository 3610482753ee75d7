import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../../context/request-context';
import { UnauthenticatedError, ValidationError } from '../../errors/app-error';
import { User } from '../users/user.entity';
import { OneTimeCodes, type IssuedCode } from './one-time-codes';
import { SignInCodePurpose } from './sign-in-code.entity';
import type { SignInResult, SignInSessions } from './sign-in-session';

const INVALID_CODE = 'Invalid or expired desktop sign-in code';
/** base64url of a SHA-256 digest: 43 characters. */
const S256 = /^[A-Za-z0-9_-]{43}$/;

/** The S256 transform of PKCE: base64url(SHA-256(state)). */
export function stateHashOf(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('base64url');
}

/**
 * Desktop sign-in hand-off, PKCE style. The desktop app keeps a random `state` and opens the web
 * app with its hash; the signed-in browser mints a code bound to that hash (single use, 2
 * minutes); only the holder of `state` can exchange the code for a session.
 */
export class DesktopHandoffService {
  constructor(
    private readonly codes: OneTimeCodes,
    private readonly signIns: SignInSessions,
  ) {}

  /** Mints a code for the signed-in user, bound to the desktop app's state hash. */
  async createCode(ctx: RequestContext, stateHash: string): Promise<IssuedCode> {
    const session = ctx.requireSession();
    if (!S256.test(stateHash)) {
      throw new ValidationError('stateHash', 'must be base64url(SHA-256(state)): 43 characters of A-Z, a-z, 0-9, - and _');
    }
    const user = await ctx.em.findOneOrFail(User, { id: session.userId });
    return this.codes.issue(ctx.em, user, SignInCodePurpose.DESKTOP, { stateHash });
  }

  /**
   * Exchanges the code and the state for a session. Any attempt uses the code up, so a code that
   * leaked without its state is worthless after one guess.
   */
  async exchange(ctx: RequestContext, code: string, state: string): Promise<SignInResult> {
    const row = await this.codes.findBySecret(ctx.em, [SignInCodePurpose.DESKTOP], code);
    if (!row) throw new UnauthenticatedError(INVALID_CODE);
    const user = row.user;
    await this.signIns.attempt(ctx.em, user, async (tx) => {
      const redeemed = OneTimeCodes.isLive(row) && (await this.codes.redeem(tx, row));
      const expected = Buffer.from(row.stateHash ?? '', 'utf8');
      const actual = Buffer.from(stateHashOf(state), 'utf8');
      const stateMatches = expected.length === actual.length && timingSafeEqual(expected, actual);
      return redeemed && stateMatches ? null : new UnauthenticatedError(INVALID_CODE);
    });
    return this.signIns.complete(ctx.em, user);
  }
}

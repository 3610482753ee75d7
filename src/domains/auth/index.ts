import { defineDomain } from '../domain-module';
import { AuthResolver } from './auth.resolver';
import { createBotCheck } from './bot-check/bot-check';
import { DesktopHandoffService } from './desktop-handoff.service';
import { LinkAuthService } from './link-auth.service';
import { OneTimeCodes } from './one-time-codes';
import { OtpAuthService } from './otp-auth.service';
import { PasskeyResolver } from './passkey.resolver';
import { Passkey } from './passkey.entity';
import { PasskeyService } from './passkey.service';
import { PasswordAuthService } from './password-auth.service';
import { SessionService } from './session.service';
import { SignInCode } from './sign-in-code.entity';
import { SignInCodesResolver } from './sign-in-codes.resolver';
import { SignInPayloadResolver } from './sign-in-payload.resolver';
import { SignInSessions } from './sign-in-session';
import { SignedChallenges } from './signed-challenge';
import { SpentNonce } from './spent-nonce.entity';

declare module '../domain-module' {
  interface Services {
    sessions: SessionService;
    passwordAuth: PasswordAuthService;
    otpAuth: OtpAuthService;
    linkAuth: LinkAuthService;
    desktopHandoff: DesktopHandoffService;
    passkeys: PasskeyService;
  }
}

/** Sign-in (password, codes, links, passkeys, desktop hand-off) and sessions. */
export const authDomain = defineDomain({
  name: 'auth',
  entities: [SignInCode, Passkey, SpentNonce],
  services: ({ config, secrets, fetch, messenger, background }) => {
    const sessions = new SessionService(secrets.jwtSecret);
    const signIns = new SignInSessions(sessions);
    const codes = new OneTimeCodes(secrets.hashKey);
    const relyingParty = { id: config.publicAppUrl.hostname, origin: config.publicAppUrl.origin };
    return {
      sessions,
      passwordAuth: new PasswordAuthService(createBotCheck(config, secrets, fetch), signIns, sessions, codes),
      otpAuth: new OtpAuthService(codes, messenger, background, signIns),
      linkAuth: new LinkAuthService(codes, messenger, background, signIns, config.publicAppUrl),
      desktopHandoff: new DesktopHandoffService(codes, signIns),
      passkeys: new PasskeyService(relyingParty, new SignedChallenges(secrets.deriveKey('webauthn-challenge')), secrets.deriveKey('webauthn-user-handle'), signIns),
    };
  },
  resolvers: [AuthResolver, SignInCodesResolver, PasskeyResolver, SignInPayloadResolver],
  routeGroups: { auth: 'refused' },
  // Hourly at minute 17, away from the top of the hour when other jobs pile up.
  cron: [{ task: 'delete_expired_sign_in_codes', match: '17 * * * *', identifier: 'delete_expired_sign_in_codes' }],
});

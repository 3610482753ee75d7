import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../../config';
import type { Secrets } from '../../../secrets';
import { AltchaBotCheck } from './altcha.bot-check';
import { TurnstileBotCheck } from './turnstile.bot-check';

/** What a bot-check verification may need from the request. */
export interface BotCheckRequest {
  /** The `challenge_token` the browser sent. */
  token: string;
  /** The client's address, which some providers compare with the solver's. */
  remoteIp: string;
  /** For providers that remember redeemed tokens. */
  em: EntityManager;
}

/** A browser bot-check in front of password sign-in (CHALLENGE_PROVIDER). */
export interface BotCheck {
  readonly provider: Config['challengeProvider'];
  /** A new challenge for the browser to solve, for self-hosted providers; null otherwise. */
  challenge(): Promise<object | null>;
  /** True when the token proves a browser solved a challenge; never throws for a bad token. */
  verify(request: BotCheckRequest): Promise<boolean>;
}

/** `off`: any non-empty token passes (development and tests; refused in production by the config). */
class NoBotCheck implements BotCheck {
  readonly provider = 'off' as const;
  async challenge(): Promise<null> {
    return null;
  }
  async verify({ token }: BotCheckRequest): Promise<boolean> {
    return token.length > 0;
  }
}

/** The provider CHALLENGE_PROVIDER names. */
export function createBotCheck(config: Config, secrets: Secrets, fetchImpl: typeof fetch): BotCheck {
  switch (config.challengeProvider) {
    case 'altcha':
      return new AltchaBotCheck(secrets.deriveKey('altcha-challenge').toString('hex'), secrets.deriveKey('altcha-key').toString('hex'));
    case 'turnstile':
      return new TurnstileBotCheck(config.turnstileSecret!, fetchImpl);
    case 'off':
      return new NoBotCheck();
  }
}

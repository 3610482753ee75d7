import type { Config } from '../../../config';
import type { Secrets } from '../../../secrets';
import { AltchaBotCheck } from './altcha.bot-check';
import type { BotCheck, BotCheckRequest } from './bot-check.types';
import { TurnstileBotCheck } from './turnstile.bot-check';

export type { BotCheck, BotCheckRequest } from './bot-check.types';

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

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../../config';

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

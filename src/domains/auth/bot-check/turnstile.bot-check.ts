import type { BotCheck, BotCheckRequest } from './bot-check.types';

/** Cloudflare's server-side verification endpoint. */
export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
const VERIFY_TIMEOUT_MS = 5_000;

/**
 * Cloudflare Turnstile: the browser's token is checked server-side with TURNSTILE_SECRET.
 * Cloudflare itself refuses a token redeemed twice. An unreachable Cloudflare counts as not
 * verified: the sign-in fails closed rather than letting bots through.
 */
export class TurnstileBotCheck implements BotCheck {
  readonly provider = 'turnstile' as const;

  constructor(
    private readonly secret: string,
    private readonly fetchImpl: typeof fetch,
  ) {}

  async challenge(): Promise<null> {
    return null; // the widget gets its challenge from Cloudflare
  }

  async verify({ token, remoteIp }: BotCheckRequest): Promise<boolean> {
    try {
      const response = await this.fetchImpl(TURNSTILE_VERIFY_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: this.secret, response: token, remoteip: remoteIp }).toString(),
        signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      });
      if (!response.ok) return false;
      const outcome = (await response.json()) as { success?: unknown };
      return outcome.success === true;
    } catch {
      return false;
    }
  }
}

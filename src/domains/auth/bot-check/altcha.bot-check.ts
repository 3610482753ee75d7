import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { spendNonce } from '../spent-nonce.entity';
import type { BotCheck, BotCheckRequest } from './bot-check.types';

/** How long a challenge may take to be solved and redeemed. */
export const ALTCHA_CHALLENGE_TTL_MS = 10 * 60 * 1000;

/**
 * Difficulty: SHA-256 with 10 rounds per attempt and the answer hidden among 5,000-10,000
 * counters — about a quarter of a second of a browser's time per sign-in (measured in Node:
 * 0.26 s), a real cost for anyone trying thousands of passwords.
 */
const ALGORITHM = 'SHA-256';
const COST = 10;
const COUNTER_RANGE = [5_000, 10_000] as const;

/**
 * ALTCHA, self-hosted proof of work (altcha-lib v2). Challenges are stateless (HMAC-signed, with
 * an expiry); a solved payload is redeemed once, on any instance, through the spent-nonce table.
 * The token is the widget's payload: base64 of JSON `{challenge, solution}`.
 */
export class AltchaBotCheck implements BotCheck {
  readonly provider = 'altcha' as const;

  constructor(
    private readonly signatureSecret: string,
    private readonly keySignatureSecret: string,
  ) {}

  async challenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: ALGORITHM,
      cost: COST,
      counter: randomInt(COUNTER_RANGE[1], COUNTER_RANGE[0]),
      deriveKey,
      expiresAt: new Date(Date.now() + ALTCHA_CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
  }

  async verify({ token, em }: BotCheckRequest): Promise<boolean> {
    const payload = parsePayload(token);
    if (!payload) return false;
    let verified: boolean;
    try {
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.signatureSecret,
        hmacKeySignatureSecret: this.keySignatureSecret,
      });
      verified = result.verified;
    } catch {
      return false; // malformed parameters
    }
    if (!verified) return false;
    const { nonce, expiresAt } = payload.challenge.parameters;
    const expiry = new Date(expiresAt ? expiresAt * 1000 : Date.now() + ALTCHA_CHALLENGE_TTL_MS);
    return spendNonce(em, `altcha:${nonce}`, expiry);
  }
}

/** Decodes the widget payload; null for anything that is not one. */
function parsePayload(token: string): { challenge: Challenge; solution: Solution } | null {
  try {
    const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    const ok =
      payload && typeof payload === 'object' &&
      payload.challenge && typeof payload.challenge === 'object' && typeof payload.challenge.parameters?.nonce === 'string' &&
      payload.solution && typeof payload.solution === 'object';
    return ok ? payload : null;
  } catch {
    return null;
  }
}

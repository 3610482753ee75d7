import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedChallenges } from '../../src/domains/auth/signed-challenge';

/** The stateless WebAuthn challenges: bound to purpose, subject and key, and they expire. */
describe('SignedChallenges', () => {
  const challenges = new SignedChallenges(Buffer.alloc(32, 7));
  const encode = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  afterEach(() => vi.useRealTimers());

  it('opens its own challenge for the same purpose and subject', () => {
    const opened = challenges.open('login', 0, encode(challenges.mint('login', 0, 60_000)));
    expect(opened?.nonce).toMatch(/^login:[0-9a-f]{32}$/);
    expect(opened!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('mints a different nonce every time', () => {
    const a = challenges.open('login', 0, encode(challenges.mint('login', 0, 60_000)))!;
    const b = challenges.open('login', 0, encode(challenges.mint('login', 0, 60_000)))!;
    expect(a.nonce).not.toBe(b.nonce);
  });

  it('refuses another purpose, another subject or another key', () => {
    const value = encode(challenges.mint('registration', 5, 60_000));
    expect(challenges.open('login', 5, value)).toBeNull();
    expect(challenges.open('registration', 6, value)).toBeNull();
    expect(new SignedChallenges(Buffer.alloc(32, 8)).open('registration', 5, value)).toBeNull();
    expect(challenges.open('registration', 5, value)).not.toBeNull();
  });

  it('refuses a tampered, truncated or foreign value', () => {
    const bytes = Buffer.from(challenges.mint('login', 0, 60_000));
    bytes[3] ^= 1;
    expect(challenges.open('login', 0, bytes.toString('base64url'))).toBeNull();
    expect(challenges.open('login', 0, encode(challenges.mint('login', 0, 60_000)).slice(0, 20))).toBeNull();
    expect(challenges.open('login', 0, 'not-a-challenge')).toBeNull();
  });

  it('refuses an expired challenge', () => {
    const value = encode(challenges.mint('login', 0, 60_000));
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    expect(challenges.open('login', 0, value)).toBeNull();
  });
});

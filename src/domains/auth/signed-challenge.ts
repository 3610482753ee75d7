import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opened challenge: the nonce to spend and when it stops being valid. */
export interface OpenedChallenge {
  nonce: string;
  expiresAt: Date;
}

const NONCE_BYTES = 16;
const MAC_BYTES = 32;

/**
 * Stateless challenges for WebAuthn ceremonies: random nonce | expiry | HMAC over purpose,
 * subject (the user id, or 0 before sign-in), nonce and expiry. Nothing is stored when one is
 * issued; redeeming one spends its nonce, so it verifies once.
 */
export class SignedChallenges {
  constructor(private readonly key: Buffer) {}

  /** A new challenge (raw bytes) for `purpose` and `subject`, valid for `ttlMs`. */
  mint(purpose: string, subject: number, ttlMs: number): Uint8Array<ArrayBuffer> {
    const nonce = randomBytes(NONCE_BYTES);
    const expiry = Buffer.alloc(4);
    expiry.writeUInt32BE(Math.floor((Date.now() + ttlMs) / 1000));
    return Uint8Array.from(Buffer.concat([nonce, expiry, this.mac(purpose, subject, nonce, expiry)]));
  }

  /** The challenge's nonce and expiry when `encoded` (base64url) is one of ours, for this purpose and subject, and unexpired. */
  open(purpose: string, subject: number, encoded: string): OpenedChallenge | null {
    const bytes = Buffer.from(encoded, 'base64url');
    if (bytes.length !== NONCE_BYTES + 4 + MAC_BYTES) return null;
    const nonce = bytes.subarray(0, NONCE_BYTES);
    const expiry = bytes.subarray(NONCE_BYTES, NONCE_BYTES + 4);
    const mac = bytes.subarray(NONCE_BYTES + 4);
    if (!timingSafeEqual(mac, this.mac(purpose, subject, nonce, expiry))) return null;
    const expiresAt = new Date(expiry.readUInt32BE() * 1000);
    if (expiresAt <= new Date()) return null;
    return { nonce: `${purpose}:${nonce.toString('hex')}`, expiresAt };
  }

  private mac(purpose: string, subject: number, nonce: Buffer, expiry: Buffer): Buffer {
    return createHmac('sha256', this.key).update(`${purpose}|${subject}|`).update(nonce).update(expiry).digest();
  }
}

import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and 64 hex characters (32 random bytes). The whole string is the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/** `sha256=` and the hex HMAC-SHA256 of `{timestamp}.{body}` under the endpoint's secret. */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Keeps secrets encrypted at rest (AES-256-GCM): signing needs them in clear, so a hash would not
 * do, but a copy of the table alone does not reveal them.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {}

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}

import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config';

/** Secrets the service signs and hashes with. */
export interface Secrets {
  /** HMAC key of session tokens. */
  jwtSecret: string;
  /** Key of the keyed hashes kept for one-time codes such as delivery OTPs (derived from jwtSecret). */
  hashKey: Buffer;
  /** A further 32-byte key for one purpose (e.g. signing bot-check challenges), derived from jwtSecret. */
  deriveKey(purpose: string): Buffer;
}

/** Reads a generated development secret from `DATA_DIR/secrets/`, creating it on first use. */
export function loadOrCreateSecret(dataDir: string, name: string, bytes = 32): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o755 }); // traversable: the embedded database lives below it
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = randomBytes(bytes).toString('hex');
  writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}

/** The service's secrets: JWT_SECRET when set, else keys generated once and kept in DATA_DIR. */
export function loadSecrets(config: Config): Secrets {
  const jwtSecret = config.jwtSecret ?? loadOrCreateSecret(config.dataDir, 'jwt-secret');
  return secretsFrom(jwtSecret);
}

/** Derives every key from one master secret, so all instances sharing JWT_SECRET agree. */
export function secretsFrom(jwtSecret: string): Secrets {
  const deriveKey = (purpose: string) => Buffer.from(hkdfSync('sha256', jwtSecret, 'sales-distribution', purpose, 32));
  return { jwtSecret, hashKey: deriveKey('keyed-hash'), deriveKey };
}

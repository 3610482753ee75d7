import { hash, verify } from '@node-rs/argon2';

/** Argon2id with the library's defaults (19 MiB, 2 passes), as OWASP recommends. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when the password matches the stored hash; false (never a throw) for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one password check against a throw-away hash and answers false. Sign-in
 * calls it when the account does not exist, so a wrong e-mail takes as long as a wrong password.
 */
export async function spendPasswordCheckTime(password: string): Promise<false> {
  dummyHash ??= hash('not-a-password-of-anyone');
  await verifyPassword(await dummyHash, password);
  return false;
}

import { expect } from 'vitest';

/**
 * The REST error body for a status and message (a string or an asymmetric matcher): a 400 also
 * lists its invalid fields in `errors`, whose entries include the message itself.
 */
export function errorEnvelope(status: number, message: unknown) {
  if (status !== 400) return { response_code: status, message };
  return { response_code: status, message, errors: expect.arrayContaining([expect.objectContaining({ message })]) };
}

import type { ErrorObject } from 'ajv';

/**
 * NUL characters (U+0000) in request data. PostgreSQL text cannot hold them: a NUL that reached a
 * statement failed it (a 500), so both doors refuse it at their edge, in every string, with a 400
 * naming the field. Other control characters are stored as given.
 */

/** The message of every NUL refusal, after the field name. */
export const NUL_PROBLEM = 'must not contain NUL characters';

/** The paths (property names and array indexes) of every string in `value` that holds a NUL. */
export function nulCharacterPaths(value: unknown, path: Array<string | number> = [], found: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => nulCharacterPaths(item, [...path, i], found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      // A NUL in a field's name is refused too; it is named by the path to its object.
      if (key.includes('\u0000')) found.push(path);
      nulCharacterPaths(item, [...path, key], found);
    }
  }
  return found;
}

/** Whether any string in `value` (or any property name) holds a NUL; allocates nothing, for the common case. */
export function holdsNulCharacter(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsNulCharacter);
  for (const key in value) {
    if (key.includes('\u0000') || holdsNulCharacter((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** The NUL characters of a request part as Ajv errors, so they are reported like schema violations. */
export function nulCharacterViolations(data: unknown): ErrorObject[] {
  if (!holdsNulCharacter(data)) return [];
  return nulCharacterPaths(data).map((path) => ({
    keyword: 'nulCharacter',
    instancePath: path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
    schemaPath: '#',
    params: {},
    message: NUL_PROBLEM,
  }));
}

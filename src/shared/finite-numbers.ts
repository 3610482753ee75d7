import type { ValidateFunction } from 'ajv';

/**
 * Where the first number in `data` that is not finite is (an Ajv instance path), or null. Such
 * numbers reach a handler two ways: a query or path value "Infinity" or "1e400" coerced to a
 * number, and a JSON body's 1e400, which JSON.parse reads as Infinity. Ajv's `integer` and
 * `number` accept them, and the database then refuses them (500).
 */
function nonFinitePath(data: unknown, path: string): string | null {
  if (typeof data === 'number') return Number.isFinite(data) ? null : path;
  if (data === null || typeof data !== 'object') return null;
  for (const [key, value] of Object.entries(data)) {
    const found = nonFinitePath(value, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

/** The validator, also refusing any number that is not finite (400 naming the field). */
export function finiteNumbersOnly<V extends ((data: unknown) => boolean) & Pick<ValidateFunction, 'errors'>>(validate: V): V {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const path = nonFinitePath(data, '');
    checked.errors = path === null ? null : [{ keyword: 'finite', instancePath: path, schemaPath: '', params: {}, message: 'must be a finite number' }];
    return path === null;
  }) as V;
  checked.errors = null;
  return checked;
}

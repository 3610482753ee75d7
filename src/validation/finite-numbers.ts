import type { ErrorObject } from 'ajv';

/**
 * Numbers that are not finite in request data. They reach a handler two ways: a query or path
 * value "Infinity" or "1e400" coerced to a number, and a JSON body's 1e400, which JSON.parse reads
 * as Infinity. Ajv's `integer` and `number` accept them, and the database then refused them (a
 * 500), so the REST door refuses them at its edge with a 400 naming the field.
 */

/** The message of every such refusal, after the field name. */
export const NOT_FINITE_PROBLEM = 'must be a finite number';

function nonFinitePaths(data: unknown, path: string, found: string[]): string[] {
  if (typeof data === 'number') {
    if (!Number.isFinite(data)) found.push(path);
  } else if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) nonFinitePaths(value, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
  }
  return found;
}

/** The numbers of a request part that are not finite, as Ajv errors, so they are reported like schema violations. */
export function nonFiniteViolations(data: unknown): ErrorObject[] {
  return nonFinitePaths(data, '', []).map((instancePath) => ({ keyword: 'finite', instancePath, schemaPath: '#', params: {}, message: NOT_FINITE_PROBLEM }));
}

import Ajv, { type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiledOnFirstCall } from './compiled-on-first-call';
import { nonFiniteViolations } from '../validation/finite-numbers';
import { nulCharacterViolations } from '../validation/nul-characters';

// allErrors: a 400 lists every invalid field of the request part, not only the first one.
const common: Options = { useDefaults: true, allErrors: true, strict: false };

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats(ajv, ['date', 'date-time', 'email', 'uri', 'time']);
  return ajv;
}

/** Keywords whose value is data, not a schema. */
const VALUE_KEYWORDS = new Set(['default', 'enum', 'const', 'examples', 'required', 'description', 'title']);
/** Keywords whose value maps names to schemas (a field may be called `properties`). */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * A copy of a body schema in which every object that lists its properties and says nothing about
 * others refuses them (`additionalProperties: false`), so an integrator's misspelt field is a 400
 * naming it instead of being ignored. A schema that opts out with `additionalProperties: true`
 * stays open: the WebAuthn payloads of the passkey routes are the browser library's JSON, whose
 * fields are not ours to list. TypeBox's symbol-keyed metadata is left out (Ajv ignores it).
 */
export function closedObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (VALUE_KEYWORDS.has(key)) copy[key] = value;
    else if (SCHEMA_MAP_KEYWORDS.has(key) && value !== null && typeof value === 'object') {
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, closedObjects(sub)]));
    } else copy[key] = closedObjects(value);
  }
  if (copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/**
 * A validator that also refuses what PostgreSQL cannot store: NUL characters in any string
 * (nul-characters.ts) and numbers that are not finite (finite-numbers.ts).
 */
function refusingUnstorable(validate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }) {
  const checked = (data: unknown) => {
    const valid = validate(data);
    const unstorable = [...nulCharacterViolations(data), ...nonFiniteViolations(data)];
    checked.errors = unstorable.length === 0 ? validate.errors : [...(validate.errors ?? []), ...unstorable];
    return valid && unstorable.length === 0;
  };
  checked.errors = null as ErrorObject[] | null | undefined;
  return checked;
}

/**
 * Query strings and path parameters arrive as text, so they are coerced to the schema's types;
 * JSON bodies are not: `"quantity": "2"` is a 400, not silently a number. Every part refuses
 * unknown fields (`closedObjects`): a misspelt body field, or a filter the list does not have
 * (`/orders?production_unt_id=1`), is a 400 naming it rather than silently ignored. Every part refuses NUL characters and numbers that are not finite,
 * which PostgreSQL cannot store: one check here covers every value a route hands on. Each validator is compiled on the route's
 * first request (see compiled-on-first-call.ts).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = makeAjv({ coerceTypes: 'array', removeAdditional: false });
  const strict = makeAjv({ coerceTypes: false, removeAdditional: false });
  return ({ schema, httpPart }) =>
    refusingUnstorable(
      validatorCompiledOnFirstCall(() => (httpPart === 'body' ? strict : coercing).compile(closedObjects(schema) as object)),
    );
}

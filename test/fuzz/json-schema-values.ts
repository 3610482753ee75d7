import fc from 'fast-check';
import { FIXTURE_PASSWORD, hostileJson, hostileNumber, hostileString } from './hostile-values';

/** The part of JSON Schema (as @fastify/swagger renders TypeBox) the OpenAPI document uses. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  default?: unknown;
}

/** What values of a schema may be drawn from. */
export interface ValueSources {
  /** Ids of existing rows, for integer fields named like ids. */
  existingIds: readonly number[];
}

/** Field names that hold a row id (`id`, `user_id`, `variantIds`...). */
export const ID_NAME = /(^id$|_id$|Id$|_ids$|Ids$)/;

/** Extra keys a client might add by mistake or on purpose. */
const EXTRA_KEYS = ['extra', 'unknown_field', '__proto__', 'constructor', 'organization_id', 'organizationId', 'id', 'status', '', '\u0000', 'a'.repeat(300)];

const depthLimit = 4;

/** Strings that fit a `format`, with a few near misses, so handlers past the validator see realistic input. */
function formattedString(format: string | undefined, name: string): fc.Arbitrary<string> | null {
  if (format === 'date') {
    return fc.oneof(
      fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom('0001-01-01', '9999-12-31', '2024-02-29', '2023-02-29', '1970-01-01'),
    );
  }
  if (format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (format === 'email' || /email/i.test(name)) return fc.oneof(fc.emailAddress(), fc.constantFrom('admin@example.test'));
  if (format === 'uri' || /url/i.test(name)) {
    return fc.constantFrom('https://hooks.fuzz.test/hook', 'https://hooks.fuzz.test:1/x?y=z', 'https://nowhere.fuzz.test/', 'http://hooks.fuzz.test/', 'https://127.0.0.1/', 'https://[::1]/');
  }
  if (/password/i.test(name)) return fc.oneof(fc.constant(FIXTURE_PASSWORD), fc.string({ minLength: 8, maxLength: 20 }), hostileString);
  if (/phone|contact_number|contactNumber/i.test(name)) return fc.oneof(fc.constantFrom('+919000000001', '9000000001', '+1 202 555 0100'), fc.stringMatching(/^\+?[0-9 ]{0,16}$/));
  return null;
}

/** A value that fits the schema's types and most of its bounds (not every value is meaningful). */
export function validShaped(schema: JsonSchema, sources: ValueSources, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validShaped(s, sources, name, depth)));
  if (schema.allOf) return validShaped(Object.assign({}, ...schema.allOf), sources, name, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Math.max(min, 0) + 1_000_000);
      const inRange = fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) });
      if (ID_NAME.test(name) && sources.existingIds.length > 0) return fc.oneof(fc.constantFrom(...sources.existingIds), inRange);
      return inRange;
    }
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e9;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string': {
      const formatted = formattedString(schema.format, name);
      if (formatted) return formatted;
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 200));
      return fc.oneof(
        fc.string({ minLength, maxLength }),
        fc.string({ unit: 'grapheme', minLength, maxLength }),
        hostileString.filter((s) => s.length >= minLength && s.length <= maxLength),
      );
    }
    case 'array': {
      if (depth >= depthLimit) return fc.constant([]);
      const item = schema.items ? validShaped(schema.items, sources, name, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.array(item, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    }
    case 'object':
    default: {
      if (!schema.properties) return schema.additionalProperties ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) : fc.constant({});
      if (depth >= depthLimit) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(schema.properties)) model[key] = validShaped(property, sources, key, depth + 1);
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
  }
}

/** A wrong value for a field of this schema: any other type, a bound crossed, a hostile string. */
export function brokenValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return fc.oneof(hostileNumber, hostileJson);
  if (type === 'string') return fc.oneof(hostileString, hostileJson);
  return hostileJson;
}

/**
 * A JSON body for the schema, valid-shaped or broken: a field made wrong, required fields
 * dropped, unknown fields added, or a body of another type altogether.
 */
export function bodyFor(schema: JsonSchema, sources: ValueSources): fc.Arbitrary<unknown> {
  const valid = validShaped(schema, sources);
  const properties = Object.entries(schema.properties ?? {});
  const withBrokenFields =
    properties.length === 0
      ? valid
      : fc
          .tuple(valid, fc.subarray(properties, { minLength: 1, maxLength: Math.min(3, properties.length) }).chain((picked) => fc.tuple(...picked.map(([key, s]) => brokenValue(s).map((v) => [key, v] as const)))))
          .map(([body, broken]) => ({ ...(body as object), ...Object.fromEntries(broken) }));
  const withoutRequired = fc
    .tuple(valid, fc.subarray(schema.required ?? [], { minLength: 0 }))
    .map(([body, dropped]) => Object.fromEntries(Object.entries(body as object).filter(([key]) => !dropped.includes(key))));
  const withExtra = fc
    .tuple(valid, fc.subarray(EXTRA_KEYS, { minLength: 1, maxLength: 3 }), hostileJson)
    .map(([body, keys, value]) => {
      const out: Record<string, unknown> = { ...(body as object) };
      for (const key of keys) Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
      return out;
    });
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: withBrokenFields },
    { weight: 2, arbitrary: withoutRequired },
    { weight: 2, arbitrary: withExtra },
    { weight: 1, arbitrary: hostileJson },
  );
}

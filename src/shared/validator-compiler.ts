import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiledOnFirstCall } from './compiled-on-first-call';
import { finiteNumbersOnly } from './finite-numbers';

const common: Options = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false };

function makeAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ ...common, coerceTypes });
  addFormats(ajv, ['date', 'date-time', 'email', 'uri', 'time']);
  return ajv;
}

/**
 * Query strings and path parameters arrive as text, so they are coerced to the schema's types;
 * JSON bodies are not: `"quantity": "2"` is a 400, not silently a number. Every number must be
 * finite (finite-numbers.ts). Each validator is compiled on the route's first request (see
 * compiled-on-first-call.ts).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = makeAjv('array');
  const strict = makeAjv(false);
  return ({ schema, httpPart }) => finiteNumbersOnly(validatorCompiledOnFirstCall(() => (httpPart === 'body' ? strict : coercing).compile(schema as object)));
}

import Ajv from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { serializerBuiltOnFirstCall, validatorCompiledOnFirstCall } from '../../src/http/compiled-on-first-call';

/**
 * Route validators and serializers are built on a route's first request (start-up time, issue 7):
 * nothing is built before, it is built once, and what Fastify sees (result, `errors`, output) is
 * what the eagerly built function gives.
 */
describe('compiled on first call', () => {
  const schema = { type: 'object', properties: { quantity: { type: 'integer', minimum: 1 } }, required: ['quantity'] };

  it('compiles a validator on its first call only, and mirrors its result and errors', () => {
    const ajv = new Ajv();
    const compile = vi.fn(() => ajv.compile(schema));
    const validate = validatorCompiledOnFirstCall(compile);
    expect(compile).not.toHaveBeenCalled();

    expect(validate({ quantity: 0 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/quantity', keyword: 'minimum' });
    expect(validate({ quantity: 2 })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'quantity' } });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('builds a serializer on its first call only', () => {
    const build = vi.fn(() => (payload: unknown) => JSON.stringify(payload));
    const serialize = serializerBuiltOnFirstCall(build);
    expect(build).not.toHaveBeenCalled();
    expect(serialize({ a: 1 })).toBe('{"a":1}');
    expect(serialize([2])).toBe('[2]');
    expect(build).toHaveBeenCalledTimes(1);
  });
});

import type { ValidateFunction } from 'ajv';

/**
 * A route's validators and serializers are built when the route is first used, not when the app
 * starts: Fastify builds all of them in `ready()` (84 ajv validators and 283 fast-json-stringify
 * serializers here, 0.3–0.9 s of every start, issue 7), while a process serves only the routes it
 * is asked for. Each is built once; the first request of a route pays a few milliseconds.
 */

/** A validator whose ajv function is compiled on its first call; `errors` mirrors the compiled one's, as Fastify reads it. */
export function validatorCompiledOnFirstCall(compile: () => ValidateFunction): ((data: unknown) => boolean) & Pick<ValidateFunction, 'errors'> {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate;
}

/** A serializer built on its first call. */
export function serializerBuiltOnFirstCall(build: () => (payload: unknown) => string): (payload: unknown) => string {
  let built: ((payload: unknown) => string) | undefined;
  return (payload) => (built ??= build())(payload);
}

import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { serializerBuiltOnFirstCall } from './compiled-on-first-call';

const fastifyDefault = SerializerSelector();

/** Fastify's own fast-json-stringify serializers, each built on the first response that uses it (see compiled-on-first-call.ts). */
export const serializersBuiltOnFirstCall: SerializerFactory = (externalSchemas, serializerOptions) => {
  const build = fastifyDefault(externalSchemas, serializerOptions);
  return (route) => serializerBuiltOnFirstCall(() => build(route));
};

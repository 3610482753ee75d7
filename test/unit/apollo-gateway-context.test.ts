import { ApolloServer, HeaderMap } from '@apollo/server';
import type { GatewayGraphQLRequestContext, GatewayInterface } from '@apollo/server-gateway-interface';
import { buildSchema, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';

/**
 * Our compiled execution reaches Apollo through its gateway interface, and Apollo builds a request
 * context for the gateway on every request. Unpatched, its `response.http` was an object literal
 * with its own `status` accessors: V8 then made every request's object a map of its own, in the
 * old generation, and through the accessors' closures kept each request's whole data alive across
 * scavenges until a full collection (bench/, GraphQL page: about half of the service's CPU a page
 * went to garbage collection). patches/@apollo+server+*.patch, applied by `npm install`
 * (patch-package), puts the accessors on a class's prototype.
 */
async function gatewayContextsOf(requests: number, onRequest: (context: GatewayGraphQLRequestContext) => void) {
  const schema = buildSchema('type Query { hello: String }');
  const gateway: GatewayInterface = {
    async load() {
      return {
        executor: async (context) => {
          onRequest(context);
          return { data: { hello: 'world' } };
        },
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async stop() {},
  };
  const apollo = new ApolloServer({ gateway });
  await apollo.start();
  try {
    const answers: Array<{ status: number | undefined; header: string | undefined }> = [];
    for (let i = 0; i < requests; i++) {
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: 'POST',
          headers: new HeaderMap([['content-type', 'application/json']]),
          search: '',
          body: { query: '{ hello }' },
        },
        context: async () => ({}),
      });
      answers.push({ status: response.status, header: response.headers.get('x-from-gateway') });
    }
    return answers;
  } finally {
    await apollo.stop();
  }
}

describe("Apollo's request context for the gateway (patched)", () => {
  it('shares its status accessors between requests, on a prototype, not on each object', async () => {
    const https: object[] = [];
    await gatewayContextsOf(2, (context) => https.push(context.response!.http!));
    expect(https).toHaveLength(2);
    for (const http of https) expect(Object.getOwnPropertyDescriptor(http, 'status')).toBeUndefined();
    expect(Object.getPrototypeOf(https[0])).toBe(Object.getPrototypeOf(https[1]));
    expect(Object.getPrototypeOf(https[0])).not.toBe(Object.prototype);
  });

  it('still reads and sets the HTTP status of the response, and its headers', async () => {
    const seen: Array<number | undefined> = [];
    const answers = await gatewayContextsOf(1, (context) => {
      const http = context.response!.http!;
      seen.push(http.status);
      http.status = 299;
      seen.push(http.status);
      http.headers.set('x-from-gateway', 'yes');
    });
    expect(seen).toEqual([undefined, 299]);
    expect(answers).toEqual([{ status: 299, header: 'yes' }]);
  });
});

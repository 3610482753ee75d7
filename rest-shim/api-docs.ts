import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { closedObjects } from '../src/http/validator-compiler';

/** Interface version shown in the OpenAPI document. */
export const API_VERSION = '1.0.0';

/**
 * OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json, and an API
 * reference page at /docs whose assets are served from this process (no CDN).
 */
export const apiDocsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Sales and Distribution Service',
          version: API_VERSION,
          description:
            'REST compatibility layer. Every request is scoped to the organization of its credential. ' +
            'Success bodies use the envelope {response_code, message?, data, pagination?}; errors are {response_code, message}, ' +
            'and a 400 adds errors: [{field, message}], every invalid field. JSON bodies with unknown fields are refused.',
        },
        servers: [{ url: '/api/v1' }],
        components: {
          securitySchemes: {
            bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          },
        },
        security: [{ bearerAuth: [] }, { apiKey: [] }],
      },
      // Request bodies are documented as validated: closed to unknown fields (validator-compiler.ts).
      transform: ({ schema, url }) => ({
        schema: schema?.body ? { ...schema, body: closedObjects(schema.body) } : schema,
        url: url.replace(/^\/api\/v1/, ''),
      }),
    });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
    app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'api-docs' },
);

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EXPIRY_DAYS } from '../../src/domains/api-keys/api-key.service';
import { changed, created, ok } from '../envelope';
import { ApiKeyBody, CreatedApiKeyBody, presentApiKey, presentCreatedApiKey } from '../presenters/api-key.presenter';
import { changedResponse, createdResponse, IdParams, Nullable, okResponse } from '../schemas';

/** GET/POST /developer/api-keys and DELETE /developer/api-keys/{id}: admin sessions only. */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const CreateApiKeyBody = Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Optional(Nullable(Type.String({ maxLength: 200, description: `Comma-separated: ${app.services.keyScopes.tokens.join(', ')}. Default read.` }))),
    expires_in_days: Type.Optional(
      Nullable(Type.Integer({ minimum: EXPIRY_DAYS.min, maximum: EXPIRY_DAYS.max, description: 'Omit (or null) for no expiry' })),
    ),
  });

  app.get(
    '/developer/api-keys',
    {
      schema: {
        tags: ['API keys'],
        summary: 'Every API key of the workspace, revoked ones included, newest first (admin session only)',
        response: okResponse(Type.Array(ApiKeyBody)),
      },
    },
    async (request) => ok((await app.services.apiKeys.list(request.ctx)).map(presentApiKey)),
  );

  app.post(
    '/developer/api-keys',
    {
      schema: {
        tags: ['API keys'],
        summary: 'Issue an API key; the key is in this answer only (admin session only)',
        body: CreateApiKeyBody,
        response: createdResponse(CreatedApiKeyBody),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const result = await app.services.apiKeys.create(request.ctx, { name: b.name, scopes: b.scopes, expiresInDays: b.expires_in_days });
      return reply.code(201).send(created('API key created; store it now, it is not shown again', presentCreatedApiKey(result)));
    },
  );

  app.delete(
    '/developer/api-keys/:id',
    {
      schema: {
        tags: ['API keys'],
        summary: 'Revoke an API key: it stops working at once, the record stays with status 0 (admin session only)',
        params: IdParams,
        response: changedResponse(ApiKeyBody),
      },
    },
    async (request) => {
      const { apiKey, changed: revoked } = await app.services.apiKeys.revoke(request.ctx, request.params.id);
      return changed(revoked ? 'API key revoked' : 'API key was already revoked', presentApiKey(apiKey));
    },
  );
};

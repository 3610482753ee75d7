import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from '@sinclair/typebox';
import { presentPasskey, presentSignIn, PasskeyBody, SignInAnswer } from '../presenters/sign-in.presenter';
import { changed, created, ok } from '../envelope';
import { changedResponse, createdResponse, ErrorBody, ServerErrorBody, IdParams, Nullable, okResponse } from '../schemas';

/** A WebAuthn JSON object as @simplewebauthn/browser produces it; the library checks its inside. */
const WebAuthnJson = Type.Object({ id: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: true });
const Options = Type.Object({}, { additionalProperties: true });

/** Passkeys (WebAuthn): registration and management by the signed-in user, and password-less sign-in. */
export const passkeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Passkeys'];

  app.post(
    '/auth/passkey/registration/options',
    { schema: { tags, summary: 'Creation options for a new passkey of the signed-in user', response: okResponse(Options) } },
    async (request) => ok(await app.services.passkeys.registrationOptions(request.ctx)),
  );

  app.post(
    '/auth/passkey/registration/verify',
    {
      schema: {
        tags,
        summary: "Register the browser's new credential",
        body: Type.Object({ response: WebAuthnJson, name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))) }),
        response: createdResponse(PasskeyBody),
      },
    },
    async (request, reply) => {
      const { response, name } = request.body;
      const passkey = await app.services.passkeys.register(request.ctx, response as unknown as RegistrationResponseJSON, name);
      return reply.code(201).send(created('Passkey registered', presentPasskey(passkey)));
    },
  );

  app.get(
    '/auth/passkeys',
    { schema: { tags, summary: "The signed-in user's passkeys", response: okResponse(Type.Array(PasskeyBody)) } },
    async (request) => ok((await app.services.passkeys.list(request.ctx)).map(presentPasskey)),
  );

  app.delete(
    '/auth/passkeys/:id',
    { schema: { tags, summary: 'Remove one of your passkeys', params: IdParams, response: changedResponse(Type.Object({ id: Type.Integer() })) } },
    async (request) => {
      await app.services.passkeys.remove(request.ctx, request.params.id);
      return changed('Passkey removed', { id: request.params.id });
    },
  );

  app.post(
    '/auth/passkey/login/options',
    { config: { auth: 'public' }, schema: { tags, summary: 'Request options for signing in with a passkey', security: [], response: okResponse(Options) } },
    async () => ok(await app.services.passkeys.loginOptions()),
  );

  app.post(
    '/auth/passkey/login/verify',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Sign in with a passkey assertion',
        security: [],
        body: Type.Object({ response: WebAuthnJson }),
        response: { 200: SignInAnswer, '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request) => presentSignIn(await app.services.passkeys.login(request.ctx, request.body.response as unknown as AuthenticationResponseJSON)),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountKey } from '../../src/context/rate-limits';
import { LinkPurpose } from '../../src/domains/auth/link-purpose';
import { CODE_TTL_MS } from '../../src/domains/auth/one-time-codes';
import { SignInCodePurpose } from '../../src/domains/auth/sign-in-code.entity';
import { presentSignIn, SignInAnswer } from '../presenters/sign-in.presenter';
import { created } from '../envelope';
import { createdResponse, ErrorBody, ServerErrorBody, Timestamp } from '../schemas';

const Message = Type.Object({ response_code: Type.Integer(), message: Type.String() });
const messageResponse = { 200: Message, '4xx': ErrorBody, '5xx': ServerErrorBody };
const signInResponse = { 200: SignInAnswer, '4xx': ErrorBody, '5xx': ServerErrorBody };
const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

/** One-time codes and links: SMS codes, magic links, set-password links and the desktop hand-off. */
export const authCodeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const publicRoute = { config: { auth: 'public' as const } };
  // Sign-in attempts: public, spending the budget of the account their body names.
  const byPhone = { config: { auth: 'public' as const, budget: { name: 'signIn' as const, key: (body: { phone: string }) => accountKey({ phone: body.phone }) } } };
  const byEmail = { config: { auth: 'public' as const, budget: { name: 'signIn' as const, key: (body: { email: string }) => accountKey({ email: body.email }) } } };

  app.post(
    '/auth/otp/request',
    {
      ...byPhone,
      schema: {
        tags: ['Authentication'],
        summary: 'Text a 6-digit sign-in code to a phone (same answer whether or not the phone is known)',
        security: [],
        body: Type.Object({ phone: Type.String({ minLength: 1, maxLength: 30 }) }),
        response: {
          200: Type.Object({
            response_code: Type.Integer(),
            message: Type.String(),
            data: Type.Object({ code_length: Type.Integer(), expires_in_seconds: Type.Integer() }),
          }),
          '4xx': ErrorBody,
          '5xx': ServerErrorBody,
        },
      },
    },
    async (request) => {
      await app.services.otpAuth.request(request.ctx, request.body.phone);
      return {
        response_code: 200,
        message: 'If this number belongs to an active account, a sign-in code has been sent to it',
        data: { code_length: 6, expires_in_seconds: CODE_TTL_MS[SignInCodePurpose.OTP] / 1000 },
      };
    },
  );

  app.post(
    '/auth/otp/verify',
    {
      ...byPhone,
      schema: {
        tags: ['Authentication'],
        summary: 'Sign in with the code sent by SMS',
        security: [],
        // Loose on purpose: any phone or code that is not right, whatever its shape, is the one 401.
        body: Type.Object({ phone: Type.String({ maxLength: 200 }), otp: Type.String({ maxLength: 200 }) }),
        response: signInResponse,
      },
    },
    async (request) => presentSignIn(await app.services.otpAuth.verify(request.ctx, request.body.phone, request.body.otp)),
  );

  app.post(
    '/auth/magic-link/request',
    {
      ...byEmail,
      schema: {
        tags: ['Authentication'],
        summary: 'E-mail a single-use sign-in link, or with purpose reset_password a link to set a new password',
        security: [],
        body: Type.Object({
          email: Type.String({ minLength: 1, maxLength: 254 }),
          purpose: Type.Optional(Type.String({ enum: ['sign_in', 'reset_password'], default: 'sign_in' })),
        }),
        response: messageResponse,
      },
    },
    async (request) => {
      const purpose = request.body.purpose === 'reset_password' ? LinkPurpose.RESET_PASSWORD : LinkPurpose.SIGN_IN;
      await app.services.linkAuth.request(request.ctx, request.body.email, purpose);
      return { response_code: 200, message: 'If this address belongs to an active account, a link has been sent to it' };
    },
  );

  app.post(
    '/auth/magic-link/verify',
    {
      ...publicRoute,
      schema: {
        tags: ['Authentication'],
        summary: 'Sign in with a magic link',
        security: [],
        body: Type.Object({ token: Secret('The token of the link') }),
        response: signInResponse,
      },
    },
    async (request) => presentSignIn(await app.services.linkAuth.verify(request.ctx, request.body.token)),
  );

  app.post(
    '/auth/magic-link/set-password/:token',
    {
      ...publicRoute,
      schema: {
        tags: ['Authentication'],
        summary: 'Set a password from an invite or reset link; ends any session and returns no token',
        security: [],
        params: Type.Object({ token: Secret('The token of the invite or reset link') }),
        body: Type.Object({ password: Type.String({ minLength: 1, maxLength: 256 }) }),
        response: messageResponse,
      },
    },
    async (request) => {
      await app.services.linkAuth.setPassword(request.ctx, request.params.token, request.body.password);
      return { response_code: 200, message: 'Password set; sign in with it' };
    },
  );

  app.post(
    '/auth/desktop/code',
    {
      schema: {
        tags: ['Authentication'],
        summary: "Mint a single-use code (2 minutes) for the desktop app, bound to the hash of the app's state",
        body: Type.Object({ state_hash: Type.String({ minLength: 1, maxLength: 100, description: 'base64url(SHA-256(state))' }) }),
        response: createdResponse(Type.Object({ code: Type.String(), expires_at: Timestamp })),
      },
    },
    async (request, reply) => {
      const { secret, expiresAt } = await app.services.desktopHandoff.createCode(request.ctx, request.body.state_hash);
      return reply.code(201).send(created('Desktop sign-in code created', { code: secret, expires_at: expiresAt }));
    },
  );

  app.post(
    '/auth/desktop/exchange',
    {
      ...publicRoute,
      schema: {
        tags: ['Authentication'],
        summary: "Exchange a desktop code and the app's own state for a session",
        security: [],
        body: Type.Object({ code: Secret('The code the browser minted'), state: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: signInResponse,
      },
    },
    async (request) => presentSignIn(await app.services.desktopHandoff.exchange(request.ctx, request.body.code, request.body.state)),
  );
};

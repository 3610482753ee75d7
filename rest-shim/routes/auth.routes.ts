import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { DEVICE_APPS } from '../../src/domains/notifications/notification-types';
import { accountKey } from '../../src/context/rate-limits';
import { NotFoundError } from '../../src/errors/app-error';
import { presentSignIn, SignInAnswer } from '../presenters/sign-in.presenter';
import { presentUserProfile, UserProfileBody } from '../presenters/user.presenter';
import { presentWorkspace, WorkspaceBody } from '../presenters/workspace.presenter';
import { ErrorBody, ServerErrorBody, Nullable, okResponse } from '../schemas';
import { ok } from '../envelope';

const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
  challenge_token: Type.Optional(Nullable(Type.String({ maxLength: 20_000, description: 'Proof from the bot-check widget' }))),
});

const ChangePasswordBody = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: 256 }),
  new_password: Type.String({ minLength: 1, maxLength: 256 }),
});

const MessageWithToken = Type.Object({ response_code: Type.Integer(), message: Type.String(), token: Type.String() });

/** Password sign-in with its bot-check challenge, password change, the profile and logout. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/auth/challenge',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Authentication'],
        summary: 'A bot-check challenge for the ALTCHA widget (extension; CHALLENGE_PROVIDER=altcha)',
        description: 'Answers the bare ALTCHA challenge object, as the widget expects. Signed, expires in 10 minutes, redeemable once.',
        security: [],
        response: { 200: Type.Object({}, { additionalProperties: true }), '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (_request, reply) => {
      const challenge = await app.services.passwordAuth.challenge();
      if (!challenge) throw new NotFoundError('Self-hosted challenge (the bot-check provider issues its own)');
      return reply.header('cache-control', 'no-store').send(challenge);
    },
  );

  app.post(
    '/auth/login',
    {
      config: { auth: 'public', budget: { name: 'signIn', key: (body: Static<typeof LoginBody>) => accountKey({ email: body.email }) } },
      schema: {
        tags: ['Authentication'],
        summary: 'Sign in with e-mail, password and a bot-check token',
        security: [],
        body: LoginBody,
        response: { 200: SignInAnswer, '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request) => {
      const b = request.body;
      const result = await app.services.passwordAuth.login(request.ctx, {
        email: b.email,
        password: b.password,
        challengeToken: b.challenge_token,
      });
      return presentSignIn(result);
    },
  );

  app.post(
    '/auth/change-password',
    {
      config: { budget: { name: 'signIn', key: (_body, ctx) => accountKey({ userId: ctx.requireSession().userId }) } },
      schema: {
        tags: ['Authentication'],
        summary: 'Change the password (extension); every earlier session token stops working',
        body: ChangePasswordBody,
        response: { 200: MessageWithToken, '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request) => {
      const token = await app.services.passwordAuth.changePassword(request.ctx, request.body.current_password, request.body.new_password);
      return { response_code: 200, message: 'Password changed; use the new token', token };
    },
  );

  app.get(
    '/auth/me',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'The signed-in user with role, organization and workspace',
        response: okResponse(Type.Object({ user: UserProfileBody, workspace: WorkspaceBody })),
      },
    },
    async (request) => {
      const profile = await app.services.users.me(request.ctx);
      return ok({ user: presentUserProfile(profile), workspace: presentWorkspace(profile.organization) });
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'End the current session (extension); its token stops working at once. The user’s device tokens of `app` (all of them when no app is named) are unregistered first',
        querystring: Type.Object({ app: Type.Optional(Type.String({ enum: [...DEVICE_APPS], description: 'The app signing out: its device tokens stop receiving pushes' })) }),
        response: { 200: Type.Object({ response_code: Type.Integer(), message: Type.String() }), '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request) => {
      await app.services.notifications.unregisterAtLogout(request.ctx, request.query.app);
      await app.services.sessions.end(request.ctx);
      return { response_code: 200, message: 'Signed out' };
    },
  );
};

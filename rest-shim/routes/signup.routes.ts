import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { presentSessionUser, presentSessionWorkspace, SessionUserBody, SessionWorkspaceBody } from '../presenters/sign-in.presenter';
import { ErrorBody, ServerErrorBody } from '../schemas';

const SignupBody = Type.Object({
  first_name: Type.String({ minLength: 1, maxLength: 100 }),
  last_name: Type.String({ minLength: 1, maxLength: 100 }),
  official_email: Type.String({ minLength: 1, maxLength: 254 }),
  primary_contact_number: Type.String({ minLength: 1, maxLength: 30 }),
  password: Type.String({ minLength: 8, maxLength: 256 }),
  organization_name: Type.String({ minLength: 1, maxLength: 200 }),
});

const SignupAnswer = Type.Object({
  response_code: Type.Integer(),
  message: Type.String(),
  token: Type.String(),
  user: Type.Composite([SessionUserBody, Type.Object({ status: Type.Integer() })]),
  workspace: SessionWorkspaceBody,
});

/** POST /signup/register: a new workspace and its first admin, signed in. */
export const signupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/signup/register',
    {
      // Per client address, spent on arrival: bad input counts too.
      config: { auth: 'public', budget: { name: 'signup' } },
      schema: {
        tags: ['Signup'],
        summary: 'Create a workspace and its first admin user',
        security: [],
        body: SignupBody,
        response: { 201: SignupAnswer, '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const signedUp = await app.services.signup.register(request.ctx.em, {
        firstName: b.first_name,
        lastName: b.last_name,
        officialEmail: b.official_email,
        primaryContactNumber: b.primary_contact_number,
        password: b.password,
        organizationName: b.organization_name,
      });
      return reply.code(201).send({
        response_code: 201,
        message: 'Workspace created',
        token: signedUp.token,
        user: { ...presentSessionUser(signedUp), status: signedUp.user.status },
        workspace: presentSessionWorkspace(signedUp.organization),
      });
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Limits } from '../../src/context/rate-limits';
import { presentWorkspace } from '../presenters/workspace.presenter';
import { ErrorBody, Nullable } from '../schemas';

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
  user: Type.Object({
    id: Type.Integer(),
    first_name: Type.String(),
    last_name: Type.String(),
    official_email: Nullable(Type.String()),
    role_name: Type.String(),
    user_type: Type.Integer(),
    organization_id: Type.Integer(),
    status: Type.Integer(),
  }),
  workspace: Type.Object({
    workspace_id: Type.String(),
    slug: Type.String(),
    display_name: Type.String(),
    plan: Type.String(),
    status: Type.Integer(),
  }),
});

/** POST /signup/register: a new workspace and its first admin, signed in. */
export const signupRoutes: FastifyPluginAsyncTypebox<{ limits: Limits }> = async (app, { limits }) => {
  app.post(
    '/signup/register',
    {
      config: { auth: 'public' },
      onRequest: limits.signup,
      schema: {
        tags: ['Signup'],
        summary: 'Create a workspace and its first admin user',
        security: [],
        body: SignupBody,
        response: { 201: SignupAnswer, '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const { token, user, role, organization } = await app.services.signup.register(request.ctx.em, {
        firstName: b.first_name,
        lastName: b.last_name,
        officialEmail: b.official_email,
        primaryContactNumber: b.primary_contact_number,
        password: b.password,
        organizationName: b.organization_name,
      });
      const { workspace_id, slug, display_name, plan, status } = presentWorkspace(organization);
      return reply.code(201).send({
        response_code: 201,
        message: 'Workspace created',
        token,
        user: {
          id: user.id,
          first_name: user.firstName,
          last_name: user.lastName,
          official_email: user.officialEmail,
          role_name: role.name,
          user_type: user.userType,
          organization_id: organization.id,
          status: user.status,
        },
        workspace: { workspace_id, slug, display_name, plan, status },
      });
    },
  );
};

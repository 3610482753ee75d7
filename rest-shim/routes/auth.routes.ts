import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { presentUserProfile, UserProfileBody } from '../presenters/user.presenter';
import { presentWorkspace, WorkspaceBody } from '../presenters/workspace.presenter';
import { ErrorBody, okResponse } from '../schemas';
import { ok } from '../envelope';

/** GET /auth/me and POST /auth/logout. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      const { user, organization } = await app.services.users.me(request.ctx);
      return ok({ user: presentUserProfile(user, organization), workspace: presentWorkspace(organization) });
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'End the current session (extension); its token stops working at once',
        response: { 200: ErrorBody, '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request) => {
      await app.services.sessions.end(request.ctx);
      return { response_code: 200, message: 'Signed out' };
    },
  );
};

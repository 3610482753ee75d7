import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { USER_TYPE_NAMES } from '../../src/domains/users/user.entity';
import { created, ok, paginated } from '../envelope';
import { exportRoute } from '../export-route';
import { usersExport } from '../../src/domains/users/users.export';
import { presentUser, presentUserProfile, UserBody, UserProfileBody } from '../presenters/user.presenter';
import { createdResponse, IdParams, listResponse, okResponse, listQuery, pageRequestOf, StatusFilter } from '../schemas';
import { USER_SORT } from '../../src/domains/users/user.service';

const UserListQuery = listQuery(
  {
    type: Type.Optional(Type.String({ enum: Object.keys(USER_TYPE_NAMES), description: 'admin, employee, distributor or retailer' })),
    status: StatusFilter,
  },
  { sort: USER_SORT, search: 'Matches name, e-mail or phone' },
);

const CreateUserBody = Type.Object({
  first_name: Type.String({ minLength: 1, maxLength: 100 }),
  last_name: Type.String({ minLength: 1, maxLength: 100 }),
  official_email: Type.Optional(Type.Union([Type.String({ maxLength: 254 }), Type.Null()])),
  primary_contact_number: Type.String({ minLength: 1, maxLength: 30 }),
  password: Type.String({ minLength: 8, maxLength: 256 }),
  role_id: Type.Integer({ minimum: 1 }),
  user_type: Type.Integer({ enum: [0, 1, 2, 3], description: '0 admin, 1 employee, 2 distributor, 3 retailer' }),
  store_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  town_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  route_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
});

/** GET/POST /users and GET /users/{id}. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    { schema: { tags: ['Users'], summary: 'List users', querystring: UserListQuery, response: listResponse(UserBody) } },
    async (request) => {
      const q = request.query;
      const page = await app.services.users.list(
        request.ctx,
        { userType: q.type === undefined ? undefined : USER_TYPE_NAMES[q.type as string], status: q.status, search: q.search },
        pageRequestOf(q),
      );
      return paginated(page, presentUser);
    },
  );

  app.post(
    '/users',
    {
      schema: {
        tags: ['Users'],
        summary: 'Create a user (admins only)',
        body: CreateUserBody,
        response: createdResponse(UserBody),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const user = await app.services.users.create(request.ctx, {
        firstName: b.first_name,
        lastName: b.last_name,
        officialEmail: b.official_email,
        primaryContactNumber: b.primary_contact_number,
        password: b.password,
        roleId: b.role_id,
        userType: b.user_type,
        storeName: b.store_name,
        townId: b.town_id,
        routeId: b.route_id,
      });
      return reply.code(201).send(created('User created', presentUser(user)));
    },
  );

  app.get(
    '/users/:id',
    { schema: { tags: ['Users'], summary: 'A user with role and organization', params: IdParams, response: okResponse(UserProfileBody) } },
    async (request) => {
      return ok(presentUserProfile(await app.services.users.profile(request.ctx, request.params.id)));
    },
  );

  exportRoute(app, {
    source: usersExport,
    summary: 'Users as XLSX or PDF (administrators and API keys)',
    query: {
      type: Type.Optional(Type.String({ enum: Object.keys(USER_TYPE_NAMES), description: 'admin, employee, distributor or retailer' })),
      status: StatusFilter,
    },
    filters: (q) => ({ userType: q.type === undefined ? undefined : USER_TYPE_NAMES[q.type], userStatus: q.status }),
  });
};

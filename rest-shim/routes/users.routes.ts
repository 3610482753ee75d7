import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { USER_TYPE_NAMES } from '../../src/domains/users/user.entity';
import { changed, created, ok, paginated } from '../envelope';
import { exportRoute } from '../export-route';
import { usersExport } from '../../src/domains/users/users.export';
import { presentUser, presentUserProfile, UserBody, UserProfileBody } from '../presenters/user.presenter';
import { changedResponse, createdResponse, ErrorBody, IdParams, listResponse, Nullable, okResponse, listQuery, pageRequestOf, ServerErrorBody, StatusFilter } from '../schemas';
import { ACTIVE_STATUSES, ActiveStatus } from '../../src/db/active-status';
import { USER_SORT } from '../../src/domains/users/user.service';

const UserListQuery = listQuery(
  {
    type: Type.Optional(Type.String({ enum: Object.keys(USER_TYPE_NAMES), description: 'admin, employee, distributor or retailer' })),
    status: StatusFilter,
    role_id: Type.Optional(Type.Integer({ minimum: 1, description: "Only users of this role (one of the workspace's)" })),
    town_id: Type.Optional(Type.Integer({ minimum: 1, description: "Only users of this town (one of the workspace's)" })),
    route_id: Type.Optional(Type.Integer({ minimum: 1, description: "Only users of this route (one of the workspace's)" })),
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

const UpdateUserBody = Type.Object(
  {
    first_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    last_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    official_email: Type.Optional(Nullable(Type.String({ maxLength: 254, description: 'Unique across workspaces; null removes it' }))),
    primary_contact_number: Type.Optional(Type.String({ minLength: 1, maxLength: 30, description: 'Unique across workspaces' })),
    role_id: Type.Optional(Type.Integer({ minimum: 1 })),
    user_type: Type.Optional(
      Type.Integer({
        enum: [0, 1, 2, 3],
        description:
          '0 admin, 1 employee, 2 distributor, 3 retailer. 409: admin to distributor or retailer; between customer (2, 3) and staff (0, 1) once the user has orders; away from admin for the last active admin',
      }),
    ),
    store_name: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'Distributors and retailers only; null removes it' }))),
    town_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'null removes the town (route_id must be null too)' }))),
    route_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'A route of the town; sets the town when none is given' }))),
  },
  { description: 'Any field of create but the password; omitted fields stay' },
);

const StatusBody = Type.Object({
  status: Type.Integer({ enum: ACTIVE_STATUSES, description: '1 active, 0 inactive (ends their session at once, keeps their orders)' }),
});

const PasswordResetAccepted = Type.Object({
  response_code: Type.Integer(),
  message: Type.String(),
  data: Type.Object({ user_id: Type.Integer(), sent_to: Type.String({ description: 'The e-mail address the link goes to' }) }),
});

/** GET/POST /users, GET/PUT /users/{id}, PATCH /users/{id}/status, POST /users/{id}/password-reset. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    { schema: { tags: ['Users'], summary: 'List users', querystring: UserListQuery, response: listResponse(UserBody) } },
    async (request) => {
      const q = request.query;
      const page = await app.services.users.list(
        request.ctx,
        {
          userType: q.type === undefined ? undefined : USER_TYPE_NAMES[q.type as string],
          status: q.status,
          search: q.search,
          roleId: q.role_id,
          townId: q.town_id,
          routeId: q.route_id,
        },
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

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['Users'],
        summary: 'Change a user (admins and API keys); omitted fields stay, the password is not among them',
        params: IdParams,
        body: UpdateUserBody,
        response: changedResponse(UserBody),
      },
    },
    async (request) => {
      const b = request.body;
      const user = await app.services.users.update(request.ctx, request.params.id, {
        firstName: b.first_name,
        lastName: b.last_name,
        officialEmail: b.official_email,
        primaryContactNumber: b.primary_contact_number,
        roleId: b.role_id,
        userType: b.user_type,
        storeName: b.store_name,
        townId: b.town_id,
        routeId: b.route_id,
      });
      return changed('User updated', presentUser(user));
    },
  );

  app.patch(
    '/users/:id/status',
    {
      schema: {
        tags: ['Users'],
        summary: 'Activate (1) or deactivate (0) a user (admins and API keys); deactivation ends their session and keeps their orders',
        params: IdParams,
        body: StatusBody,
        response: changedResponse(UserBody),
      },
    },
    async (request) => {
      const user = await app.services.users.setStatus(request.ctx, request.params.id, request.body.status);
      return changed(user.user.status === ActiveStatus.ACTIVE ? 'User activated' : 'User deactivated', presentUser(user));
    },
  );

  app.post(
    '/users/:id/password-reset',
    {
      schema: {
        tags: ['Users'],
        summary: 'E-mail a user a link to choose a new password (admins and API keys); never sets one',
        description: '202: the link is on its way (sent after the answer). 409: the user has no e-mail address, or is inactive.',
        params: IdParams,
        response: { 202: PasswordResetAccepted, '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request, reply) => {
      const sent = await app.services.users.sendPasswordReset(request.ctx, request.params.id);
      return reply.code(202).send({ response_code: 202, message: sent.message, data: { user_id: sent.userId, sent_to: sent.sentTo } });
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

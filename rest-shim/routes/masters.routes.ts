import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TProperties } from '@sinclair/typebox';
import { MASTER_KINDS, type MasterInput, type MasterKindName } from '../../src/domains/masters/master-kinds';
import { ValidationError } from '../../src/errors/app-error';
import { changed, created, paginated } from '../envelope';
import { MASTER_REST, presentMaster } from '../presenters/master.presenter';
import { changedResponse, createdResponse, IdParams, listResponse, listQuery, pageRequestOf, StatusFilter } from '../schemas';
import { MASTER_SORT } from '../../src/domains/masters/master.service';

const status = StatusFilter;

/** Fields each kind takes beyond its name and status. */
const EXTRA_FIELDS: Record<MasterKindName, TProperties> = {
  'product-classes': { unit: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'e.g. litre, kg, piece' })) },
  roles: { description: Type.Optional(Type.String({ maxLength: 500 })) },
  towns: {},
  routes: { town_id: Type.Integer({ minimum: 1 }) },
  'production-units': {},
  'no-sale-reasons': {},
  'crate-types': { deposit_value: Type.Optional(Type.Number({ minimum: 0, description: 'What one crate is worth (default 0): a damaged or lost crate is charged at it' })) },
  outlets: {
    town_id: Type.Integer({ minimum: 1 }),
    route_id: Type.Integer({ minimum: 1, description: 'A route of the town' }),
    phone: Type.String({ minLength: 1, maxLength: 30 }),
  },
};

const TAG = 'Masters';

/** The service names the name field `name` (its GraphQL spelling); over REST it is the kind's own field. */
async function restFieldNames<T>(nameField: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ValidationError && err.field === 'name') throw new ValidationError(nameField, err.problem);
    throw err;
  }
}

function toInput(kind: MasterKindName, body: Record<string, unknown>): MasterInput {
  return {
    name: body[MASTER_REST[kind].nameField] as string | undefined,
    status: body.status as number | undefined,
    unit: body.unit as string | undefined,
    description: body.description as string | undefined,
    townId: body.town_id as number | undefined,
    routeId: body.route_id as number | undefined,
    phone: body.phone as string | undefined,
    depositValue: body.deposit_value as number | undefined,
  };
}

/** GET, POST, PUT and DELETE (a soft delete) under /masters/{kind} for every master kind; an outlet's tag. */
export const masterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const kind of Object.keys(MASTER_REST) as MasterKindName[]) {
    const { nameField, body } = MASTER_REST[kind];
    const name = Type.String({ minLength: 1, maxLength: 120 });
    const createBody = Type.Object({ [nameField]: name, status, ...EXTRA_FIELDS[kind] });
    const updateBody = Type.Partial(createBody, { minProperties: 1 });
    const path = `/masters/${kind}`;

    app.get(
      path,
      {
        schema: {
          tags: [TAG],
          summary: `List ${kind.replaceAll('-', ' ')}`,
          querystring: listQuery({ status: StatusFilter }, { sort: MASTER_SORT, search: 'Matches the name' }),
          response: listResponse(body),
        },
      },
      async (request) => {
        const { search, status: statusFilter } = request.query;
        const page = await app.services.masters.list(request.ctx, kind, { search, status: statusFilter }, pageRequestOf(request.query));
        return paginated(page, (e) => presentMaster(kind, e));
      },
    );

    app.post(
      path,
      { schema: { tags: [TAG], summary: `Create one of ${kind.replaceAll('-', ' ')} (admins only)`, body: createBody, response: createdResponse(body) } },
      async (request, reply) => {
        const input = toInput(kind, request.body as Record<string, unknown>);
        const record = await restFieldNames(nameField, () => app.services.masters.create(request.ctx, kind, input));
        return reply.code(201).send(created('Created', presentMaster(kind, record)));
      },
    );

    app.put(
      `${path}/:id`,
      {
        schema: {
          tags: [TAG],
          summary: `Change one of ${kind.replaceAll('-', ' ')} (admins only); omitted fields stay`,
          params: IdParams,
          body: updateBody,
          response: changedResponse(body),
        },
      },
      async (request) => {
        const input = toInput(kind, request.body as Record<string, unknown>);
        const record = await restFieldNames(nameField, () => app.services.masters.update(request.ctx, kind, request.params.id, input));
        return changed('Updated', presentMaster(kind, record));
      },
    );

    app.delete(
      `${path}/:id`,
      {
        schema: {
          tags: [TAG],
          summary: `Deactivate one of ${kind.replaceAll('-', ' ')} (admins only): status 0, the record stays; 409 while an active record uses it`,
          params: IdParams,
          response: changedResponse(body),
        },
      },
      async (request) => {
        const { read, changed: deactivated } = await app.services.masters.deactivate(request.ctx, kind, request.params.id);
        const { label } = MASTER_KINDS[kind];
        return changed(deactivated ? `${label} deactivated` : `${label} was already inactive`, presentMaster(kind, read));
      },
    );
  }

  app.post(
    '/masters/outlets/:id/tag',
    {
      schema: {
        tags: [TAG],
        summary: 'Tag an outlet on a visit: its location and now (staff and API keys)',
        params: IdParams,
        body: Type.Object({ latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }) }),
        response: changedResponse(MASTER_REST.outlets.body),
      },
    },
    async (request) => changed('Outlet tagged', presentMaster('outlets', await app.services.masters.tagOutlet(request.ctx, request.params.id, request.body))),
  );
};

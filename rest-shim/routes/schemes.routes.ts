import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import {
  PreviewBody, presentPreview, presentScheme, SCHEME_BUDGET_TEXT, SCHEME_KIND_TEXT, SCHEME_SCOPE_TEXT, SCHEME_STATUS_TEXT, SCHEME_TARGET_TEXT, SchemeBody,
} from '../presenters/scheme.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';
import { MAX_ORDER_LINES } from '../../src/domains/orders/order-pricing';
import { SCHEME_BUDGET_KINDS, SCHEME_KINDS, SCHEME_SCOPES, SCHEME_STATUSES, SCHEME_TARGETS } from '../../src/domains/schemes/scheme.entity';
import { MAX_SCOPE_IDS, MAX_SLABS, type SchemeInput } from '../../src/domains/schemes/scheme-rules';
import { SCHEME_SORT } from '../../src/domains/schemes/scheme.service';

const SlabInput = Type.Object({
  min_qty: Type.Integer({ minimum: 1, description: 'Least quantity of the target reaching the slab; slabs ascend' }),
  discount_percent: Type.Optional(Nullable(Type.Number({ description: 'Discount schemes: percent of the line (exactly one of discount_percent, discount_amount)' }))),
  discount_amount: Type.Optional(Nullable(Type.Number({ description: 'Discount schemes: an amount off each unit' }))),
  free_qty: Type.Optional(Nullable(Type.Integer({ description: 'Free goods schemes: whole free units' }))),
  free_variant_id: Type.Optional(Nullable(Type.Integer({ description: 'Free goods schemes: the free variant (default: the target variant)' }))),
  recursive: Type.Optional(Type.Boolean({ description: 'Free goods: free_qty for every min_qty reached (default false: once)' })),
});

const fields = {
  name: Type.String({ maxLength: 120 }),
  code: Type.String({ maxLength: 40, description: 'Unique in the workspace: letters, digits, - and _' }),
  kind: Type.Integer({ enum: SCHEME_KINDS, description: SCHEME_KIND_TEXT }),
  target_kind: Type.Integer({ enum: SCHEME_TARGETS, description: SCHEME_TARGET_TEXT }),
  target_id: Type.Integer({ minimum: 1 }),
  scope: Type.Optional(Type.Integer({ enum: SCHEME_SCOPES, description: `${SCHEME_SCOPE_TEXT}; default 1` })),
  scope_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { maxItems: MAX_SCOPE_IDS })),
  valid_from: DateString,
  valid_to: Type.Optional(Nullable(DateString)),
  priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Higher first; default 0' })),
  stackable: Type.Optional(Type.Boolean()),
  budget_kind: Type.Optional(Nullable(Type.Integer({ enum: SCHEME_BUDGET_KINDS, description: SCHEME_BUDGET_TEXT }))),
  budget: Type.Optional(Nullable(Type.Number())),
  status: Type.Optional(Type.Integer({ enum: SCHEME_STATUSES, description: SCHEME_STATUS_TEXT })),
  slabs: Type.Array(SlabInput, { minItems: 1, maxItems: MAX_SLABS }),
};
const CreateBody = Type.Object(fields);
const UpdateBody = Type.Partial(Type.Object(fields), { minProperties: 1 });

function inputOf(b: Partial<Static<typeof CreateBody>>): Partial<SchemeInput> {
  return {
    name: b.name, code: b.code, kind: b.kind, targetKind: b.target_kind, targetId: b.target_id, scope: b.scope, scopeIds: b.scope_ids,
    validFrom: b.valid_from, validTo: b.valid_to, priority: b.priority, stackable: b.stackable, budgetKind: b.budget_kind, budget: b.budget, status: b.status,
    slabs: b.slabs?.map((s) => ({
      minQty: s.min_qty, discountPercent: s.discount_percent, discountAmount: s.discount_amount, freeQty: s.free_qty, freeVariantId: s.free_variant_id, recursive: s.recursive,
    })),
  };
}

const SchemeQuery = listQuery(
  {
    status: Type.Optional(Type.Integer({ enum: SCHEME_STATUSES, description: SCHEME_STATUS_TEXT })),
    kind: Type.Optional(Type.Integer({ enum: SCHEME_KINDS, description: SCHEME_KIND_TEXT })),
    target_kind: Type.Optional(Type.Integer({ enum: SCHEME_TARGETS, description: SCHEME_TARGET_TEXT })),
    target_id: Type.Optional(Type.Integer({ minimum: 1, description: 'With target_kind' })),
    active_on: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: active schemes valid on that local day' }),
    search: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { sort: SCHEME_SORT, search: 'name or code' },
);

const PreviewRequest = Type.Object({
  customer_id: Type.Optional(Type.Integer({ minimum: 1, description: "Required for staff and API keys; customers preview their own cart (default: theirs)" })),
  items: Type.Array(Type.Object({ product_variant_id: Type.Integer(), quantity: Type.Integer() }), { maxItems: MAX_ORDER_LINES }),
  date: Type.Optional({ ...DateString, description: "The local day to evaluate on; default the workspace's today" }),
});

/** Schemes: CRUD (admins write, staff read) and the cart preview (see the README's API notes). */
export const schemeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Schemes'];

  app.post('/schemes', { schema: { tags, summary: 'Create a scheme (admins and API keys)', body: CreateBody, response: createdResponse(SchemeBody) } }, async (request, reply) => {
    const scheme = await app.services.schemes.create(request.ctx, inputOf(request.body) as SchemeInput);
    return reply.code(201).send(created('Scheme created', presentScheme(scheme)));
  });

  app.get('/schemes', { schema: { tags, summary: 'Schemes, highest priority first (staff)', querystring: SchemeQuery, response: listResponse(SchemeBody) } }, async (request) => {
    const q = request.query;
    const filter = { status: q.status, kind: q.kind, targetKind: q.target_kind, targetId: q.target_id, activeOn: q.active_on, search: q.search };
    return paginated(await app.services.schemes.list(request.ctx, filter, pageRequestOf(q)), presentScheme);
  });

  app.get('/schemes/:id', { schema: { tags, summary: 'One scheme (staff)', params: IdParams, response: okResponse(SchemeBody) } }, async (request) =>
    ok(presentScheme(await app.services.schemes.get(request.ctx, request.params.id))),
  );

  app.patch(
    '/schemes/:id',
    { schema: { tags, summary: 'Change the fields given (admins and API keys); disable with status 2', params: IdParams, body: UpdateBody, response: changedResponse(SchemeBody) } },
    async (request) => changed('Scheme updated', presentScheme(await app.services.schemes.update(request.ctx, request.params.id, inputOf(request.body)))),
  );

  app.post(
    '/schemes/preview',
    { schema: { tags, summary: 'What the schemes do to a cart: the evaluation an order of it runs (customers: their own cart)', body: PreviewRequest, response: okResponse(PreviewBody) } },
    async (request) => {
      const b = request.body;
      const preview = await app.services.schemes.preview(request.ctx, {
        customerId: b.customer_id,
        date: b.date,
        items: b.items.map((i) => ({ productVariantId: i.product_variant_id, quantity: i.quantity })),
      });
      return ok(presentPreview(preview));
    },
  );
};

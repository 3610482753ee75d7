import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { requestBaseUrl } from '../../src/context/request-base-url';
import { GRIEVANCE_CATEGORIES, GRIEVANCE_RESOLUTION_ACTIONS, GRIEVANCE_STATUSES } from '../../src/domains/grievances/grievance.entity';
import { MAX_PHOTO_BYTES } from '../../src/domains/grievances/grievance-photos';
import { GRIEVANCE_ACTIONS, type GrievanceAction } from '../../src/domains/grievances/grievance-rules';
import { GRIEVANCE_SORT, MAX_GRIEVANCE_TEXT } from '../../src/domains/grievances/grievance.service';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from '../../src/domains/orders/order-pricing';
import { ValidationError } from '../../src/errors/app-error';
import { changed, created, ok, paginated } from '../envelope';
import { attachment } from '../export-route';
import { GRIEVANCE_CATEGORY_TEXT, GRIEVANCE_STATUS_TEXT, GrievanceBody, GrievancePhotoBody, presentGrievance } from '../presenters/grievance.presenter';
import { changedResponse, createdResponse, ErrorBody, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf, ServerErrorBody, Timestamp } from '../schemas';

const RaiseBody = Type.Object({
  customer_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'Staff and keys: the distributor or retailer (required); customers: omitted or their own id' }))),
  category: Type.Integer({ enum: GRIEVANCE_CATEGORIES, description: GRIEVANCE_CATEGORY_TEXT }),
  order_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: "One of the customer's orders" }))),
  description: Type.String({ minLength: 1, maxLength: MAX_GRIEVANCE_TEXT }),
  assignee_user_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'Staff only: an active admin or employee' }))),
});

const AssignBody = Type.Object({ assignee_user_id: Nullable(Type.Integer({ minimum: 1, description: 'An active admin or employee; null unassigns' })) });

const ResolveBody = Type.Object({
  resolution: Type.String({ minLength: 1, maxLength: MAX_GRIEVANCE_TEXT }),
  action: Type.Optional(Type.String({ enum: [...GRIEVANCE_RESOLUTION_ACTIONS], description: 'none (default); credit_note (admins and keys): a credit note to the ledger; replacement: an FOC request (reason replacement)' })),
  credit_note_amount: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, description: 'credit_note: the amount credited' }))),
  replacement_items: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object({
          product_variant_id: Type.Integer({ minimum: 1 }),
          quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }),
          unit_cost: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
        }),
        { minItems: 1, maxItems: MAX_ORDER_LINES },
      ),
    ),
  ),
});

const GrievanceQuery = listQuery(
  {
    status: Type.Optional(Type.Integer({ enum: GRIEVANCE_STATUSES, description: GRIEVANCE_STATUS_TEXT })),
    category: Type.Optional(Type.Integer({ enum: GRIEVANCE_CATEGORIES, description: GRIEVANCE_CATEGORY_TEXT })),
    customer_id: Type.Optional(Type.Integer({ minimum: 1 })),
    assignee_user_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { sort: GRIEVANCE_SORT },
);

const PhotoParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'Grievance id' }), photoId: Type.Integer({ minimum: 1, description: 'Photo id' }) });
const PhotoLinkBody = Type.Intersect([
  GrievancePhotoBody,
  Type.Object({ url: Type.String({ description: 'Absolute pre-signed URL, no credential needed' }), url_expires_at: Timestamp }),
]);
const FileParams = Type.Object({ photoId: Type.Integer({ minimum: 1, description: 'Photo id (from the link)' }) });
const FileQuery = Type.Object({
  expires: Type.Integer({ minimum: 0, description: 'Unix time the link stops working (from the link)' }),
  signature: Type.String({ minLength: 1, maxLength: 100, description: 'From the link' }),
});
const binary = { type: 'string', format: 'binary' };

/** The one photo of a multipart upload, in the field `file` (MAX_PHOTO_BYTES at most: 400 naming file). */
async function uploadedPhoto(request: FastifyRequest): Promise<{ fileName: string; data: Buffer }> {
  if (!request.isMultipart()) throw new ValidationError('file', 'is required: send multipart/form-data with the JPEG or PNG in the field "file"');
  let part;
  try {
    part = await request.file();
  } catch (err) {
    throw new ValidationError('file', `could not be read from the upload: ${(err as Error).message}`);
  }
  if (!part) throw new ValidationError('file', 'is required: send the JPEG or PNG in the field "file"');
  if (part.fieldname !== 'file') throw new ValidationError('file', `is required: the file came in the field "${part.fieldname.slice(0, 40)}", expected "file"`);
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ValidationError('file', `must be at most ${MAX_PHOTO_BYTES} bytes (5 MB)`);
    throw new ValidationError('file', `could not be read from the upload: ${(err as Error).message}`);
  }
  if (part.file.truncated) throw new ValidationError('file', `must be at most ${MAX_PHOTO_BYTES} bytes (5 MB)`);
  return { fileName: part.filename || 'photo', data };
}

/** Grievances: raise, list, read, assign, the transitions, photos (see the README's API notes "Grievances"). */
export const grievanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Grievances'];
  // Multipart only here: one photo per request, MAX_PHOTO_BYTES.
  await app.register(multipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024 } });

  app.post(
    '/grievances',
    { schema: { tags, summary: 'Raise a grievance (a customer for themselves; staff and keys for a customer)', body: RaiseBody, response: createdResponse(GrievanceBody) } },
    async (request, reply) => {
      const b = request.body;
      const read = await app.services.grievances.raise(request.ctx, {
        customerId: b.customer_id,
        category: b.category,
        orderId: b.order_id,
        description: b.description,
        assigneeUserId: b.assignee_user_id,
      });
      return reply.code(201).send(created('Grievance raised', presentGrievance(read)));
    },
  );

  app.get(
    '/grievances',
    { schema: { tags, summary: 'Grievances, newest first (customers: their own)', querystring: GrievanceQuery, response: listResponse(GrievanceBody) } },
    async (request) => {
      const q = request.query;
      const filter = { status: q.status, category: q.category, customerId: q.customer_id, assigneeUserId: q.assignee_user_id };
      return paginated(await app.services.grievances.list(request.ctx, filter, pageRequestOf(q)), presentGrievance);
    },
  );

  app.get(
    '/grievances/:id',
    { schema: { tags, summary: 'One grievance (customers: their own)', params: IdParams, response: okResponse(GrievanceBody) } },
    async (request) => ok(presentGrievance(await app.services.grievances.get(request.ctx, request.params.id))),
  );

  app.post(
    '/grievances/:id/assign',
    { schema: { tags, summary: 'Assign a grievance to a staff user (staff and keys)', params: IdParams, body: AssignBody, response: changedResponse(GrievanceBody) } },
    async (request) => changed('Grievance assigned', presentGrievance(await app.services.grievances.assign(request.ctx, request.params.id, request.body.assignee_user_id))),
  );

  const summaries: Record<GrievanceAction, string> = {
    acknowledge: 'Acknowledge an open grievance (staff and keys)',
    start: 'Start work on a grievance: open, acknowledged or on hold → in progress (staff and keys)',
    hold: 'Put a grievance on hold: acknowledged or in progress → on hold (staff and keys)',
    resolve: 'Resolve a grievance, optionally with a credit note or an FOC replacement in the same transaction (staff and keys; a credit note: admins and keys)',
    close: 'Close a resolved grievance (staff, keys, or its customer)',
    reopen: 'Reopen a resolved or closed grievance within 7 days → in progress (staff, keys, or its customer)',
  };
  const messages: Record<GrievanceAction, string> = {
    acknowledge: 'Grievance acknowledged',
    start: 'Grievance in progress',
    hold: 'Grievance on hold',
    resolve: 'Grievance resolved',
    close: 'Grievance closed',
    reopen: 'Grievance reopened',
  };
  for (const action of GRIEVANCE_ACTIONS) {
    if (action === 'resolve') {
      app.post(
        '/grievances/:id/resolve',
        { schema: { tags, summary: summaries.resolve, params: IdParams, body: ResolveBody, response: changedResponse(GrievanceBody) } },
        async (request) => {
          const b = request.body;
          const read = await app.services.grievances.transition(request.ctx, request.params.id, 'resolve', {
            resolution: b.resolution,
            action: b.action,
            creditNoteAmount: b.credit_note_amount,
            replacementItems: b.replacement_items?.map((i) => ({ productVariantId: i.product_variant_id, quantity: i.quantity, unitCost: i.unit_cost })) ?? null,
          });
          return changed(messages.resolve, presentGrievance(read));
        },
      );
    } else {
      app.post(
        `/grievances/:id/${action}`,
        { schema: { tags, summary: summaries[action], params: IdParams, response: changedResponse(GrievanceBody) } },
        async (request) => changed(messages[action], presentGrievance(await app.services.grievances.transition(request.ctx, request.params.id, action))),
      );
    }
  }

  app.post(
    '/grievances/:id/photos',
    {
      schema: {
        tags,
        summary: 'Add a photo to a grievance (staff, keys, or its customer)',
        description: `multipart/form-data with the image in the field \`file\`: JPEG or PNG (judged by its bytes), at most 5 MB; at most 10 photos a grievance.`,
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: createdResponse(GrievanceBody),
      },
    },
    async (request, reply) => {
      // Another workspace's (or customer's) grievance is 404 before the upload is read.
      await app.services.grievances.get(request.ctx, request.params.id);
      const file = await uploadedPhoto(request);
      return reply.code(201).send(created('Photo added', presentGrievance(await app.services.grievances.addPhoto(request.ctx, request.params.id, file))));
    },
  );

  app.get(
    '/grievances/:id/photos/:photoId',
    { schema: { tags, summary: 'A photo of a grievance with a fresh pre-signed download URL (15 minutes)', params: PhotoParams, response: okResponse(PhotoLinkBody) } },
    async (request) => {
      const { photo, link } = await app.services.grievances.photoLink(request.ctx, request.params.id, request.params.photoId, () => requestBaseUrl(request));
      return ok({
        id: photo.id,
        file_name: photo.fileName,
        content_type: photo.contentType,
        byte_size: photo.byteSize,
        uploaded_by_user_id: photo.uploadedBy,
        created_at: photo.createdAt,
        url: link.url,
        url_expires_at: link.expiresAt,
      });
    },
  );

  app.get(
    '/grievances/photo-files/:photoId',
    {
      config: { auth: 'public', budget: null, signedUrl: true },
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'The bytes of a grievance photo, by its pre-signed URL (no credential needed; a credential sent must be of the same workspace)',
        params: FileParams,
        querystring: FileQuery,
        response: { 200: { description: 'The image', content: { 'image/jpeg': { schema: binary }, 'image/png': { schema: binary } } }, '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request, reply) => {
      const file = await app.services.grievances.download(request.ctx, { id: request.params.photoId, expires: request.query.expires, signature: request.query.signature });
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachment(file.fileName).replace('attachment', 'inline'))
        .header('content-length', file.byteSize)
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
};
